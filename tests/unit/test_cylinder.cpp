// Cylinders (issue 14): an exact support function, not a polygon. The support function against
// the closed form, GJK and EPA against the exact distance and depth of a point, cylinder pairs
// against fine polygonal hulls (which lie inside), mass against slice integration, bounds and ray
// casts against independent answers, and what a user sees: a cylinder stands on four points,
// lies on two, rolls down a slope at 2/3 g sin(angle) and rolls straight.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "random.h"
#include "tumble/collide.h"
#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

constexpr Real kPi = std::numbers::pi;

// A point on the cylinder's boundary from three uniform numbers: a rim, a cap or the side.
Vec3 surfacePoint(std::mt19937_64& rng, Real r, Real h) {
  const Real angle = uniform(rng, 0.0, 2.0 * kPi);
  const Real pick = unit01(rng);
  if (pick < 0.3) {
    const Real rho = r * std::sqrt(unit01(rng));
    return Vec3(rho * std::cos(angle), pick < 0.15 ? h : -h, rho * std::sin(angle));
  }
  return Vec3(r * std::cos(angle), uniform(rng, -h, h), r * std::sin(angle));
}

// The distance from p to the solid cylinder (0 inside) and, inside, the depth to its surface.
Real outsideDistance(const Vec3& p, Real r, Real h) {
  const Real rho = std::sqrt(p.x * p.x + p.z * p.z);
  const Real dr = std::max(rho - r, Real(0.0)), dy = std::max(std::abs(p.y) - h, Real(0.0));
  return std::sqrt(dr * dr + dy * dy);
}
Real insideDepth(const Vec3& p, Real r, Real h) {
  return std::min(r - std::sqrt(p.x * p.x + p.z * p.z), h - std::abs(p.y));
}

// The convex hull of n points on each rim: inscribed, so never outside the cylinder.
Shape polygonCylinder(Real r, Real h, int n) {
  std::vector<Vec3> pts;
  for (int k = 0; k < n; ++k) {
    const Real a = 2.0 * kPi * k / n;
    pts.emplace_back(r * std::cos(a), -h, r * std::sin(a));
    pts.emplace_back(r * std::cos(a), h, r * std::sin(a));
  }
  return *makeHull(pts);
}

bool inside(const Vec3& p, Real r, Real h) {
  return std::abs(p.y) <= h && p.x * p.x + p.z * p.z <= r * r;
}

}  // namespace

TEST_CASE("the cylinder's support point is farthest along every direction", "[cylinder]") {
  std::mt19937_64 rng(61);
  const Real r = 0.7, h = 0.4;
  const Shape cyl = *makeCylinder(r, h);
  const CylinderSupport& s = cyl.cylinder()->support;
  std::vector<Vec3> surface;
  for (int i = 0; i < 4000; ++i) surface.push_back(surfacePoint(rng, r, h));
  for (int trial = 0; trial < 500; ++trial) {
    const Vec3 d = unitVector(rng) * uniform(rng, 0.1, 10.0);
    const Vec3 p = s.support(d);
    CHECK_THAT(std::abs(p.y), WithinAbs(h, 1e-15));
    CHECK(p.x * p.x + p.z * p.z <= r * r * (1.0 + 1e-12));
    // The closed form of the support value, h |d_y| + r |d_xz|.
    CHECK_THAT(glm::dot(p, d),
               WithinRel(h * std::abs(d.y) + r * std::sqrt(d.x * d.x + d.z * d.z), 1e-12));
    Real best = -1e300;
    for (const Vec3& q : surface) best = std::max(best, glm::dot(q, d));
    CHECK(glm::dot(p, d) >= best - 1e-12);
  }
  // Along the axis: the cap's centre.
  CHECK(s.support(Vec3(0.0, 2.0, 0.0)) == Vec3(0.0, h, 0.0));
  CHECK(s.support(Vec3(0.0, -1.0, 0.0)) == Vec3(0.0, -h, 0.0));
}

TEST_CASE("GJK and EPA give a point's exact distance to and depth in a cylinder", "[cylinder]") {
  std::mt19937_64 rng(62);
  const Real r = 0.5, h = 0.8;
  const Shape cyl = *makeCylinder(r, h);
  const SupportShape core = cyl.support();
  const Settings settings;
  int outside = 0, within = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Transform xc = randomPose(rng, 2.0);
    const Vec3 local(uniform(rng, -1.5, 1.5), uniform(rng, -1.5, 1.5), uniform(rng, -1.5, 1.5));
    const Vec3 world = xc.apply(local);
    SupportShape point;
    point.points = std::span<const Vec3>(&world, 1);
    const GjkResult g = gjkDistance(core, xc, point, Transform{}, settings.gjk);
    if (inside(local, r, h)) {
      REQUIRE(g.intersecting());
      const EpaResult e = epaPenetration(core, xc, point, Transform{}, settings.epa, g);
      CHECK_THAT(e.depth, WithinAbs(insideDepth(local, r, h), 1e-7));
      ++within;
    } else {
      REQUIRE_FALSE(g.intersecting());
      const Real exact = outsideDistance(local, r, h);
      CHECK_THAT(g.distance, WithinRel(exact, 1e-6) || WithinAbs(exact, 1e-9));
      // The witness on the cylinder lies on its surface.
      const Vec3 onCyl = xc.applyInverse(g.pointA);
      CHECK(outsideDistance(onCyl, r, h) < 1e-7);
      ++outside;
    }
  }
  CHECK(within > 100);
  CHECK(outside > 1500);
}

TEST_CASE("cylinder pairs agree with the fine polygons inscribed in them", "[cylinder]") {
  // A 512-gon prism lies inside its cylinder, at most r (1 - cos(pi / 512)) = 1.9e-5 r from the
  // rim: the exact distance is at most the polygons', and within twice that of it.
  std::mt19937_64 rng(63);
  const Settings settings;
  const Real ra = 0.5, ha = 0.4, rb = 0.3, hb = 0.9;
  const Shape a = *makeCylinder(ra, ha), b = *makeCylinder(rb, hb);
  const Shape pa = polygonCylinder(ra, ha, 512), pb = polygonCylinder(rb, hb, 512);
  const Real gap = (1.0 - std::cos(kPi / 512.0)) * (ra + rb);
  int separated = 0, overlapping = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Transform xa = randomPose(rng, 0.7), xb = randomPose(rng, 0.7);
    const CollideResult exact = collideCores(a, xa, b, xb, 10.0, settings);
    const CollideResult poly = collideCores(pa, xa, pb, xb, 10.0, settings);
    REQUIRE(exact.pointCount == 1);
    CHECK(exact.distance <= poly.distance + 1e-9);
    CHECK(exact.distance >= poly.distance - gap - 1e-7);
    if (exact.distance > 1e-3) {
      ++separated;
      CHECK(glm::length(exact.normal - poly.normal) < 0.02);
    } else if (exact.distance < -1e-3) {
      ++overlapping;
    }
  }
  // A representative mix.
  CHECK(separated > 100);
  CHECK(overlapping > 100);
}

TEST_CASE("cylinder bounds are the support function's extremes along each axis", "[cylinder]") {
  std::mt19937_64 rng(64);
  const Real r = 0.35, h = 1.1;
  const Shape cyl = *makeCylinder(r, h);
  const CylinderSupport& s = cyl.cylinder()->support;
  for (int trial = 0; trial < 200; ++trial) {
    const Transform x = randomPose(rng, 5.0);
    const Aabb box = cyl.bounds(x);
    for (int i = 0; i < 3; ++i) {
      Vec3 e(0.0);
      e[i] = 1.0;
      CHECK_THAT(box.upper[i], WithinAbs(x.apply(s.support(x.rotateInverse(e)))[i], 1e-12));
      CHECK_THAT(box.lower[i], WithinAbs(x.apply(s.support(x.rotateInverse(-e)))[i], 1e-12));
    }
  }
  CHECK_THAT(cyl.radius(), WithinAbs(std::sqrt(r * r + h * h), 1e-15));
  CHECK_THAT(cyl.radiusAbout(Vec3(0.0, 1.0, 0.0)), WithinAbs(std::sqrt(r * r + 2.1 * 2.1), 1e-15));
  CHECK_FALSE(makeCylinder(0.0, 1.0));
  CHECK_FALSE(makeCylinder(1.0, -1.0));
  CHECK(makeCylinder(1.0, std::nan("")).error().find("half_height") != std::string::npos);
  CHECK(makeCylinder(-1.0, 1.0).error().find("radius") != std::string::npos);
}

TEST_CASE("cylinder mass properties equal slice-by-slice integration", "[cylinder]") {
  // Discs of radius r at every height: area pi r^2, r^2 / 2 about the axis, r^2 / 4 + y^2 across.
  const Real r = 0.45, h = 0.7, density = 600.0;
  const MassProperties m = makeCylinder(r, h)->massProperties(density);
  const int n = 20000;
  Real volume = 0.0, across = 0.0, axial = 0.0;
  for (int i = 0; i < n; ++i) {  // midpoint rule in y
    const Real y = -h + (i + 0.5) * (2.0 * h / n);
    const Real area = kPi * r * r * (2.0 * h / n);
    volume += area;
    axial += area * r * r / 2.0;
    across += area * (r * r / 4.0 + y * y);
  }
  CHECK_THAT(m.volume, WithinRel(volume, 1e-8));
  CHECK_THAT(m.inertia[1][1], WithinRel(density * axial, 1e-8));
  CHECK_THAT(m.inertia[0][0], WithinRel(density * across, 1e-8));
  CHECK_THAT(m.inertia[2][2], WithinRel(density * across, 1e-8));
  CHECK(glm::length(m.centerOfMass) == 0.0);
}

TEST_CASE("ray casts enter the cylinder where marching along the ray does", "[cylinder]") {
  std::mt19937_64 rng(65);
  const Real r = 0.6, h = 0.3;
  const Shape cyl = *makeCylinder(r, h);
  int hits = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Vec3 o = unitVector(rng) * uniform(rng, 1.0, 2.0);
    const Vec3 d = glm::normalize(
        Vec3(uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3)) - o);
    Real t = 0.0;
    Vec3 n;
    const bool hit = cyl.rayCast(o, d, 4.0, t, n);
    // The first of 40000 steps that is inside.
    Real marched = -1.0;
    for (int i = 0; i <= 40000; ++i)
      if (inside(o + (i * 1e-4) * d, r, h)) {
        marched = i * 1e-4;
        break;
      }
    CHECK(hit == (marched >= 0.0));
    if (!hit || marched < 0.0) continue;
    ++hits;
    CHECK_THAT(t, WithinAbs(marched, 1.1e-4));
    // The normal is the surface's there: a cap's axis, or the side's radial direction.
    const Vec3 p = o + t * d;
    const Vec3 expected = std::abs(std::abs(p.y) - h) < 1e-9
                              ? Vec3(0.0, p.y > 0.0 ? 1.0 : -1.0, 0.0)
                              : glm::normalize(Vec3(p.x, 0.0, p.z));
    CHECK(glm::length(n - expected) < 1e-9);
    CHECK(glm::dot(n, d) < 0.0);
  }
  CHECK(hits > 150);
}

TEST_CASE("a cylinder stands on four points and lies on two, without rocking", "[cylinder]") {
  for (const bool lying : {false, true}) {
    World w{Settings{}};
    editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
    addGround(w);
    BodyDef def;
    def.shape = *makeCylinder(0.4, 0.6);
    def.position = Vec3(0.0, lying ? 0.41 : 0.61, 0.0);
    if (lying) def.orientation = glm::angleAxis(kPi / 2.0, Vec3(1.0, 0.0, 0.0));
    def.density = 1000.0;
    const BodyId id = *w.createBody(def);
    for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
    const BodyView b = *w.body(id);
    CHECK(glm::length(b.angularVelocity) < 1e-3);
    CHECK(glm::length(b.linearVelocity) < 1e-3);
    CHECK_THAT(b.centerOfMass.y, WithinAbs(lying ? 0.4 : 0.6, 1e-3));
    REQUIRE(w.manifolds().size() == 1);
    CHECK(w.manifolds()[0].pointCount == (lying ? 2 : 4));
  }
}

TEST_CASE("a cylinder rolls down a 30 degree slope at 2/3 g sin 30, straight", "[cylinder]") {
  const Real angle = kPi / 6.0;
  BodyDef def;
  def.shape = *makeCylinder(0.3, 0.25);
  def.orientation = glm::angleAxis(kPi / 2.0, Vec3(1.0, 0.0, 0.0));  // the axis across the slope
  def.position = Vec3(8.0, 0.3, 0.0);
  def.density = 1000.0;
  const SlopeRoll r = rollDownSlope(def, angle, 0.6);
  const Real g = -Settings{}.gravity.y;
  // A solid cylinder: I = m r^2 / 2, so a = g sin / (1 + 1/2).
  CHECK_THAT(r.acceleration, WithinRel(2.0 / 3.0 * g * std::sin(angle), 0.02));
  CHECK(glm::dot(r.end.centerOfMass, r.up) > 0.8 - 1e-3);
  const Vec3 contactVelocity =
      r.end.linearVelocity + glm::cross(r.end.angularVelocity, -0.3 * r.up);
  CHECK(glm::length(contactVelocity) < 0.01 * glm::length(r.end.linearVelocity));
  CHECK(std::abs(r.end.centerOfMass.z - r.start.centerOfMass.z) < 1e-3);
}

TEST_CASE("a cylinder rolled across the ground keeps a straight line", "[cylinder]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w, 40.0, 0.6);
  BodyDef def;
  def.shape = *makeCylinder(0.25, 0.4);
  def.orientation = glm::angleAxis(kPi / 2.0, Vec3(1.0, 0.0, 0.0));  // axis along z
  def.position = Vec3(0.0, 0.25, 0.0);
  def.linearVelocity = Vec3(2.0, 0.0, 0.0);
  def.angularVelocity = Vec3(0.0, 0.0, -2.0 / 0.25);  // rolling without slipping
  def.friction = 0.6;
  def.density = 1000.0;
  const BodyId id = *w.createBody(def);
  Real travelled = 0.0;
  Real drift = 0.0;
  while (travelled < 2.0) {
    REQUIRE(w.step(w.settings().dt));
    const BodyView b = *w.body(id);
    travelled = b.centerOfMass.x;
    drift = std::max(drift, std::abs(b.centerOfMass.z));
    REQUIRE(w.stepCount() < 600);
  }
  CHECK(drift < 1e-3);
  const BodyView b = *w.body(id);
  CHECK_THAT(b.linearVelocity.x, WithinRel(2.0, 0.01));
  CHECK(std::abs(b.centerOfMass.y - 0.25) < 1e-3);
}

TEST_CASE("a cylinder stands on a triangle mesh and a cap on a cap", "[cylinder]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape =
      *makeMesh({{-5, 0, -5}, {5, 0, -5}, {5, 0, 5}, {-5, 0, 5}}, {{0, 2, 1}, {0, 3, 2}});
  REQUIRE(w.createBody(ground));
  BodyDef def;
  def.shape = *makeCylinder(0.4, 0.3);
  def.density = 1000.0;
  def.position = Vec3(0.2, 0.31, 0.1);
  const BodyId lower = *w.createBody(def);
  def.position = Vec3(0.25, 0.92, 0.1);
  const BodyId upper = *w.createBody(def);
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  for (const BodyId id : {lower, upper}) {
    const BodyView b = *w.body(id);
    CHECK(glm::length(b.angularVelocity) < 1e-3);
    CHECK(glm::length(b.linearVelocity) < 1e-3);
  }
  CHECK_THAT(w.body(lower)->centerOfMass.y, WithinAbs(0.3, 2e-3));
  CHECK_THAT(w.body(upper)->centerOfMass.y, WithinAbs(0.9, 4e-3));
  CHECK_THAT(w.body(upper)->centerOfMass.x, WithinAbs(0.25, 1e-3));
  int points = 0;
  for (const Manifold& m : w.manifolds()) points += m.pointCount;
  CHECK(points >=
        8);  // at least four under each cap (the lower one's may split over two triangles)
}
