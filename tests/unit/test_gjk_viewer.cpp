// The GJK/LP viewer's logic (demo/app/gjk_viewer_model.h) and the engine traces it draws (GJK's
// per-iteration simplex, EPA's final polytope), checked against the Minkowski difference built
// the viewer's way: Qhull's hull of all pairwise differences of the posed shapes of assets/shapes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../../demo/app/gjk_viewer_model.h"
#include "random.h"
#include "tumble/shape_file.h"

using namespace tumble;
using namespace tumble::demo;
using tumble::test::uniform;

namespace {

const std::filesystem::path kShapes = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets/shapes";

Quat randomRotation(std::mt19937_64& rng) {
  for (;;) {
    Quat q{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    const Real l = glm::length(q);
    if (l > 0.1 && l <= 1.0) return q / l;
  }
}

// Largest signed distance of `p` above the faces of `hull` (> 0: outside).
Real outside(const ConvexHull& hull, const Vec3& p) {
  Real m = -1e300;
  for (const HullFace& f : hull.faces()) m = std::max(m, glm::dot(f.normal, p) - f.offset);
  return m;
}

Real radius(std::span<const Vec3> pts) {
  Real r = 0.0;
  for (const Vec3& p : pts) r = std::max(r, glm::length(p));
  return r;
}

struct Posed {
  ViewerBody a, b;
};

// Shapes of assets/shapes at random poses whose centres are 0.3..1.6 m apart: about half overlap.
std::vector<Posed> randomPairs(int count, uint64_t seed) {
  auto library = loadShapeLibrary(kShapes);
  REQUIRE(library.ok());
  REQUIRE(library->size() >= 4);
  std::mt19937_64 rng(seed);
  std::vector<Posed> out;
  for (int k = 0; k < count; ++k) {
    const ShapeDef& sa = (*library)[rng() % library->size()];
    const ShapeDef& sb = (*library)[rng() % library->size()];
    Posed p;
    p.a = bodyAt(sa.name, sa.points);
    p.b = bodyAt(sb.name, sb.points);
    p.a.position = Vec3{uniform(rng, -5, 5), uniform(rng, 0, 3), uniform(rng, -5, 5)};
    Vec3 d{uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)};
    d = glm::length(d) > 1e-3 ? glm::normalize(d) : Vec3{1, 0, 0};
    p.b.position = p.a.position + uniform(rng, 0.3, 1.6) * d;
    p.a.rotation = randomRotation(rng);
    p.b.rotation = randomRotation(rng);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

TEST_CASE("viewer: the Minkowski hull holds the origin exactly when GJK says intersecting",
          "[gjk_viewer]") {
  const Settings settings;
  int hits = 0, misses = 0;
  for (const Posed& p : randomPairs(300, 20260601)) {
    const ViewerQuery q = runViewerQuery(p.a.worldPoints(), p.b.worldPoints(), settings);
    const std::vector<Vec3> diffs = minkowskiPoints(q.worldA, q.worldB);
    auto hull = ConvexHull::build(diffs);
    REQUIRE(hull.ok());
    const Real size = radius(diffs);
    const Real above = outside(*hull, Vec3{0.0});
    INFO(p.a.name << " vs " << p.b.name << ", origin " << above << " m above the hull");
    if (std::fabs(above) <= 1e-9 * size) continue;  // touching: either verdict is right
    CHECK(q.check.gjkIntersect == (above < 0.0));
    CHECK(q.check.agree);
    CHECK(q.check.lp.intersect == (above < 0.0));
    (above < 0.0 ? hits : misses)++;
    if (above < 0.0) {
      // EPA's depth is the origin's distance to the nearest face plane of the hull.
      CHECK(q.check.epaRan);
      CHECK_THAT(q.check.epa.depth, Catch::Matchers::WithinAbs(-above, 1e-7 * size));
    }
  }
  // A representative mix, as the GJK tests ask.
  CHECK(hits > 60);
  CHECK(misses > 60);
}

TEST_CASE("viewer: the last traced simplex gives GJK's distance, a closest point of the hull",
          "[gjk_viewer]") {
  const Settings settings;
  int separated = 0;
  for (const Posed& p : randomPairs(300, 77)) {
    const ViewerQuery q = runViewerQuery(p.a.worldPoints(), p.b.worldPoints(), settings);
    REQUIRE(!q.trace.steps.empty());
    // The distance never grows from one step to the next (GJK's progress test).
    for (size_t k = 1; k < q.trace.steps.size(); ++k)
      CHECK(q.trace.steps[k].distance <= q.trace.steps[k - 1].distance);
    for (const GjkTraceStep& s : q.trace.steps) {
      CHECK(s.count >= 1);
      CHECK(s.count <= 4);
      CHECK(simplexPieces(s.count).edges.size() ==
            static_cast<size_t>(s.count * (s.count - 1) / 2));
    }
    if (q.check.gjkIntersect) continue;
    ++separated;
    const GjkTraceStep& last = q.trace.steps.back();
    const std::vector<Vec3> diffs = minkowskiPoints(q.worldA, q.worldB);
    const Real size = radius(diffs);
    CHECK_THAT(last.distance, Catch::Matchers::WithinAbs(q.check.gjk.distance, 1e-12 * size));
    CHECK_THAT(glm::length(q.closestA - q.closestB),
               Catch::Matchers::WithinAbs(q.check.gjk.distance, 1e-9 * size));
    // v = last.closest is in the hull of the differences and no difference lies beyond its
    // plane: v.w >= |v|^2 for every w (the optimality condition of the closest point).
    auto hull = ConvexHull::build(diffs);
    REQUIRE(hull.ok());
    const Vec3 v = last.closest;
    CHECK(outside(*hull, v) <= 1e-9 * size);
    Real least = 1e300;
    for (const Vec3& w : diffs) least = std::min(least, glm::dot(v, w));
    CHECK(least >= glm::dot(v, v) - 1e-7 * size * size);
  }
  CHECK(separated > 60);
}

TEST_CASE(
    "viewer: EPA's final polytope is closed, inside A - B, and its closest face is the answer",
    "[gjk_viewer]") {
  const Settings settings;
  int overlapping = 0;
  for (const Posed& p : randomPairs(200, 5)) {
    const ViewerQuery q = runViewerQuery(p.a.worldPoints(), p.b.worldPoints(), settings);
    if (!q.check.gjkIntersect) {
      CHECK(q.epa.faces.empty());
      CHECK(q.epa.closestFace == -1);
      continue;
    }
    if (q.check.epa.status == EpaStatus::Touching) continue;
    ++overlapping;
    const EpaTrace& t = q.epa;
    REQUIRE(t.faces.size() >= 4);
    REQUIRE(t.closestFace >= 0);
    REQUIRE(t.closestFace < static_cast<int>(t.faces.size()));
    // Closed: every directed edge is matched by its reverse in another face.
    std::map<std::pair<int, int>, int> edges;
    for (const auto& f : t.faces)
      for (int e = 0; e < 3; ++e) ++edges[{f[e], f[(e + 1) % 3]}];
    for (const auto& [edge, n] : edges) {
      CHECK(n == 1);
      CHECK(edges.count({edge.second, edge.first}) == 1);
    }
    // Vertices are points of A - B.
    const std::vector<Vec3> diffs = minkowskiPoints(q.worldA, q.worldB);
    auto hull = ConvexHull::build(diffs);
    REQUIRE(hull.ok());
    const Real size = radius(diffs);
    for (const Vec3& v : t.vertices) CHECK(outside(*hull, v) <= 1e-9 * size);
    // The closest face's plane is at the depth along the normal.
    const auto& f = t.faces[static_cast<size_t>(t.closestFace)];
    const Vec3& v0 = t.vertices[static_cast<size_t>(f[0])];
    Vec3 n = glm::cross(t.vertices[static_cast<size_t>(f[1])] - v0,
                        t.vertices[static_cast<size_t>(f[2])] - v0);
    n = glm::normalize(n);
    CHECK_THAT(glm::dot(n, q.check.epa.normal), Catch::Matchers::WithinAbs(1.0, 1e-9));
    CHECK_THAT(glm::dot(n, v0), Catch::Matchers::WithinAbs(q.check.epa.depth, 1e-9 * size));
  }
  CHECK(overlapping > 40);
}

TEST_CASE("viewer: the EPA trace overload answers as the plain one", "[gjk_viewer]") {
  const Settings settings;
  for (const Posed& p : randomPairs(100, 11)) {
    const std::vector<Vec3> a = p.a.worldPoints(), b = p.b.worldPoints();
    const SupportShape sa{a, {}, {}}, sb{b, {}, {}};
    const GjkResult gjk = gjkDistance(sa, Transform{}, sb, Transform{}, settings.gjk);
    EpaTrace trace;
    const EpaResult plain = epaPenetration(sa, Transform{}, sb, Transform{}, settings.epa, gjk);
    const EpaResult traced =
        epaPenetration(sa, Transform{}, sb, Transform{}, settings.epa, gjk, &trace);
    CHECK(plain.status == traced.status);
    CHECK(plain.iterations == traced.iterations);
    CHECK(plain.depth == traced.depth);  // the same arithmetic: bit-identical on purpose
    CHECK(plain.normal == traced.normal);
  }
}

TEST_CASE("viewer: a saved pair loads with its coordinates and answers as tumble-cli collide",
          "[gjk_viewer]") {
  CHECK(splitPairSpec("pairs.jsonl") == std::pair<std::string, int>{"pairs.jsonl", 0});
  CHECK(splitPairSpec("pairs.jsonl:3") == std::pair<std::string, int>{"pairs.jsonl", 3});
  CHECK(splitPairSpec("c:/x.jsonl") == std::pair<std::string, int>{"c:/x.jsonl", 0});
  CHECK(splitPairSpec("x.jsonl:0") == std::pair<std::string, int>{"x.jsonl:0", 0});

  const std::filesystem::path dir = std::filesystem::path(TUMBLE_BINARY_DIR) / "test_gjk_viewer";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "saved.jsonl";
  const std::vector<Vec3> a{{961.25, 263.5, -77.0},
                            {962.0, 263.5, -77.0},
                            {961.5, 264.25, -77.0},
                            {961.5, 263.75, -76.125}};
  const std::vector<Vec3> b{
      {961.75, 263.875, -76.75}, {961.0, 264.5, -76.0}, {962.5, 264.0, -76.5}};
  {
    std::ofstream out(file);
    out << "\n" << formatCollideQuery("first", a, b) << "\n";
    out << R"({"id": "bad", "a": [[1, 2]], "b": [[0, 0, 0]]})"
        << "\n";
  }
  auto first = loadCollidePair(file, 0);
  REQUIRE(first.ok());
  CHECK(first->id == "first");
  auto same = loadCollidePair(file, 2);
  REQUIRE(same.ok());
  CHECK(same->id == "first");
  auto bad = loadCollidePair(file, 3);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("saved.jsonl:3:"));
  auto none = loadCollidePair(file, 9);
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.error(), Catch::Matchers::Contains("no line 9"));
  CHECK_FALSE(loadCollidePair(dir / "missing.jsonl", 0).ok());

  // Unmoved bodies keep the file's coordinates bit for bit, so the viewer's verdict is the CLI's.
  const ViewerBody ba = bodyAt("a", first->a), bb = bodyAt("b", first->b);
  const std::vector<Vec3> wa = ba.worldPoints(), wb = bb.worldPoints();
  for (size_t k = 0; k < a.size(); ++k) CHECK(wa[k] == a[k]);
  for (size_t k = 0; k < b.size(); ++k) CHECK(wb[k] == b[k]);
  const Settings settings;
  const ViewerQuery q = runViewerQuery(wa, wb, settings);
  const std::string viewer = formatCollideResult("first", q.check);
  const std::string cli = formatCollideResult("first", crossCheck(first->a, first->b, settings));
  CHECK(viewer == cli);
}

// The "turn deg" fields (TurnField, commit ced5e0e). Each test frame runs as drawControls does:
// sync() with the body's rotation, maybe an edit of the angles, then apply() for the new rotation.
namespace {

// Same rotation: q and -q are one rotation, so |q . r| is 1 when they agree.
bool sameRotation(const Quat& q, const Quat& r) {
  return std::fabs(std::fabs(glm::dot(q, r)) - 1.0) < 1e-12;
}

Quat fromDegrees(const Vec3& degrees) {
  return glm::normalize(Quat(glm::radians(degrees)));
}

}  // namespace

TEST_CASE("viewer: the turn field keeps the angles the user typed where Euler angles are ambiguous",
          "[gjk_viewer]") {
  // Yaw at or beyond +-90 degrees: glm::eulerAngles gives other angles for the same rotation
  // (yaw folded back with pitch and roll turned by 180, or at 90 pitch and roll traded off).
  for (const Vec3& typed :
       {Vec3{10.0, 100.0, 5.0}, Vec3{0.0, 120.0, 0.0}, Vec3{30.0, -95.0, -20.0},
        Vec3{15.0, 91.0, 40.0}, Vec3{20.0, 90.0, 0.0}, Vec3{-40.0, -90.0, 30.0}}) {
    CAPTURE(typed.x, typed.y, typed.z);
    TurnField field;
    Quat rotation{1.0, 0.0, 0.0, 0.0};
    Vec3& shown = field.sync(rotation);
    CHECK(shown == Vec3{0.0});
    shown = typed;  // the user types the three angles
    rotation = field.apply();
    CHECK(sameRotation(rotation, fromDegrees(typed)));
    // The case is one where recomputing from the quaternion would change what the user sees.
    const Vec3 recomputed = glm::degrees(glm::eulerAngles(rotation));
    CHECK(glm::length(recomputed - typed) > 1.0);
    for (int frame = 0; frame < 3; ++frame) {
      // Kept, not recomputed: the very values typed (so == on purpose), the same rotation.
      CHECK(field.sync(rotation) == typed);
      CHECK(field.apply() == rotation);
    }
  }
}

TEST_CASE("viewer: dragging the yaw field passes 90 degrees", "[gjk_viewer]") {
  // ImGui's drag adds 0.5 degree per step to the shown value: from yaw 80 to 100 in 40 frames.
  TurnField field;
  const Vec3 start{20.0, 80.0, 10.0};
  Quat rotation = fromDegrees(start);
  field.sync(rotation) = start;
  rotation = field.apply();
  for (int frame = 0; frame < 40; ++frame) {
    field.sync(rotation).y += 0.5;
    rotation = field.apply();
  }
  const Vec3 shown = field.sync(rotation);
  CHECK(shown.x == Approx(20.0).margin(1e-9));
  CHECK(shown.y == Approx(100.0).margin(1e-9));
  CHECK(shown.z == Approx(10.0).margin(1e-9));
  CHECK(sameRotation(rotation, fromDegrees(Vec3{20.0, 100.0, 10.0})));
}

TEST_CASE("viewer: the turn field is recomputed when the rotation changes another way",
          "[gjk_viewer]") {
  TurnField field;
  field.sync(Quat{1.0, 0.0, 0.0, 0.0}) = Vec3{10.0, 100.0, 5.0};
  Quat rotation = field.apply();

  // Ctrl+drag turns the body (sample_gjk_viewer.cpp: angleAxis(angle, axis) * start rotation): the
  // field now shows angles of the new rotation, and keeps them on the next frames.
  rotation = glm::normalize(glm::angleAxis(0.7, glm::normalize(Vec3{1.0, 0.2, -0.4})) * rotation);
  const Vec3 dragged = field.sync(rotation);
  CHECK(glm::length(dragged - Vec3{10.0, 100.0, 5.0}) > 1.0);
  CHECK(sameRotation(fromDegrees(dragged), rotation));
  CHECK(field.sync(rotation) == dragged);

  // Reset pose and a loaded pair set the identity: all zero, none of them "-0.0".
  const Vec3 reset = field.sync(Quat{1.0, 0.0, 0.0, 0.0});
  for (int i = 0; i < 3; ++i) {
    CHECK(reset[i] == 0.0);
    CHECK_FALSE(std::signbit(reset[i]));
  }

  // Reset to the viewer's default pose for shape pairs.
  const Quat pose = glm::angleAxis(0.6, glm::normalize(Vec3{1.0, 1.0, 0.3}));
  CHECK(sameRotation(fromDegrees(field.sync(pose)), pose));
}
