// Spheres and capsules (issue 14): a core plus a radius. Mass properties against slice-by-slice
// integration, the closed-form narrow phase against the general GJK path, ray casts against the
// quadratic's roots, and the physics a user sees: a ball rolls, a capsule lies still.
#include <catch2/catch.hpp>

#include <array>
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

// Volume and inertia about the x and y axes of the solid of revolution about y whose radius at
// height y is rho(y), y in [-top, top]: discs of area pi rho^2, each with rho^2 / 2 per unit mass
// about y and rho^2 / 4 + y^2 about x. Composite Simpson's rule over n slices.
struct SliceIntegral {
  Real volume = 0.0, ixx = 0.0, iyy = 0.0;
};
template <class Rho>
SliceIntegral integrateRevolution(Rho rho, Real top, int n) {
  SliceIntegral s;
  const Real h = 2.0 * top / n;
  for (int i = 0; i <= n; ++i) {
    const Real y = -top + i * h;
    const Real w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    const Real r = rho(y);
    const Real area = std::numbers::pi * r * r;
    s.volume += w * area;
    s.iyy += w * area * r * r / 2.0;
    s.ixx += w * area * (r * r / 4.0 + y * y);
  }
  s.volume *= h / 3.0;
  s.iyy *= h / 3.0;
  s.ixx *= h / 3.0;
  return s;
}

// The hulls of the face-plane tests below: an off-centre hull of points on an ellipsoid (its
// origin outside it, beside a corner), a box, and the first hull rounded by 0.15 m.
std::array<Shape, 3> faceTestHulls(std::mt19937_64& rng, const Vec3& radii, const Vec3& box) {
  std::vector<Vec3> pts = ellipsoidPoints(rng, 14, radii);
  for (Vec3& v : pts) v += Vec3(0.6, 0.0, 0.0);
  return {*makeHull(pts), *makeBox(box), *makeRoundedHull(pts, 0.15)};
}

}  // namespace

TEST_CASE("sphere and capsule mass properties equal slice-by-slice integration", "[round]") {
  const Real density = 750.0;
  for (const auto& [radius, half] : {std::pair{0.5, 0.0}, {0.3, 0.7}, {1.2, 0.1}, {0.05, 2.0}}) {
    // Copies: clang 14 cannot capture structured bindings in the lambda below.
    const Real r = radius, h = half;
    const Shape shape = h == 0.0 ? *makeSphere(r) : *makeCapsule(r, h);
    const MassProperties m = shape.massProperties(density);
    // The profile: a cylinder of radius r for |y| <= h, a hemisphere's circle beyond.
    auto rho = [&](Real y) {
      const Real over = std::abs(y) - h;
      return over <= 0.0 ? r : std::sqrt(std::max<Real>(0.0, r * r - over * over));
    };
    // The cap's profile has a square-root end, which Simpson converges on slowly: many slices.
    const SliceIntegral s = integrateRevolution(rho, h + r, 2000000);
    CHECK_THAT(m.volume, WithinRel(s.volume, 1e-6));
    CHECK_THAT(m.mass, WithinRel(density * s.volume, 1e-6));
    CHECK_THAT(m.inertia[0][0], WithinRel(density * s.ixx, 1e-6));
    CHECK_THAT(m.inertia[2][2], WithinRel(density * s.ixx, 1e-6));
    CHECK_THAT(m.inertia[1][1], WithinRel(density * s.iyy, 1e-6));
    CHECK(m.inertia[0][1] == 0.0);
    CHECK(glm::length(m.centerOfMass) == 0.0);
  }
}

TEST_CASE("bad sphere and capsule sizes are refused, naming the value", "[round]") {
  CHECK_FALSE(makeSphere(0.0));
  CHECK_FALSE(makeSphere(-1.0));
  CHECK_FALSE(makeSphere(std::nan("")));
  CHECK(makeSphere(-1.0).error().find("radius") != std::string::npos);
  CHECK_FALSE(makeCapsule(0.5, -0.1));
  CHECK(makeCapsule(0.5, -0.1).error().find("half_height") != std::string::npos);
  CHECK_FALSE(makeCapsule(0.0, 1.0));
  CHECK(makeCapsule(0.5, 0.0));
}

TEST_CASE("sphere and capsule bounds and radius are the core grown by the radius", "[round]") {
  const Shape cap = *makeCapsule(0.25, 1.0);
  Transform x;
  x.position = Vec3(1.0, 2.0, 3.0);
  x.rotation = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));  // y axis -> -x
  const Aabb box = cap.bounds(x);
  CHECK_THAT(box.lower.x, WithinAbs(1.0 - 1.25, 1e-12));
  CHECK_THAT(box.upper.x, WithinAbs(1.0 + 1.25, 1e-12));
  CHECK_THAT(box.lower.y, WithinAbs(2.0 - 0.25, 1e-12));
  CHECK_THAT(box.upper.z, WithinAbs(3.0 + 0.25, 1e-12));
  CHECK_THAT(cap.radius(), WithinAbs(1.25, 1e-15));
  CHECK_THAT(cap.radiusAbout(Vec3(0.0, 1.0, 0.0)), WithinAbs(2.25, 1e-15));
  CHECK(cap.type() == ShapeType::Capsule);
  CHECK(cap.hull() == nullptr);
  CHECK(cap.support().points.size() == 2);
}

TEST_CASE("the closed forms equal the general GJK path on random poses", "[round]") {
  std::mt19937_64 rng(14);
  const Settings settings;
  const Shape shapes[] = {*makeSphere(0.4), *makeSphere(0.9), *makeCapsule(0.3, 0.6),
                          *makeCapsule(0.5, 0.2)};
  int compared = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const Shape& a = shapes[trial % 4];
    const Shape& b = shapes[(trial / 4) % 4];
    const Transform xa = randomPose(rng, 1.0), xb = randomPose(rng, 1.0);
    const CollideResult fast = collide(a, xa, b, xb, 10.0, settings);
    const CollideResult ref = collideCores(a, xa, b, xb, 10.0, settings);
    if (ref.gjk.intersecting()) continue;  // crossing cores: EPA on flat differences, no reference
    REQUIRE(fast.pointCount > 0);
    REQUIRE(ref.pointCount == 1);
    CHECK_THAT(fast.distance, WithinRel(ref.distance, 1e-9) || WithinAbs(ref.distance, 1e-12));
    CHECK(glm::length(fast.normal - ref.normal) < 1e-6);
    // Every point: on A's surface, B's point the separation along the normal.
    for (int i = 0; i < fast.pointCount; ++i) {
      const CollidePoint& p = fast.points[i];
      CHECK(glm::length(p.pointB - (p.pointA + p.separation * fast.normal)) < 1e-12);
    }
    ++compared;
  }
  CHECK(compared > 3000);
}

// A sphere against a hull or a rounded hull takes the nearest face's plane when a face is nearest
// (collide.cpp's pointOnFace) and GJK otherwise: both equal the general path, in both orders, with
// the sphere's centre outside the core (GJK's exact distance) and inside it (EPA's depth, to its
// tolerance).
TEST_CASE("a sphere against a hull's face equals the general path", "[round]") {
  std::mt19937_64 rng(1414);
  const Settings settings;
  const auto hulls = faceTestHulls(rng, Vec3(0.9, 0.5, 0.7), Vec3(0.8, 0.3, 0.5));
  const Shape spheres[] = {*makeSphere(0.2), *makeSphere(0.6)};
  int faces = 0, others = 0, inside = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Shape& h = hulls[trial % 3];
    const Shape& b = spheres[(trial / 3) % 2];
    const bool sphereFirst = (trial / 6) % 2 == 1;
    const Transform xh = randomPose(rng, 0.2), xs = randomPose(rng, 1.6);
    const Shape& a = sphereFirst ? b : h;
    const Shape& c = sphereFirst ? h : b;
    const Transform& xa = sphereFirst ? xs : xh;
    const Transform& xc = sphereFirst ? xh : xs;
    const CollideResult fast = collide(a, xa, c, xc, 10.0, settings);
    const CollideResult ref = collideCores(a, xa, c, xc, 10.0, settings);
    REQUIRE(fast.pointCount == 1);
    REQUIRE(ref.pointCount == 1);
    // The face's pass runs no GJK iteration; GJK always runs at least one.
    (fast.gjk.iterations == 0 ? faces : others) += 1;
    const CollidePoint& p = fast.points[0];
    CHECK(glm::length(p.pointB - (p.pointA + p.separation * fast.normal)) < 1e-12);
    if (ref.gjk.intersecting()) {
      ++inside;
      CHECK_THAT(fast.distance, WithinAbs(ref.distance, 1e-9));
      CHECK(glm::length(fast.normal - ref.normal) < 1e-6);
      continue;
    }
    CHECK_THAT(fast.distance, WithinRel(ref.distance, 1e-9) || WithinAbs(ref.distance, 1e-12));
    CHECK(glm::length(fast.normal - ref.normal) < 1e-6);
    CHECK(glm::length(p.pointA - ref.points[0].pointA) < 1e-9);
  }
  // Measured: 1447 by the face's pass, 4553 by GJK, 172 of them inside the core.
  CHECK(faces > 1000);
  CHECK(others > 1000);
  CHECK(inside > 100);
}

// A capsule against a hull or a rounded hull: when both ends of its segment lie above one face
// with their feet on it, that face's plane gives the distance at the nearer end (collide.cpp's
// collideCapsuleHull), otherwise GJK. The same distance as the general path in both orders; where
// the capsule lies along the face, the two clipped points take the face's normal (not GJK's), so
// the normal and the point are compared only for one point.
TEST_CASE("a capsule against a hull's face equals the general path", "[round]") {
  std::mt19937_64 rng(1415);
  const Settings settings;
  const auto hulls = faceTestHulls(rng, Vec3(1.4, 0.5, 1.2), Vec3(1.5, 0.3, 1.0));
  const Shape capsules[] = {*makeCapsule(0.2, 0.3), *makeCapsule(0.4, 0.1)};
  int faces = 0, others = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Shape& h = hulls[trial % 3];
    const Shape& c = capsules[(trial / 3) % 2];
    const bool capsuleFirst = (trial / 6) % 2 == 1;
    const Transform xh = randomPose(rng, 0.2), xc = randomPose(rng, 1.8);
    const CollideResult fast = capsuleFirst ? collide(c, xc, h, xh, 10.0, settings)
                                            : collide(h, xh, c, xc, 10.0, settings);
    const CollideResult ref = capsuleFirst ? collideCores(c, xc, h, xh, 10.0, settings)
                                           : collideCores(h, xh, c, xc, 10.0, settings);
    REQUIRE(fast.pointCount >= 1);
    REQUIRE(ref.pointCount == 1);
    if (ref.gjk.intersecting()) continue;  // the segment through the core: GJK and EPA alone
    (fast.gjk.iterations == 0 ? faces : others) += 1;
    CHECK_THAT(fast.distance, WithinRel(ref.distance, 1e-9) || WithinAbs(ref.distance, 1e-12));
    if (fast.pointCount == 1) {
      CHECK(glm::length(fast.normal - ref.normal) < 1e-6);
      CHECK(glm::length(fast.points[0].pointA - ref.points[0].pointA) < 1e-9);
    }
  }
  // Measured: 1241 by the face's planes, 4305 by GJK.
  CHECK(faces > 800);
  CHECK(others > 1000);
}

TEST_CASE("a capsule lying on a box or a capsule touches at two points", "[round]") {
  const Settings settings;
  const Shape cap = *makeCapsule(0.25, 0.5);
  const Shape box = *makeBox(Vec3(2.0, 0.5, 2.0));
  Transform xc;
  xc.position = Vec3(0.1, 0.74, 0.0);
  xc.rotation = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));  // lying along x
  Transform xb;
  for (const bool flip : {false, true}) {
    const CollideResult r =
        flip ? collide(box, xb, cap, xc, 0.1, settings) : collide(cap, xc, box, xb, 0.1, settings);
    REQUIRE(r.pointCount == 2);
    CHECK(glm::length(r.normal - Vec3(0.0, flip ? 1.0 : -1.0, 0.0)) < 1e-12);
    for (int i = 0; i < 2; ++i) CHECK_THAT(r.points[i].separation, WithinAbs(-0.01, 1e-12));
    const Real xs[2] = {r.points[0].pointA.x, r.points[1].pointA.x};
    CHECK_THAT(std::min(xs[0], xs[1]), WithinAbs(0.1 - 0.5, 1e-12));
    CHECK_THAT(std::max(xs[0], xs[1]), WithinAbs(0.1 + 0.5, 1e-12));
  }
  // Capsule on capsule, crossed slightly less than 3 degrees: still two points.
  Transform xd = xc;
  xd.position.y = 0.74 + 0.49;
  xd.rotation = glm::angleAxis(Real(0.04), Vec3(0.0, 1.0, 0.0)) * xc.rotation;
  const CollideResult cc = collide(cap, xc, cap, xd, 0.1, settings);
  CHECK(cc.pointCount == 2);
  CHECK_THAT(cc.distance, WithinAbs(-0.01, 1e-3));
}

TEST_CASE("a capsule tilted over a box's face gets its far end as a point within reach",
          "[round]") {
  // Along x, tilted 10 degrees about z (beyond the 3 degrees of the lying test above), its lower
  // end 2 mm above the box's top face y = 0.5: the upper end is 2 sin 10 * 0.5 m = 0.174 m
  // higher. Within a speculative distance of 0.2 both ends are points, each at its own plane
  // distance (a capsule turning down onto the face is met at its far end before that end sinks
  // in: 43-66 mm into the ground in the 2000-capsule heap with the nearer end alone); within 0.1
  // only the nearer end is.
  const Settings settings;
  const Shape cap = *makeCapsule(0.25, 0.5);
  const Shape box = *makeBox(Vec3(2.0, 0.5, 2.0));
  const Real tilt = 10.0 * std::numbers::pi / 180.0;
  const Real rise = std::sin(tilt);  // between the ends: 2 * 0.5 sin(tilt)
  Transform xc;
  xc.position = Vec3(0.0, 0.5 + 0.25 + 0.002 + 0.5 * rise, 0.0);
  xc.rotation = glm::angleAxis(tilt, Vec3(0.0, 0.0, 1.0)) *
                glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));
  const Transform xb;
  for (const bool flip : {false, true}) {
    const CollideResult wide =
        flip ? collide(box, xb, cap, xc, 0.2, settings) : collide(cap, xc, box, xb, 0.2, settings);
    REQUIRE(wide.pointCount == 2);
    CHECK(glm::length(wide.normal - Vec3(0.0, flip ? 1.0 : -1.0, 0.0)) < 1e-12);
    CHECK_THAT(wide.distance, WithinAbs(0.002, 1e-12));
    const Real lo = std::min(wide.points[0].separation, wide.points[1].separation);
    const Real hi = std::max(wide.points[0].separation, wide.points[1].separation);
    CHECK_THAT(lo, WithinAbs(0.002, 1e-12));
    CHECK_THAT(hi, WithinAbs(0.002 + rise, 1e-12));
    CHECK(wide.points[0].id != wide.points[1].id);
    const CollideResult tight =
        flip ? collide(box, xb, cap, xc, 0.1, settings) : collide(cap, xc, box, xb, 0.1, settings);
    REQUIRE(tight.pointCount == 1);
    CHECK_THAT(tight.points[0].separation, WithinAbs(0.002, 1e-12));
  }
}

TEST_CASE("a capsule crossed over another gets the overlap's ends as points within reach",
          "[round]") {
  // A lies along x; B, crossed 20 degrees from it in the plane above, touches it at the crossing.
  // B projects onto A over x = +-0.5 cos 20; there B's nearest points are 0.5 cos 20 sin 20 =
  // 0.161 m off A's axis: a core distance of sqrt(0.5^2 + 0.161^2) = 0.525 m, 0.025 m apart at
  // the surfaces. Within a speculative distance of 0.1 those two join the crossing point (a
  // capsule turning about the crossing point alone pressed its end into the other: 235 mm in the
  // 2000-capsule heap; the ends alone would let the crossing sink 0.025 m); within 0.01 only the
  // closest point is.
  const Settings settings;
  const Shape cap = *makeCapsule(0.25, 0.5);
  const Quat alongX = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));
  const Transform xa{Vec3(0.0), alongX};
  const Real angle = 20.0 * std::numbers::pi / 180.0;
  const Transform xb{Vec3(0.0, 0.5, 0.0), glm::angleAxis(angle, Vec3(0.0, 1.0, 0.0)) * alongX};
  const Real endGap = std::sqrt(0.25 + std::pow(0.5 * std::cos(angle) * std::sin(angle), 2)) - 0.5;
  const CollideResult wide = collide(cap, xa, cap, xb, 0.1, settings);
  REQUIRE(wide.pointCount == 3);
  CHECK(glm::length(wide.normal - Vec3(0.0, 1.0, 0.0)) < 1e-12);
  CHECK_THAT(wide.points[0].separation, WithinAbs(0.0, 1e-12));  // the crossing stays
  for (int i = 1; i < 3; ++i) {
    CHECK_THAT(wide.points[i].separation, WithinAbs(endGap, 1e-12));
    CHECK_THAT(std::abs(wide.points[i].pointA.x), WithinAbs(0.5 * std::cos(angle), 1e-12));
  }
  const CollideResult tight = collide(cap, xa, cap, xb, 0.01, settings);
  REQUIRE(tight.pointCount == 1);
  CHECK_THAT(tight.points[0].separation, WithinAbs(0.0, 1e-12));
}

TEST_CASE("ray casts hit spheres and capsules where the quadratic's roots say", "[round]") {
  const Shape sphere = *makeSphere(0.5);
  const Shape cap = *makeCapsule(0.5, 1.0);
  Real t = 0.0;
  Vec3 n(0.0);
  REQUIRE(sphere.rayCast(Vec3(-2.0, 0.3, 0.0), Vec3(4.0, 0.0, 0.0), 1.0, t, n));
  CHECK_THAT(t, WithinAbs((2.0 - std::sqrt(0.25 - 0.09)) / 4.0, 1e-14));
  CHECK_THAT(n.x, WithinAbs(-std::sqrt(0.25 - 0.09) / 0.5, 1e-12));
  CHECK_FALSE(sphere.rayCast(Vec3(-2.0, 0.6, 0.0), Vec3(4.0, 0.0, 0.0), 1.0, t, n));
  // Side of the capsule, then its top cap, then a miss past the top.
  REQUIRE(cap.rayCast(Vec3(-3.0, 0.7, 0.0), Vec3(1.0, 0.0, 0.0), 10.0, t, n));
  CHECK_THAT(t, WithinAbs(2.5, 1e-14));
  CHECK(glm::length(n - Vec3(-1.0, 0.0, 0.0)) < 1e-14);
  REQUIRE(cap.rayCast(Vec3(0.3, 5.0, 0.0), Vec3(0.0, -1.0, 0.0), 10.0, t, n));
  CHECK_THAT(t, WithinAbs(4.0 - std::sqrt(0.25 - 0.09), 1e-12));
  CHECK_FALSE(cap.rayCast(Vec3(-3.0, 1.45, 0.4), Vec3(1.0, 0.0, 0.0), 10.0, t, n));
  // Inside: t = 0, normal against the ray.
  REQUIRE(cap.rayCast(Vec3(0.0, 0.5, 0.0), Vec3(0.0, 0.0, 2.0), 1.0, t, n));
  CHECK(t == 0.0);
  CHECK(glm::length(n - Vec3(0.0, 0.0, -1.0)) < 1e-15);
}

TEST_CASE("a sphere rolls down a 30 degree slope at 5/7 g sin 30 without slipping", "[round]") {
  const Real angle = std::numbers::pi / 6.0;
  BodyDef ball;
  ball.shape = *makeSphere(0.5);
  ball.position = Vec3(0.0, 0.5, 0.0);
  ball.density = 1000.0;
  const SlopeRoll r = rollDownSlope(ball, angle, 0.5);
  const Real g = -Settings{}.gravity.y;
  CHECK_THAT(r.acceleration, WithinRel(5.0 / 7.0 * g * std::sin(angle), 0.02));
  // It rolls on its surface, not into the slope: the point that touched the slope turns away
  // each step, and a separation carried by it would let the ball sink r (1 - cos) deeper.
  CHECK(glm::dot(r.end.centerOfMass, r.up) > 1.0 - 1e-3);
  // Rolling: the contact point does not slip (v = omega x r).
  const Vec3 contactVelocity =
      r.end.linearVelocity + glm::cross(r.end.angularVelocity, -0.5 * r.up);
  CHECK(glm::length(contactVelocity) < 0.01 * glm::length(r.end.linearVelocity));
}

TEST_CASE("a capsule lying on the ground rests on two points without rocking", "[round]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w);
  BodyDef def;
  def.shape = *makeCapsule(0.3, 0.8);
  def.position = Vec3(0.0, 0.31, 0.0);
  def.orientation = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(1.0, 0.0, 0.0));
  def.density = 1000.0;
  const BodyId id = *w.createBody(def);
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
  const BodyView b = *w.body(id);
  CHECK(glm::length(b.angularVelocity) < 1e-3);
  CHECK(glm::length(b.linearVelocity) < 1e-3);
  CHECK_THAT(b.centerOfMass.y, WithinAbs(0.3, 1e-3));
  REQUIRE(w.manifolds().size() == 1);
  CHECK(w.manifolds()[0].pointCount == 2);
}
