#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "random.h"
#include "shapes.h"
#include "tumble/hull.h"
#include "tumble/support.h"

using namespace tumble;
using Catch::Matchers::WithinAbs;
using tumble::test::uniform;
using tumble::test::unitVector;

namespace {

struct Family {
  std::string name;
  std::vector<Vec3> points;
};

// Hull families of 32..2000 points: ellipsoids (round and needle-like), a latitude-longitude
// sphere (rows of near-coplanar points near the poles), a sphere of points clustered in small
// patches (nearly coplanar neighbours), and a cylinder (large exactly planar caps).
std::vector<Family> families(std::mt19937_64& rng) {
  std::vector<Family> out;
  for (size_t n : {32u, 64u, 200u, 512u, 2000u}) {
    Vec3 radii(uniform(rng, 0.3, 1.5), uniform(rng, 0.3, 1.5), uniform(rng, 0.3, 1.5));
    out.push_back({"ellipsoid" + std::to_string(n), test::ellipsoidPoints(rng, n, radii)});
  }
  out.push_back({"needle", test::ellipsoidPoints(rng, 300, Vec3(2.0, 0.01, 0.02))});
  std::vector<Vec3> grid;
  for (int i = 0; i <= 30; ++i) {
    for (int j = 0; j < 40; ++j) {
      Real theta = 3.141592653589793 * i / 30.0, phi = 2.0 * 3.141592653589793 * j / 40.0;
      grid.emplace_back(std::sin(theta) * std::cos(phi), std::cos(theta),
                        std::sin(theta) * std::sin(phi));
    }
  }
  out.push_back({"latlong", grid});
  for (int exponent : {4, 7}) {
    const Real spread = std::pow(10.0, -exponent);
    std::vector<Vec3> patches;
    for (int c = 0; c < 40; ++c) {
      Vec3 centre = unitVector(rng);
      for (int k = 0; k < 25; ++k) {
        patches.push_back(glm::normalize(centre + spread * unitVector(rng)));
      }
    }
    out.push_back({"patches_1e-" + std::to_string(exponent), patches});
  }
  std::vector<Vec3> cylinder;
  for (int j = 0; j < 64; ++j) {
    Real phi = 2.0 * 3.141592653589793 * j / 64.0;
    cylinder.emplace_back(0.5 * std::cos(phi), -0.5, 0.5 * std::sin(phi));
    cylinder.emplace_back(0.5 * std::cos(phi), 0.5, 0.5 * std::sin(phi));
  }
  out.push_back({"cylinder64", cylinder});
  std::vector<Vec3> far;
  for (const Vec3& p : test::ellipsoidPoints(rng, 400, Vec3(1e-3, 2e-3, 1.5e-3))) {
    far.push_back(p + Vec3(1e4, -3e3, 2e3));
  }
  out.push_back({"small_far", far});
  return out;
}

Real valueOf(const SupportShape& s, int i, const Vec3& d) {
  return glm::dot(s.points[static_cast<size_t>(i)], d);
}

}  // namespace

TEST_CASE("hill climbing reaches the brute-force support value", "[support]") {
  std::mt19937_64 rng(4242);
  for (const Family& family : families(rng)) {
    auto hull = ConvexHull::build(family.points);
    REQUIRE(hull.ok());
    SupportShape shape = hull->supportShape();
    REQUIRE(shape.hasAdjacency());
    const int n = static_cast<int>(shape.points.size());
    CAPTURE(family.name, n);
    UNSCOPED_INFO(family.name << ": " << family.points.size() << " points, " << n << " vertices");
    if (family.name != "needle" && family.name != "cylinder64") REQUIRE(n >= 32);
    Real scale = 0.0;
    for (const Vec3& p : shape.points) scale = std::max(scale, glm::length(p));
    const Real tol = 1e-12 * scale;
    int previous = -1;
    for (int k = 0; k < 400; ++k) {
      Vec3 d = unitVector(rng);
      if (k % 10 == 0) d = Vec3(0.0, 1.0, 0.0);  // ties across a whole cap or row
      int hint = static_cast<int>(rng() % static_cast<uint64_t>(n));
      int brute = supportIndexBruteForce(shape, d);
      int climbed = supportIndexHillClimb(shape, d, hint);
      int dispatched = supportIndex(shape, d, hint);
      int warm = supportIndex(shape, d, previous);
      previous = warm;
      Real want = valueOf(shape, brute, d);
      CHECK_THAT(valueOf(shape, climbed, d), WithinAbs(want, tol));
      CHECK_THAT(valueOf(shape, dispatched, d), WithinAbs(want, tol));
      CHECK_THAT(valueOf(shape, warm, d), WithinAbs(want, tol));
      // Hill climbing never overshoots the true maximum, and the hull dropped no extreme input
      // point (points within roundoff of a face are not vertices).
      CHECK(valueOf(shape, climbed, d) <= want);
      Real inputMax = glm::dot(family.points[0], d);
      for (const Vec3& p : family.points) inputMax = std::max(inputMax, glm::dot(p, d));
      CHECK_THAT(valueOf(shape, climbed, d), WithinAbs(inputMax, tol));
    }
    // Out-of-range hints fall back to a valid start.
    Vec3 d = unitVector(rng);
    Real want = valueOf(shape, supportIndexBruteForce(shape, d), d);
    CHECK_THAT(valueOf(shape, supportIndex(shape, d, n + 5), d), WithinAbs(want, tol));
    CHECK_THAT(valueOf(shape, supportIndex(shape, d, -7), d), WithinAbs(want, tol));
  }
}

TEST_CASE("warm-started support follows a slowly turning direction", "[support]") {
  std::mt19937_64 rng(8);
  auto hull = ConvexHull::build(test::ellipsoidPoints(rng, 1000, Vec3(1.0, 0.8, 0.6)));
  REQUIRE(hull.ok());
  SupportShape shape = hull->supportShape();
  int hint = -1;
  for (int k = 0; k < 2000; ++k) {
    Real t = 0.01 * k;
    Vec3 d(std::cos(t), std::sin(0.7 * t), std::sin(t) * std::cos(0.3 * t));
    hint = supportIndex(shape, d, hint);
    Real want = valueOf(shape, supportIndexBruteForce(shape, d), d);
    CHECK_THAT(valueOf(shape, hint, d), WithinAbs(want, 1e-12));
  }
}

TEST_CASE("brute force breaks ties by the lowest index", "[support]") {
  std::vector<Vec3> pts = {{0, 0, 0}, {1, 2, 0}, {1, -1, 5}, {1, 0, 0}, {0.5, 9, 9}, {1, 2, 0}};
  SupportShape shape{pts, {}, {}};
  CHECK(supportIndexBruteForce(shape, Vec3(1, 0, 0)) == 1);  // 1, 2, 3, 5 tie at x = 1
  CHECK(supportIndex(shape, Vec3(1, 0, 0), 4) == 1);         // small set: brute force
  CHECK(supportIndexBruteForce(shape, Vec3(0, 1, 0)) == 4);
  CHECK(supportIndexBruteForce(shape, Vec3(0, 0, 0)) == 0);  // zero direction: all tie
  SupportShape single{std::span<const Vec3>(pts.data(), 1), {}, {}};
  CHECK(supportIndex(single, Vec3(0, -1, 0)) == 0);
}

TEST_CASE("small hulls use brute force and agree exactly", "[support]") {
  std::mt19937_64 rng(77);
  auto hull = ConvexHull::build(test::ellipsoidPoints(rng, 20, Vec3(1.0)));
  REQUIRE(hull.ok());
  SupportShape shape = hull->supportShape();
  REQUIRE(shape.points.size() < SupportShape::kHillClimbThreshold);
  for (int k = 0; k < 200; ++k) {
    Vec3 d = unitVector(rng);
    CHECK(supportIndex(shape, d, static_cast<int>(rng() % 20)) == supportIndexBruteForce(shape, d));
  }
}
