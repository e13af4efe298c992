// Generates tests/data/collide_reference.jsonl: the manifolds the world's narrow phase produces
// for box/box, box/hull and hull/hull pairs of three small World scenes. The committed file was
// written at 956331f by this generator calling collideBodies, the narrow phase before collide()
// was split out; it now calls collide() and updateManifold, the same output. Regenerate only when
// the narrow phase changes on purpose, and say so in the commit. Hidden test; run by hand with
// TUMBLE_COLLIDE_REFERENCE_OUT=tests/data/collide_reference.jsonl in the environment:
// build/release/tests/test_collide_reference_gen "[.generate]"
// Doubles are written as C99 hex floats so the file holds the exact bits.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "dynamics/contact_update.h"
#include "dynamics/world_internals.h"
#include "pair_families.h"
#include "tumble/shape_file.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

namespace {

std::string hex(Real x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "\"%a\"", x);
  return buf;
}

std::string vec(const Vec3& v) {
  return "[" + hex(v.x) + "," + hex(v.y) + "," + hex(v.z) + "]";
}

std::string quat(const Quat& q) {
  return "[" + hex(q.w) + "," + hex(q.x) + "," + hex(q.y) + "," + hex(q.z) + "]";
}

std::string simplex(const GjkSimplex& s) {
  std::string out = "{\"count\":" + std::to_string(s.count) + ",\"indexA\":[";
  for (int k = 0; k < s.count; ++k) out += (k ? "," : "") + std::to_string(s.indexA[k]);
  out += "],\"indexB\":[";
  for (int k = 0; k < s.count; ++k) out += (k ? "," : "") + std::to_string(s.indexB[k]);
  return out + "]}";
}

struct Scene {
  std::string family;
  World world{Settings{}};
  std::map<int, std::string> shapeOf;  // body index -> shape name
};

std::map<std::string, std::vector<Vec3>> gShapes;

std::shared_ptr<const ConvexHull> hullOf(const std::string& name) {
  auto hull = ConvexHull::build(gShapes.at(name));
  REQUIRE(hull);
  return std::make_shared<const ConvexHull>(std::move(*hull));
}

void add(Scene& sc, const std::string& shape, BodyType type, const Vec3& pos, const Quat& q,
         const Vec3& v = Vec3(0.0), const Vec3& w = Vec3(0.0)) {
  BodyDef def;
  def.type = type;
  def.shape = hullOf(shape);
  def.position = pos;
  def.orientation = q;
  def.linearVelocity = v;
  def.angularVelocity = w;
  const BodyId id = *sc.world.createBody(def);
  sc.shapeOf[id.index] = shape;
}

}  // namespace

TEST_CASE("generate the collide reference data", "[.generate]") {
  const char* out = std::getenv("TUMBLE_COLLIDE_REFERENCE_OUT");
  REQUIRE(out != nullptr);
  const auto dir = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "shapes";
  for (const char* name : {"icosahedron", "dodecahedron", "cylinder16", "cone", "tetrahedron",
                           "random_42", "random_7", "octahedron", "capsule"}) {
    auto def = loadShapeFile(dir / (std::string(name) + ".json"));
    REQUIRE(def);
    gShapes[name] = def->points;
  }
  gShapes["ground"] = boxCorners(Vec3(20.0, 1.0, 20.0));
  gShapes["cube"] = boxCorners(Vec3(0.5));
  gShapes["plank"] = boxCorners(Vec3(1.2, 0.15, 0.4));
  gShapes["brick"] = boxCorners(Vec3(0.4, 0.25, 0.3));

  const char* hulls[] = {"icosahedron", "dodecahedron", "cylinder16", "cone",   "tetrahedron",
                         "random_42",   "random_7",     "octahedron", "capsule"};
  const char* boxes[] = {"cube", "plank", "brick"};
  std::vector<std::unique_ptr<Scene>> scenes;
  PairRng rng(20261121);
  {  // box/box: boxes on a ground box and on each other.
    auto sc = std::make_unique<Scene>();
    sc->family = "box/box";
    add(*sc, "ground", BodyType::Static, Vec3(0.0, -1.0, 0.0), Quat(1, 0, 0, 0));
    for (int i = 0; i < 16; ++i) {
      const Vec3 p(rng.uniform(-1.5, 1.5), 0.6 + 0.7 * i, rng.uniform(-1.5, 1.5));
      add(*sc, boxes[i % 3], BodyType::Dynamic, p, i % 4 == 0 ? Quat(1, 0, 0, 0) : rng.rotation(),
          Vec3(0.0), rng.inBall());
    }
    scenes.push_back(std::move(sc));
  }
  {  // box/hull: hulls on a ground box, boxes and hulls mixed above.
    auto sc = std::make_unique<Scene>();
    sc->family = "box/hull";
    add(*sc, "ground", BodyType::Static, Vec3(0.0, -1.0, 0.0), Quat(1, 0, 0, 0));
    for (int i = 0; i < 18; ++i) {
      const Vec3 p(rng.uniform(-1.2, 1.2), 0.6 + 0.8 * i, rng.uniform(-1.2, 1.2));
      const std::string shape = i % 3 == 2 ? boxes[i % 3] : hulls[i % 9];
      add(*sc, shape, BodyType::Dynamic, p, rng.rotation(), Vec3(0.0), rng.inBall());
    }
    scenes.push_back(std::move(sc));
  }
  {  // hull/hull: hulls on static hulls and on each other.
    auto sc = std::make_unique<Scene>();
    sc->family = "hull/hull";
    for (int i = 0; i < 9; ++i)
      add(*sc, hulls[i], BodyType::Static, Vec3(-2.0 + 1.0 * (i % 3), 0.0, -1.0 + 1.0 * (i / 3)),
          rng.rotation());
    for (int i = 0; i < 18; ++i) {
      const Vec3 p(rng.uniform(-2.0, 0.5), 1.0 + 0.8 * i, rng.uniform(-1.2, 1.2));
      add(*sc, hulls[(i * 5) % 9], BodyType::Dynamic, p, rng.rotation(), Vec3(0.0), rng.inBall());
    }
    scenes.push_back(std::move(sc));
  }

  std::ofstream file(out);
  REQUIRE(file);
  file << "{\"comment\":\"collide() reference: see tests/unit/test_collide.cpp\"}\n";
  for (const auto& [name, pts] : gShapes) {
    file << "{\"shape\":\"" << name << "\",\"points\":[";
    for (size_t i = 0; i < pts.size(); ++i) file << (i ? "," : "") << vec(pts[i]);
    file << "]}\n";
  }
  std::map<std::string, int> counts, touching, overlapping;
  int skipped = 0;
  for (auto& sc : scenes) {
    World& w = sc->world;
    int snapshot = 0;
    for (int step = 1; step <= 120; ++step) {
      REQUIRE(w.step(w.settings().dt));
      if (step % 30 != 0) continue;
      ++snapshot;
      for (const ContactPair& wm : w.contactPairs()) {
        const Body& A = WorldInternals::body(w, wm.a);
        const Body& B = WorldInternals::body(w, wm.b);
        const std::string& sa = sc->shapeOf.at(wm.a.index);
        const std::string& sb = sc->shapeOf.at(wm.b.index);
        auto isBox = [](const std::string& s) {
          return s == "ground" || s == "cube" || s == "plank" || s == "brick";
        };
        const std::string family = isBox(sa) && isBox(sb)   ? "box/box"
                                   : isBox(sa) || isBox(sb) ? "box/hull"
                                                            : "hull/hull";
        // Odd snapshots warm-start GJK from the world's cached simplex, even ones start cold;
        // every third uses a wider speculative margin.
        const bool warm = snapshot % 2 == 1 && wm.cache.count > 0;
        const Real speculative = w.settings().contact.speculativeMargin * (snapshot % 3 ? 1 : 8);
        Manifold m;
        NarrowPhaseCounters counters;
        const CollideResult r = collide(A.shape, A.transform(), B.shape, B.transform(), speculative,
                                        w.settings(), warm ? &wm.cache : nullptr);
        updateManifold(A, B, r, nullptr, m, counters);
        // Pairs without points: one in four is enough.
        if (m.pointCount == 0 && ++skipped % 4 != 0) continue;
        ++counts[family];
        if (m.pointCount > 0) ++touching[family];
        if (m.overlapping) ++overlapping[family];
        file << "{\"family\":\"" << family << "\",\"a\":\"" << sa << "\",\"b\":\"" << sb
             << "\",\"positionA\":" << vec(A.transform().position)
             << ",\"rotationA\":" << quat(A.rotation) << ",\"centerA\":" << vec(A.center)
             << ",\"positionB\":" << vec(B.transform().position)
             << ",\"rotationB\":" << quat(B.rotation) << ",\"centerB\":" << vec(B.center)
             << ",\"speculative\":" << hex(speculative)
             << ",\"warm\":" << (warm ? simplex(wm.cache) : "null")
             << ",\"overlapping\":" << (m.overlapping ? "true" : "false")
             << ",\"distance\":" << hex(m.distance) << ",\"gjkIterations\":" << m.gjkIterations
             << ",\"epaIterations\":" << m.epaIterations << ",\"cache\":" << simplex(m.cache)
             << ",\"normal\":" << vec(m.normal) << ",\"points\":[";
        for (int k = 0; k < m.pointCount; ++k) {
          const ContactPoint& p = m.points[k];
          file << (k ? "," : "") << "{\"localA\":" << vec(p.localA)
               << ",\"localB\":" << vec(p.localB) << ",\"separation\":" << hex(p.separation)
               << ",\"id\":" << p.id << "}";
        }
        file << "]}\n";
      }
    }
  }
  for (const auto& [family, n] : counts)
    WARN(family << ": " << n << " pairs, " << touching[family] << " with points, "
                << overlapping[family] << " overlapping");
}
