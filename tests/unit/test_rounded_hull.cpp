// Rounded hulls: a core hull plus a radius (the Minkowski sum hull + ball). Mass properties
// against a rounded box integrated slice by slice (Gauss-Legendre over the height of closed-form
// cross-sections) and against dense hulls of sampled surface points; the narrow phase against the
// general path on the cores; ray casts against marching the signed distance; the physics a user
// sees: a rounded box rests on a box or a mesh on four points.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "geometry/rounded_hull_mass.h"
#include "random.h"
#include "tumble/collide.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

constexpr Real kPi = std::numbers::pi;

// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n from the Chebyshev guesses).
void gaussLegendre(int n, std::vector<Real>& x, std::vector<Real>& w) {
  x.assign(static_cast<size_t>(n), 0.0);
  w.assign(static_cast<size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) {
    Real z = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 0.0;
    for (int it = 0; it < 100; ++it) {
      Real p0 = 1.0, p1 = z;
      for (int k = 2; k <= n; ++k) {
        const Real p2 = ((2.0 * k - 1.0) * z * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (z * p1 - p0) / (z * z - 1.0);
      const Real step = p1 / dp;
      z -= step;
      if (std::abs(step) < 1e-16) break;
    }
    x[static_cast<size_t>(i)] = z;
    w[static_cast<size_t>(i)] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

// The rounded rectangle [-a, a] x [-c, c] + disc(rho) in the (x, z) plane: its area and the
// integrals of x^2 and z^2 over it (the rectangle, four side strips, four quarter discs).
struct Section {
  Real area, xx, zz;
};
Section roundedRectangle(Real a, Real c, Real rho) {
  auto momentAlong = [&](Real p, Real q) {  // integral of (coordinate along p's side)^2
    const Real rect = 4.0 * q * p * p * p / 3.0;
    const Real ends = 2.0 * 2.0 * q * (std::pow(p + rho, 3) - p * p * p) / 3.0;
    const Real sides = 2.0 * rho * 8.0 * p * p * p / 12.0;
    const Real corners =
        kPi * p * p * rho * rho + 8.0 * p * rho * rho * rho / 3.0 + kPi * std::pow(rho, 4) / 4.0;
    return rect + ends + sides + corners;
  };
  return {4.0 * a * c + 4.0 * rho * (a + c) + kPi * rho * rho, momentAlong(a, c),
          momentAlong(c, a)};
}

// Volume and inertia diagonal (unit density) of box(a, b, c) + ball(r), integrated over the
// height y: the middle |y| <= b with rho = r, each cap y = b + r sin(phi) with rho = r cos(phi)
// (the substitution takes the square root's end away, so Gauss-Legendre converges fast).
struct Integrated {
  Real volume = 0.0;
  Vec3 inertia{0.0};
};
Integrated integrateRoundedBox(Real a, Real b, Real c, Real r) {
  std::vector<Real> x, w;
  gaussLegendre(64, x, w);
  Integrated out;
  auto add = [&](Real y, Real rho, Real weight) {
    const Section s = roundedRectangle(a, c, rho);
    out.volume += weight * s.area;
    out.inertia.x += weight * (s.zz + y * y * s.area);
    out.inertia.y += weight * (s.xx + s.zz);
    out.inertia.z += weight * (s.xx + y * y * s.area);
  };
  for (size_t i = 0; i < x.size(); ++i) {
    add(b * x[i], r, b * w[i]);  // y in [-b, b]
    const Real phi = kPi / 4.0 * (x[i] + 1.0), dphi = kPi / 4.0 * w[i];
    for (const Real side : {-1.0, 1.0})
      add(side * (b + r * std::sin(phi)), r * std::cos(phi), r * std::cos(phi) * dphi);
  }
  return out;
}

std::vector<Vec3> moved(const std::vector<Vec3>& points, const Transform& x) {
  std::vector<Vec3> out;
  for (const Vec3& p : points) out.push_back(x.apply(p));
  return out;
}

// Unit directions spread evenly over the sphere (a Fibonacci lattice).
std::vector<Vec3> sphereDirections(int n) {
  std::vector<Vec3> out;
  const Real golden = kPi * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const Real y = 1.0 - 2.0 * (i + 0.5) / n, s = std::sqrt(1.0 - y * y);
    out.emplace_back(s * std::cos(golden * i), y, s * std::sin(golden * i));
  }
  return out;
}

Real matrixError(const Mat3& a, const Mat3& b) {
  Real e = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e = std::max(e, std::abs(a[i][j] - b[i][j]));
  return e;
}

// Signed distance from p (local) to the rounded hull: the core's distance (GJK on a point; 0
// inside, where the depth below the nearest face plane is used) less the radius.
Real signedDistance(const Shape& s, const Vec3& p) {
  const ConvexHull& core = *s.coreHull();
  Real inside = -std::numeric_limits<Real>::infinity();
  for (const HullFace& f : core.faces())
    inside = std::max(inside, glm::dot(f.normal, p) - f.offset);
  if (inside <= 0.0) return inside - s.roundRadius();
  const Vec3 point[1] = {p};
  SupportShape ps;
  ps.points = point;
  const GjkResult g = gjkDistance(s.support(), Transform{}, ps, Transform{}, Settings{}.gjk);
  return g.distance - s.roundRadius();
}

}  // namespace

TEST_CASE("rounded box mass properties equal Gauss-Legendre integration over its height",
          "[rounded]") {
  std::mt19937_64 rng(31);
  for (const auto& [half, r] : {std::pair{Vec3(0.5, 0.5, 0.5), 0.05},
                                {Vec3(1.0, 0.3, 0.7), 0.2},
                                {Vec3(0.1, 2.0, 0.4), 0.9},
                                {Vec3(3.0, 0.02, 1.0), 0.01}}) {
    const Integrated ref = integrateRoundedBox(half.x, half.y, half.z, r);
    // Posed away from the origin and turned, so the reference point, the off-diagonal terms and
    // the centre of mass are exercised: the inertia is the turned box's.
    const Transform pose = randomPose(rng, 5.0);
    const Shape s = *makeRoundedHull(moved(boxCorners(half), pose), r);
    const Real density = 640.0;
    const MassProperties m = s.massProperties(density);
    CHECK_THAT(m.volume, WithinRel(ref.volume, 1e-9));
    CHECK_THAT(m.mass, WithinRel(density * ref.volume, 1e-9));
    CHECK(glm::length(m.centerOfMass - pose.position) < 1e-9 * glm::length(pose.position));
    const Mat3 rot = glm::mat3_cast(pose.rotation);
    Mat3 diag(0.0);
    for (int k = 0; k < 3; ++k) diag[k][k] = density * ref.inertia[k];
    const Mat3 expected = rot * diag * glm::transpose(rot);
    const Real scale = std::max({diag[0][0], diag[1][1], diag[2][2]});
    CHECK(matrixError(m.inertia, expected) < 1e-9 * scale);
  }
}

TEST_CASE("the vertices' normal cones tile the sphere", "[rounded]") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<Vec3> pts =
        ellipsoidPoints(rng, 8 + static_cast<size_t>(trial) * 5, Vec3(1.0, 0.6, 0.3));
    const ConvexHull hull = *ConvexHull::build(pts);
    const std::vector<NormalCone> cones = normalCones(hull);
    REQUIRE(cones.size() == hull.vertices().size());
    Real omega = 0.0;
    Vec3 first(0.0);
    Mat3 second(0.0);
    for (const NormalCone& c : cones) {
      CHECK(c.solidAngle > 0.0);
      omega += c.solidAngle;
      first += c.first;
      second += c.second;
    }
    CHECK_THAT(omega, WithinRel(4.0 * kPi, 1e-12));
    CHECK(glm::length(first) < 1e-12);
    CHECK(matrixError(second, Mat3(4.0 * kPi / 3.0)) < 1e-12);
  }
  // A box's cones are octants: pi/2 sr, first moment pi/4 per axis, second moment pi/6 on the
  // diagonal and the octant's signs times 1/3 off it.
  const ConvexHull box = *ConvexHull::build(boxCorners(Vec3(0.3, 0.5, 0.7)));
  for (size_t i = 0; i < box.vertices().size(); ++i) {
    const NormalCone c = normalCones(box)[i];
    const Vec3 sign = glm::sign(box.vertices()[i]);
    CHECK_THAT(c.solidAngle, WithinRel(kPi / 2.0, 1e-14));
    CHECK(glm::length(c.first - kPi / 4.0 * sign) < 1e-14);
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k)
        CHECK_THAT(c.second[j][k], WithinAbs(j == k ? kPi / 6.0 : sign[j] * sign[k] / 3.0, 1e-14));
  }
}

TEST_CASE("rounded hull mass properties match a dense hull of surface samples", "[rounded]") {
  std::mt19937_64 rng(77);
  const Transform pose = randomPose(rng, 3.0);
  const std::vector<Vec3> core = moved(ellipsoidPoints(rng, 14, Vec3(0.8, 0.5, 0.3)), pose);
  const Real r = 0.25;
  const Shape s = *makeRoundedHull(core, r);
  const MassProperties exact = s.massProperties(1.0);
  // core + r u for many directions u: a hull inside the rounded hull that converges on it.
  Real previousGap = std::numeric_limits<Real>::infinity();
  for (const int n : {200, 3000}) {
    std::vector<Vec3> dense;
    for (const Vec3& v : s.coreHull()->vertices())
      for (const Vec3& u : sphereDirections(n)) dense.push_back(v + r * u);
    const MassProperties approx = (*ConvexHull::build(dense)).massProperties(1.0);
    const Real gap = exact.volume - approx.volume;
    CHECK(gap > 0.0);  // from inside
    CHECK(gap < previousGap);
    previousGap = gap;
    if (n == 3000) {
      CHECK_THAT(approx.volume, WithinRel(exact.volume, 2e-3));
      CHECK(glm::length(approx.centerOfMass - exact.centerOfMass) < 1e-3);
      CHECK(matrixError(approx.inertia, exact.inertia) < 5e-3 * exact.inertia[0][0]);
    }
  }
  // r -> 0: the plain hull's.
  const ConvexHull plain = *ConvexHull::build(core);
  const MassProperties m0 = plain.massProperties(1.0);
  const MassProperties small = roundedHullMass(plain, 1e-9, 1.0);
  CHECK_THAT(small.volume, WithinRel(m0.volume, 1e-7));
  CHECK(glm::length(small.centerOfMass - m0.centerOfMass) < 1e-8);
  CHECK(matrixError(small.inertia, m0.inertia) < 1e-7 * m0.inertia[0][0]);
}

TEST_CASE("bad rounded hulls are refused, naming the radius or the points", "[rounded]") {
  const std::vector<Vec3> cube = boxCorners(Vec3(0.5));
  CHECK(makeRoundedHull(cube, 0.1));
  for (const Real r : {0.0, -0.1, std::nan(""), std::numeric_limits<Real>::infinity()}) {
    const Expected<Shape> s = makeRoundedHull(cube, r);
    REQUIRE_FALSE(s);
    CHECK(s.error().find("radius") != std::string::npos);
  }
  const std::vector<Vec3> flat = {Vec3(0.0), Vec3(1.0, 0.0, 0.0), Vec3(0.0, 0.0, 1.0),
                                  Vec3(1.0, 0.0, 1.0)};
  REQUIRE_FALSE(makeRoundedHull(flat, 0.1));
  CHECK(makeRoundedHull(flat, 0.1).error() == ConvexHull::build(flat).error());
  CHECK_FALSE(makeRoundedHull(std::span<const Vec3>(cube.data(), 3), 0.1));
}

TEST_CASE("a rounded hull's accessors, bounds and radius are the core grown by the radius",
          "[rounded]") {
  const Shape s = *makeRoundedHull(boxCorners(Vec3(0.5, 1.0, 0.25)), 0.1);
  CHECK(s.type() == ShapeType::RoundedHull);
  CHECK(std::string(shapeTypeName(s.type())) == "rounded");
  CHECK(s.isConvex());
  CHECK_FALSE(s.isStaticOnly());
  CHECK(s.hull() == nullptr);  // hull() is the sharp kind only
  REQUIRE(s.roundedHull() != nullptr);
  CHECK(s.coreHull() == &s.roundedHull()->hull);
  CHECK(s.roundRadius() == 0.1);
  CHECK(s.support().points.size() == 8);
  CHECK(s.support().neighbours.size() > 0);
  Transform x;
  x.position = Vec3(1.0, 2.0, 3.0);
  x.rotation = glm::angleAxis(Real(kPi / 2), Vec3(0.0, 0.0, 1.0));  // y axis -> -x
  const Aabb box = s.bounds(x);
  CHECK_THAT(box.lower.x, WithinAbs(1.0 - 1.1, 1e-12));
  CHECK_THAT(box.upper.x, WithinAbs(1.0 + 1.1, 1e-12));
  CHECK_THAT(box.lower.y, WithinAbs(2.0 - 0.6, 1e-12));
  CHECK_THAT(box.upper.z, WithinAbs(3.0 + 0.35, 1e-12));
  const Real corner = std::sqrt(0.25 + 1.0 + 0.0625);
  CHECK_THAT(s.radius(), WithinAbs(corner + 0.1, 1e-15));
  CHECK_THAT(s.radiusAbout(Vec3(0.5, 1.0, 0.25)), WithinAbs(2.0 * corner + 0.1, 1e-12));
  const Shape plain = *makeHull(boxCorners(Vec3(0.5, 1.0, 0.25)));
  CHECK(plain.coreHull() == plain.hull());
  CHECK(plain.roundedHull() == nullptr);
}

TEST_CASE("rounded hull ray casts equal marching the signed distance", "[rounded]") {
  std::mt19937_64 rng(19);
  const Shape shapes[] = {*makeRoundedHull(boxCorners(Vec3(0.5, 0.3, 0.2)), 0.15),
                          *makeRoundedHull(ellipsoidPoints(rng, 12, Vec3(0.6, 0.4, 0.5)), 0.3)};
  int hits = 0, misses = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Shape& s = shapes[trial % 2];
    const Vec3 origin = 2.0 * unitVector(rng);
    const Vec3 target = 0.7 * Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const Vec3 dir = target - origin;  // t in [0, 2]: through the target and beyond
    Real t = 0.0;
    Vec3 n(0.0);
    const bool hit = s.rayCast(origin, dir, 2.0, t, n);
    // March in steps far below the radius, then bisect the first sign change.
    const int steps = 4000;
    Real lo = -1.0;
    for (int i = 1; i <= steps; ++i) {
      if (signedDistance(s, origin + (2.0 * i / steps) * dir) <= 0.0) {
        lo = 2.0 * (i - 1) / steps;
        break;
      }
    }
    REQUIRE(hit == (lo >= 0.0));
    if (!hit) {
      ++misses;
      continue;
    }
    ++hits;
    Real hi = lo + 2.0 / steps;
    for (int k = 0; k < 60; ++k) {
      const Real mid = 0.5 * (lo + hi);
      (signedDistance(s, origin + mid * dir) <= 0.0 ? hi : lo) = mid;
    }
    CHECK_THAT(t, WithinAbs(hi, 1e-9));
    // The normal is the distance's gradient there: along the hit point less its nearest core
    // point, which lies r behind it.
    const Vec3 p = origin + t * dir;
    CHECK_THAT(signedDistance(s, p - s.roundRadius() * n), WithinAbs(-s.roundRadius(), 1e-9));
    CHECK(glm::dot(n, dir) < 0.0);
  }
  CHECK(hits > 100);
  CHECK(misses > 20);
  // From inside: t = 0.
  Real t = 1.0;
  Vec3 n(0.0);
  REQUIRE(shapes[0].rayCast(Vec3(0.6, 0.0, 0.0), Vec3(1.0, 0.0, 0.0), 1.0, t, n));
  CHECK(t == 0.0);
}
