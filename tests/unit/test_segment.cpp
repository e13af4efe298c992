// Segment-segment closest points against an independent reference: the distance from a point of A
// to segment B is exact (clamped projection) and convex along A, so a dense scan of A followed by
// golden-section refinement gives the distance without the 2x2 system.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "tumble/segment.h"

using namespace tumble;

namespace {

Real uniform(std::mt19937_64& rng, Real lo, Real hi) {
  return lo + (hi - lo) * (static_cast<Real>(rng() >> 11) * 0x1.0p-53);
}

Vec3 randomVec(std::mt19937_64& rng, Real scale) {
  return Vec3(uniform(rng, -scale, scale), uniform(rng, -scale, scale),
              uniform(rng, -scale, scale));
}

Real pointSegment(const Vec3& p, const Vec3& b0, const Vec3& b1) {
  const Vec3 v = b1 - b0;
  const Real vv = glm::dot(v, v);
  const Real t = vv > 0.0 ? std::clamp(glm::dot(p - b0, v) / vv, 0.0, 1.0) : 0.0;
  return glm::length(p - (b0 + t * v));
}

Real referenceDistance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const int kSamples = 2000;
  Real best = pointSegment(a0, b0, b1);
  int bestK = 0;
  for (int k = 1; k <= kSamples; ++k) {
    const Real d = pointSegment(a0 + (a1 - a0) * (Real(k) / kSamples), b0, b1);
    if (d < best) best = d, bestK = k;
  }
  // Golden-section search on the convex function around the best sample.
  Real lo = std::max(0, bestK - 1) / Real(kSamples),
       hi = std::min(kSamples, bestK + 1) / Real(kSamples);
  const Real g = 0.5 * (std::sqrt(5.0) - 1.0);
  auto f = [&](Real s) { return pointSegment(a0 + (a1 - a0) * s, b0, b1); };
  for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
    const Real x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    if (f(x1) < f(x2))
      hi = x2;
    else
      lo = x1;
  }
  return std::min(best, f(0.5 * (lo + hi)));
}

void checkAgainstReference(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1,
                           Real absTol) {
  const SegmentClosest c = closestPointsSegmentSegment(a0, a1, b0, b1);
  INFO("a0 " << a0.x << " " << a0.y << " " << a0.z << " a1 " << a1.x << " " << a1.y << " " << a1.z
             << " b0 " << b0.x << " " << b0.y << " " << b0.z << " b1 " << b1.x << " " << b1.y << " "
             << b1.z);
  REQUIRE(c.s >= 0.0);
  REQUIRE(c.s <= 1.0);
  REQUIRE(c.t >= 0.0);
  REQUIRE(c.t <= 1.0);
  REQUIRE(std::isfinite(c.distance));
  CHECK_THAT(glm::length(c.pointA - (a0 + c.s * (a1 - a0))), Catch::WithinAbs(0.0, absTol));
  CHECK_THAT(glm::length(c.pointB - (b0 + c.t * (b1 - b0))), Catch::WithinAbs(0.0, absTol));
  CHECK_THAT(glm::length(c.pointA - c.pointB), Catch::WithinAbs(c.distance, absTol));
  CHECK_THAT(c.distance, Catch::WithinAbs(referenceDistance(a0, a1, b0, b1), absTol));
}

}  // namespace

TEST_CASE("segment distance: analytic cases", "[segment]") {
  // Crossing at right angles, 1 apart in z.
  auto c = closestPointsSegmentSegment({-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1});
  CHECK_THAT(c.distance, Catch::WithinAbs(1.0, 1e-15));
  CHECK_THAT(c.s, Catch::WithinAbs(0.5, 1e-15));
  CHECK_THAT(c.t, Catch::WithinAbs(0.5, 1e-15));
  // Parallel, offset 2, overlapping in x on [1, 2].
  c = closestPointsSegmentSegment({0, 0, 0}, {2, 0, 0}, {1, 2, 0}, {3, 2, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(2.0, 1e-15));
  CHECK(c.pointA.x >= 1.0 - 1e-15);
  // Collinear, disjoint: gap of 1 between end points.
  c = closestPointsSegmentSegment({0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {2, 0, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(1.0, 1e-15));
  CHECK_THAT(c.s, Catch::WithinAbs(1.0, 1e-15));
  CHECK_THAT(c.t, Catch::WithinAbs(1.0, 1e-15));
  // Collinear overlapping: distance 0.
  c = closestPointsSegmentSegment({0, 0, 0}, {2, 0, 0}, {1, 0, 0}, {3, 0, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(0.0, 1e-15));
  // Both zero length.
  c = closestPointsSegmentSegment({1, 2, 3}, {1, 2, 3}, {1, 2, 5}, {1, 2, 5});
  CHECK_THAT(c.distance, Catch::WithinAbs(2.0, 1e-15));
  // Point against a segment, projection inside.
  c = closestPointsSegmentSegment({0, 1, 0}, {0, 1, 0}, {-1, 0, 0}, {1, 0, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(1.0, 1e-15));
  CHECK_THAT(c.t, Catch::WithinAbs(0.5, 1e-15));
  // Segment against a point, projection beyond the end.
  c = closestPointsSegmentSegment({-1, 0, 0}, {1, 0, 0}, {4, 4, 0}, {4, 4, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(5.0, 1e-14));
  CHECK_THAT(c.s, Catch::WithinAbs(1.0, 1e-15));
  // Shared end point (adjacent chain segments).
  c = closestPointsSegmentSegment({0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 1, 0});
  CHECK_THAT(c.distance, Catch::WithinAbs(0.0, 1e-15));
}

TEST_CASE("segment distance agrees with dense sampling", "[segment]") {
  std::mt19937_64 rng(0x5e67e47);
  for (int trial = 0; trial < 2000; ++trial) {
    const int family = trial % 6;
    const Real scale = family == 4 ? 1e-6 : (family == 5 ? 1e4 : 1.0);
    const Real tol = 1e-9 * scale;
    Vec3 a0 = randomVec(rng, scale), a1 = randomVec(rng, scale);
    Vec3 b0 = randomVec(rng, scale), b1 = randomVec(rng, scale);
    switch (family) {
      case 1: {  // parallel (exactly or nearly)
        const Vec3 offset = randomVec(rng, scale);
        const Real k = uniform(rng, -2.0, 2.0);
        b0 = a0 + offset;
        b1 = b0 + k * (a1 - a0) + randomVec(rng, 1e-13 * scale) * Real(trial % 2);
        break;
      }
      case 2: {  // collinear, overlapping or not
        const Vec3 d = a1 - a0;
        b0 = a0 + uniform(rng, -1.5, 1.5) * d;
        b1 = a0 + uniform(rng, -1.5, 1.5) * d;
        break;
      }
      case 3:  // zero length on one or both sides
        a1 = a0;
        if (trial % 4 == 3) b1 = b0;
        break;
      default:
        break;
    }
    checkAgainstReference(a0, a1, b0, b1, tol);
    checkAgainstReference(b0, b1, a0, a1, tol);
  }
}

TEST_CASE("segment distance is symmetric and translation invariant", "[segment]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 1000; ++trial) {
    const Vec3 a0 = randomVec(rng, 1), a1 = randomVec(rng, 1), b0 = randomVec(rng, 1),
               b1 = randomVec(rng, 1);
    const Vec3 shift = randomVec(rng, 100);
    const Real d = segmentDistance(a0, a1, b0, b1);
    CHECK_THAT(segmentDistance(b1, b0, a1, a0), Catch::WithinAbs(d, 1e-12));
    CHECK_THAT(segmentDistance(a0 + shift, a1 + shift, b0 + shift, b1 + shift),
               Catch::WithinAbs(d, 1e-10));
  }
}
