// Rounded hulls in the narrow phase and the world: the face-clipping routines against the general
// path on the cores, two points for a capsule lying on a rounded box, face contacts on triangles,
// a rounded box resting on a box and on a mesh, and a rounded hull as a compound's child.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "random.h"
#include "tumble/collide.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// The largest cosine between `n` and a face normal of the shape's core hull under x (0 for a
// shape without one).
Real faceAlignment(const Shape& s, const Transform& x, const Vec3& n) {
  const ConvexHull* h = s.coreHull();
  if (!h) return 0.0;
  Real best = -1.0;
  for (const HullFace& f : h->faces())
    best = std::max(best, std::abs(glm::dot(x.rotate(f.normal), n)));
  return best;
}

}  // namespace

TEST_CASE("rounded hull contacts agree with the general path on the cores", "[rounded]") {
  std::mt19937_64 rng(23);
  const Settings settings;
  const Shape shapes[] = {*makeRoundedHull(boxCorners(Vec3(0.5, 0.3, 0.4)), 0.1),
                          *makeRoundedHull(ellipsoidPoints(rng, 10, Vec3(0.5, 0.4, 0.3)), 0.25),
                          *makeHull(boxCorners(Vec3(0.4, 0.6, 0.3))), *makeCapsule(0.2, 0.4),
                          *makeSphere(0.3)};
  int compared = 0, normalCompared = 0, overlapping = 0, multi = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Shape& a = shapes[trial % 5];
    const Shape& b = shapes[(trial / 5) % 5];
    if (a.type() != ShapeType::RoundedHull && b.type() != ShapeType::RoundedHull) continue;
    const Transform xa = randomPose(rng, 0.8), xb = randomPose(rng, 0.8);
    const CollideResult fast = collide(a, xa, b, xb, 10.0, settings);
    const CollideResult ref = collideCores(a, xa, b, xb, 10.0, settings);
    REQUIRE(ref.pointCount == 1);
    REQUIRE(fast.pointCount > 0);
    ++compared;
    if (ref.distance < 0.0) ++overlapping;
    if (fast.pointCount > 1) ++multi;
    CHECK(fast.overlapping == (ref.distance < 0.0));
    CHECK_THAT(fast.distance, WithinRel(ref.distance, 1e-9) || WithinAbs(ref.distance, 1e-12));
    // A face contact takes the face's normal (within kSnapAlignment, about 5.7 degrees, of the
    // cores' direction); any other keeps the cores' direction.
    const Real align = std::max(faceAlignment(a, xa, ref.normal), faceAlignment(b, xb, ref.normal));
    if (align < 0.99) {
      CHECK(glm::length(fast.normal - ref.normal) < 1e-6);
      ++normalCompared;
    } else {
      CHECK(glm::dot(fast.normal, ref.normal) > 0.99);
    }
    for (int i = 0; i < fast.pointCount; ++i) {
      const CollidePoint& p = fast.points[i];
      CHECK(glm::length(p.pointB - (p.pointA + p.separation * fast.normal)) < 1e-12);
      CHECK(p.separation <= 10.0);
    }
  }
  CHECK(compared > 2500);
  CHECK(normalCompared > compared / 3);
  // The mix: overlapping and separated pairs, single and clipped manifolds.
  CHECK(overlapping > compared / 10);
  CHECK(overlapping < compared * 9 / 10);
  CHECK(multi > 0);
}

TEST_CASE("a rounded box resting on a box or a rounded box touches at four points", "[rounded]") {
  const Settings settings;
  const Real r = 0.05;
  const Shape rounded = *makeRoundedHull(boxCorners(Vec3(0.5)), r);
  const Shape ground = *makeHull(boxCorners(Vec3(2.0, 0.5, 2.0)));
  Transform xr;
  xr.position = Vec3(0.1, 0.5 + 0.5 + r - 0.01, -0.2);  // 1 cm deep
  const Transform xg;
  for (const bool flip : {false, true}) {
    const CollideResult c = flip ? collide(ground, xg, rounded, xr, 0.1, settings)
                                 : collide(rounded, xr, ground, xg, 0.1, settings);
    REQUIRE(c.pointCount == 4);
    CHECK(glm::length(c.normal - Vec3(0.0, flip ? 1.0 : -1.0, 0.0)) < 1e-12);
    CHECK_THAT(c.distance, WithinAbs(-0.01, 1e-12));
    for (int i = 0; i < 4; ++i) {
      const CollidePoint& p = c.points[i];
      CHECK_THAT(p.separation, WithinAbs(-0.01, 1e-12));
      const Vec3 onRounded = flip ? p.pointB : p.pointA;
      CHECK_THAT(onRounded.y, WithinAbs(xr.position.y - 0.5 - r, 1e-12));  // its rounded surface
      CHECK_THAT(std::abs(onRounded.x - 0.1), WithinAbs(0.5, 1e-12));  // under its core's corners
    }
  }
  // Two rounded boxes stacked: the separation less both radii.
  Transform xs = xr;
  xs.position.y += 1.0 + 2.0 * r + 0.02;
  const CollideResult s = collide(rounded, xr, rounded, xs, 0.1, settings);
  REQUIRE(s.pointCount == 4);
  for (int i = 0; i < 4; ++i) CHECK_THAT(s.points[i].separation, WithinAbs(0.02, 1e-12));
  // Beyond the speculative distance: nothing, and the distance says how far.
  xs.position.y += 0.2;
  const CollideResult far = collide(rounded, xr, rounded, xs, 0.1, settings);
  CHECK(far.pointCount == 0);
  CHECK_THAT(far.distance, WithinAbs(0.22, 1e-12));
}

TEST_CASE("a capsule lying on a rounded box touches at two points", "[rounded]") {
  const Settings settings;
  const Shape cap = *makeCapsule(0.25, 0.5);
  const Shape box = *makeRoundedHull(boxCorners(Vec3(2.0, 0.4, 2.0)), 0.1);
  Transform xc;
  xc.position = Vec3(0.1, 0.5 + 0.25 - 0.01, 0.0);
  xc.rotation = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));  // along x
  const Transform xb;
  for (const bool flip : {false, true}) {
    const CollideResult r =
        flip ? collide(box, xb, cap, xc, 0.1, settings) : collide(cap, xc, box, xb, 0.1, settings);
    REQUIRE(r.pointCount == 2);
    CHECK(glm::length(r.normal - Vec3(0.0, flip ? 1.0 : -1.0, 0.0)) < 1e-12);
    for (int i = 0; i < 2; ++i) {
      CHECK_THAT(r.points[i].separation, WithinAbs(-0.01, 1e-12));
      CHECK_THAT((flip ? r.points[i].pointA : r.points[i].pointB).y, WithinAbs(0.5, 1e-12));
    }
    const Real xs[2] = {r.points[0].pointA.x, r.points[1].pointA.x};
    CHECK_THAT(std::min(xs[0], xs[1]), WithinAbs(0.1 - 0.5, 1e-12));
    CHECK_THAT(std::max(xs[0], xs[1]), WithinAbs(0.1 + 0.5, 1e-12));
  }
}

TEST_CASE("a rounded box on a triangle gets its face contact, the radius honoured", "[rounded]") {
  const Settings settings;
  const Real r = 0.05;
  const Shape rounded = *makeRoundedHull(boxCorners(Vec3(0.5)), r);
  const Shape mesh =
      *makeMesh({Vec3(-5.0, 0.0, -5.0), Vec3(-5.0, 0.0, 10.0), Vec3(10.0, 0.0, -5.0)}, {{0, 1, 2}});
  REQUIRE(mesh.mesh()->triangle(0).normal.y > 0.99);
  Transform xr;
  xr.position = Vec3(0.3, 0.5 + r - 0.004, 0.2);
  const CollideResult c =
      collideTriangle(mesh.mesh()->triangle(0), Transform{}, rounded, xr, 0.1, settings);
  REQUIRE(c.pointCount == 4);
  CHECK(glm::length(c.normal - Vec3(0.0, 1.0, 0.0)) < 1e-12);
  CHECK_THAT(c.distance, WithinAbs(-0.004, 1e-12));
  for (int i = 0; i < 4; ++i) {
    CHECK_THAT(c.points[i].separation, WithinAbs(-0.004, 1e-12));
    CHECK_THAT(c.points[i].pointA.y, WithinAbs(0.0, 1e-12));
    CHECK_THAT(c.points[i].pointB.y, WithinAbs(-0.004, 1e-12));
  }
  // Hovering 3 cm above the surface (speculative 0.1): still four points, 3 cm apart.
  xr.position.y += 0.034;
  const CollideResult above =
      collideTriangle(mesh.mesh()->triangle(0), Transform{}, rounded, xr, 0.1, settings);
  REQUIRE(above.pointCount == 4);
  CHECK_THAT(above.distance, WithinAbs(0.03, 1e-12));
  // Tilted 20 degrees about z: one rounded edge down, the contact r below the core's edge.
  xr.rotation = glm::angleAxis(Real(20.0 * std::numbers::pi / 180.0), Vec3(0.0, 0.0, 1.0));
  xr.position.y = 1.0;
  const CollideResult edge =
      collideTriangle(mesh.mesh()->triangle(0), Transform{}, rounded, xr, 2.0, settings);
  REQUIRE(edge.pointCount >= 1);
  Real lowest = std::numeric_limits<Real>::infinity();
  for (const Vec3& v : rounded.coreHull()->vertices()) lowest = std::min(lowest, xr.apply(v).y);
  CHECK_THAT(edge.distance, WithinAbs(lowest - r, 1e-9));
}

TEST_CASE("a rounded box dropped on a box rests on four points at half extent plus radius",
          "[rounded]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w);
  BodyDef def;
  def.shape = *makeRoundedHull(boxCorners(Vec3(0.5)), 0.05);
  def.position = Vec3(0.0, 1.0, 0.0);
  def.density = 1000.0;
  const BodyId id = *w.createBody(def);
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));  // 1 s
  const BodyView b = *w.body(id);
  CHECK(glm::length(b.angularVelocity) < 1e-3);
  CHECK(glm::length(b.linearVelocity) < 1e-3);
  CHECK_THAT(b.centerOfMass.y, WithinAbs(0.55, 1e-3));
  REQUIRE(w.manifolds().size() == 1);
  CHECK(w.manifolds()[0].pointCount == 4);
}

TEST_CASE("a rounded box dropped on a mesh rests flat", "[rounded]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = *makeMesh(
      {Vec3(-5.0, 0.0, -5.0), Vec3(-5.0, 0.0, 5.0), Vec3(5.0, 0.0, 5.0), Vec3(5.0, 0.0, -5.0)},
      {{0, 1, 2}, {0, 2, 3}});
  REQUIRE(w.createBody(ground));
  BodyDef def;
  def.shape = *makeRoundedHull(boxCorners(Vec3(0.5)), 0.05);
  def.position = Vec3(1.5, 1.0, -1.0);  // over one triangle
  def.density = 1000.0;
  const BodyId id = *w.createBody(def);
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
  const BodyView b = *w.body(id);
  CHECK(glm::length(b.angularVelocity) < 1e-3);
  CHECK(glm::length(b.linearVelocity) < 1e-3);
  CHECK_THAT(b.centerOfMass.y, WithinAbs(0.55, 1e-3));
  int points = 0;
  for (const Manifold& m : w.manifolds()) points += m.pointCount;
  CHECK(points == 4);
}

TEST_CASE("a rounded hull may be a compound's child", "[rounded]") {
  const Shape rounded = *makeRoundedHull(boxCorners(Vec3(0.3, 0.2, 0.1)), 0.05);
  Transform local;
  local.position = Vec3(1.0, 0.0, 0.0);
  local.rotation = glm::angleAxis(Real(0.3), glm::normalize(Vec3(1.0, 2.0, 3.0)));
  const CompoundChild children[] = {{rounded, local}, {*makeSphere(0.2), Transform{}}};
  const Expected<Shape> c = makeCompound(children);
  REQUIRE(c);
  // Mass: the two children's, the rounded one's exact volume.
  const MassProperties m = c->massProperties(1.0);
  const Real sphere = 4.0 / 3.0 * std::numbers::pi * 0.008;
  CHECK_THAT(m.volume, WithinRel(rounded.massProperties(1.0).volume + sphere, 1e-14));
  // Bounds: the child's rounded box, moved.
  const Aabb box = c->bounds(Transform{});
  const Aabb child = rounded.bounds(local);
  CHECK(box.upper.x == child.upper.x);
  // Core points: the child's core hull's vertices, moved.
  CHECK(c->compound()->corePoints.size() == 8 + 1);
  // Contacts through collideChildren carry the child's radius.
  std::vector<ChildContact> out;
  Transform xg;
  xg.position = Vec3(1.0, -2.0, 0.0);
  const Shape ground = *makeHull(boxCorners(Vec3(3.0, 1.6, 3.0)));
  collideChildren(*c, Transform{}, ground, xg, 1.0, Settings{}, out);
  REQUIRE(out.size() >= 1);
  CHECK(out[0].key >> 32 == 0);
  CHECK(out[0].radiusA == 0.05);
  // Its distance: the child's own, the radius subtracted.
  const CollideResult direct = collide(rounded, local, ground, xg, 1.0, Settings{});
  CHECK_THAT(out[0].result.distance, WithinAbs(direct.distance, 1e-12));
}
