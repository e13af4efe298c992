#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "random.h"
#include "shapes.h"
#include "tumble/hull.h"

// Mass properties of hulls against analytic values, closed forms and Monte Carlo.

using namespace tumble;
using tumble::test::boxCorners;
using tumble::test::randomRotation;
using tumble::test::uniform;
using tumble::test::unitVector;

namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

void checkMatrix(const Mat3& got, const Mat3& want, Real tol) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) {
      CAPTURE(c, r);
      CHECK_THAT(got[c][r], WithinAbs(want[c][r], tol));
    }
  }
}

Mat3 rotationMatrix(const Quat& q) {
  return glm::mat3_cast(q);
}

}  // namespace

TEST_CASE("mass properties of boxes, axis-aligned and rotated", "[hull][mass]") {
  const Vec3 half(0.5, 1.0, 1.5);
  const Real density = 2.0;
  const Real mass = density * 8.0 * half.x * half.y * half.z;
  Mat3 diag(0.0);
  diag[0][0] = mass * (half.y * half.y + half.z * half.z) / 3.0;
  diag[1][1] = mass * (half.x * half.x + half.z * half.z) / 3.0;
  diag[2][2] = mass * (half.x * half.x + half.y * half.y) / 3.0;
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 6; ++trial) {
    Quat q = trial == 0 ? Quat(1, 0, 0, 0) : randomRotation(rng);
    Vec3 shift = trial < 2 ? Vec3(0.0) : Vec3(3.0, -1.0, 2.0) * std::pow(10.0, trial - 2);
    auto points = boxCorners(half);
    for (Vec3& p : points) p = q * p + shift;
    auto hull = ConvexHull::build(points);
    REQUIRE(hull.ok());
    MassProperties mp = hull->massProperties(density);
    CAPTURE(trial);
    Real scaleTol = 1e-12 * (1.0 + glm::length(shift));
    CHECK_THAT(mp.volume, WithinRel(6.0, 1e-12));
    CHECK_THAT(mp.mass, WithinRel(mass, 1e-12));
    for (int k = 0; k < 3; ++k) CHECK_THAT(mp.centerOfMass[k], WithinAbs(shift[k], scaleTol));
    Mat3 r = rotationMatrix(q);
    checkMatrix(mp.inertia, r * diag * glm::transpose(r), 1e-9 * (1.0 + glm::length(shift)));
  }
}

TEST_CASE("mass properties of tetrahedra against the closed form", "[hull][mass]") {
  // The corner tetrahedron by hand: V = 1/6, c = 1/4, Ixx = 1/80, Ixy = +1/480 (per unit density).
  std::vector<Vec3> corner = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  MassProperties mp = ConvexHull::build(corner)->massProperties(1.0);
  CHECK_THAT(mp.volume, WithinRel(1.0 / 6.0, 1e-14));
  for (int k = 0; k < 3; ++k) CHECK_THAT(mp.centerOfMass[k], WithinAbs(0.25, 1e-15));
  CHECK_THAT(mp.inertia[0][0], WithinRel(1.0 / 80.0, 1e-13));
  CHECK_THAT(mp.inertia[1][0], WithinRel(1.0 / 480.0, 1e-12));
  CHECK_THAT(mp.inertia[2][1], WithinRel(1.0 / 480.0, 1e-12));

  // Random tetrahedra: integral of x x^T = V/20 (sum p p^T + S S^T), S = sum p (Tonon 2004),
  // taken about the origin with no fan or reference point.
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Vec3> p;
    for (int i = 0; i < 4; ++i) {
      p.emplace_back(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    }
    Real volume = std::abs(glm::dot(p[1] - p[0], glm::cross(p[2] - p[0], p[3] - p[0]))) / 6.0;
    if (volume < 1e-3) continue;
    Vec3 sum = p[0] + p[1] + p[2] + p[3];
    Mat3 second = glm::outerProduct(sum, sum);
    for (const Vec3& v : p) second += glm::outerProduct(v, v);
    second *= volume / 20.0;
    Vec3 c = sum / 4.0;
    Mat3 cov = second - volume * glm::outerProduct(c, c);
    Real tr = cov[0][0] + cov[1][1] + cov[2][2];
    const Real density = 3.5;
    Mat3 inertia = density * (Mat3(tr) - cov);
    auto hull = ConvexHull::build(p);
    REQUIRE(hull.ok());
    MassProperties got = hull->massProperties(density);
    CAPTURE(trial);
    CHECK_THAT(got.volume, WithinRel(volume, 1e-11));
    for (int k = 0; k < 3; ++k) CHECK_THAT(got.centerOfMass[k], WithinAbs(c[k], 1e-12));
    checkMatrix(got.inertia, inertia, 1e-12);
  }
}

TEST_CASE("mass properties obey the parallel-axis theorem", "[hull][mass]") {
  // A box cut into two unequal boxes: combining the halves with the parallel-axis theorem must
  // give the whole. All three are rotated and moved the same way.
  std::mt19937_64 rng(23);
  Quat q = randomRotation(rng);
  Vec3 shift(12.0, -7.0, 3.0);
  auto boxAt = [&](const Vec3& lo, const Vec3& hi) {
    std::vector<Vec3> pts;
    for (int i = 0; i < 8; ++i) {
      Vec3 p((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
      pts.push_back(q * p + shift);
    }
    return ConvexHull::build(pts)->massProperties(1.7);
  };
  MassProperties whole = boxAt(Vec3(-0.4, -0.3, -0.2), Vec3(0.6, 0.3, 0.2));
  MassProperties left = boxAt(Vec3(-0.4, -0.3, -0.2), Vec3(-0.1, 0.3, 0.2));
  MassProperties right = boxAt(Vec3(-0.1, -0.3, -0.2), Vec3(0.6, 0.3, 0.2));
  CHECK_THAT(left.mass + right.mass, WithinRel(whole.mass, 1e-12));
  auto shifted = [&](const MassProperties& part) {
    Vec3 d = part.centerOfMass - whole.centerOfMass;
    return part.inertia + part.mass * (Mat3(glm::dot(d, d)) - glm::outerProduct(d, d));
  };
  checkMatrix(shifted(left) + shifted(right), whole.inertia, 1e-10);
  // Translating a hull leaves its inertia about the centre of mass unchanged.
  auto cloud = tumble::test::ellipsoidPoints(rng, 60, Vec3(0.9, 0.5, 0.3));
  MassProperties here = ConvexHull::build(cloud)->massProperties(1.0);
  for (Vec3& p : cloud) p += Vec3(1e3, 2e3, -5e2);
  MassProperties there = ConvexHull::build(cloud)->massProperties(1.0);
  CHECK_THAT(there.volume, WithinRel(here.volume, 1e-9));
  for (int k = 0; k < 3; ++k) {
    CHECK_THAT(there.centerOfMass[k] - Vec3(1e3, 2e3, -5e2)[k],
               WithinAbs(here.centerOfMass[k], 1e-10));
  }
  checkMatrix(there.inertia, here.inertia, 1e-9);
}

TEST_CASE("mass properties of a random hull agree with Monte Carlo", "[hull][mass]") {
  std::mt19937_64 rng(31);
  Quat q = randomRotation(rng);
  std::vector<Vec3> points;
  for (int i = 0; i < 50; ++i) {
    Vec3 p = unitVector(rng) * Vec3(0.9, 0.6, 0.4) * (i % 5 == 0 ? 0.5 : 1.0);
    points.push_back(q * p + Vec3(0.2, -0.1, 0.3));
  }
  auto hull = ConvexHull::build(points);
  REQUIRE(hull.ok());
  MassProperties mp = hull->massProperties(1.0);
  const Vec3 lo = hull->boundsMin(), hi = hull->boundsMax();
  const Real boxVolume = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
  const Vec3 c = mp.centerOfMass;
  // Estimate the integrals of 1, x, y, z and the six covariance terms as box volume times the
  // sample mean of (inside ? f : 0); the tolerance is 5 standard errors of that mean.
  constexpr int kSamples = 400000;
  constexpr int kTerms = 10;
  double sum[kTerms] = {}, sumSq[kTerms] = {};
  for (int s = 0; s < kSamples; ++s) {
    Vec3 p(uniform(rng, lo.x, hi.x), uniform(rng, lo.y, hi.y), uniform(rng, lo.z, hi.z));
    bool inside = true;
    for (const HullFace& f : hull->faces()) {
      if (glm::dot(f.normal, p) > f.offset) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    Vec3 d = p - c;
    const double f[kTerms] = {1.0,       p.x,       p.y,       p.z,       d.x * d.x,
                              d.y * d.y, d.z * d.z, d.x * d.y, d.x * d.z, d.y * d.z};
    for (int k = 0; k < kTerms; ++k) {
      sum[k] += f[k];
      sumSq[k] += f[k] * f[k];
    }
  }
  double estimate[kTerms], tolerance[kTerms];
  for (int k = 0; k < kTerms; ++k) {
    double mean = sum[k] / kSamples;
    double var = sumSq[k] / kSamples - mean * mean;
    estimate[k] = boxVolume * mean;
    tolerance[k] = 5.0 * boxVolume * std::sqrt(var / kSamples);
  }
  CHECK_THAT(mp.volume, WithinAbs(estimate[0], tolerance[0]));
  for (int k = 0; k < 3; ++k) {
    CHECK_THAT(mp.volume * c[k], WithinAbs(estimate[1 + k], tolerance[1 + k]));
  }
  // I = trace(C) Id - C with C the covariance integrals.
  CHECK_THAT(mp.inertia[0][0], WithinAbs(estimate[5] + estimate[6], tolerance[5] + tolerance[6]));
  CHECK_THAT(mp.inertia[1][1], WithinAbs(estimate[4] + estimate[6], tolerance[4] + tolerance[6]));
  CHECK_THAT(mp.inertia[2][2], WithinAbs(estimate[4] + estimate[5], tolerance[4] + tolerance[5]));
  CHECK_THAT(mp.inertia[1][0], WithinAbs(-estimate[7], tolerance[7]));
  CHECK_THAT(mp.inertia[2][0], WithinAbs(-estimate[8], tolerance[8]));
  CHECK_THAT(mp.inertia[2][1], WithinAbs(-estimate[9], tolerance[9]));
  // The estimate is informative: the tolerance is a small fraction of the value.
  CHECK(tolerance[0] < 0.02 * mp.volume);
}
