// The chain: analytic first-contact folds and length changes, edits, degenerate input, and the
// broad-phase against the page's all-pairs loop.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "chain_test_util.h"
#include "tumble/chain.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::Contains;

namespace {

// A post (segment 0, vertical, at distance c from the origin in direction phi), a link to the
// origin (segment 1) and an arm of length R in the plane z = 0 (segment 2) along +x. Folding the
// arm about +z at joint 2 turns it toward the post: the arm meets the post's middle when
// c sin(phi - theta) = 2r, i.e. at theta* = phi - asin(2r / c).
std::vector<Vec3> postAndArm(Real c, Real phi, Real armLength) {
  const Vec3 foot(c * std::cos(phi), c * std::sin(phi), 0.0);
  return {foot - Vec3(0, 0, 1), foot + Vec3(0, 0, 1), Vec3(0.0), Vec3(armLength, 0, 0)};
}

}  // namespace

TEST_CASE("a fold stops at the analytic first-contact angle", "[chain]") {
  const Real c = 2.0, phi = 1.0, radius = 0.1;
  Settings::Chain settings;
  const Real t = settings.tolerance * radius;
  const Real expected = phi - std::asin(2.0 * radius / c);
  // Angle error allowed by a gap error of T: the arm's point at distance c moves at speed c,
  // approaching the post at c cos(asin(2r/c)).
  const Real angleTol = t / (c * std::cos(std::asin(2.0 * radius / c)));
  for (const Real sign : {1.0, -1.0}) {
    auto chain = Chain::create(postAndArm(c, phi, 3.0), radius, settings);
    REQUIRE(chain.ok());
    // (axis, angle) and (-axis, -angle) are the same right-handed rotation.
    auto r = chain->fold(2, Vec3(0, 0, sign * 5.0), sign * 2.0, settings);
    REQUIRE(r.ok());
    CHECK(r->blocked);
    CHECK(r->status == ChainMotionStatus::Blocked);
    REQUIRE(r->contact.has_value());
    CHECK(r->contact->i == 0);
    CHECK(r->contact->j == 2);
    CHECK_THAT(sign * r->applied, Catch::WithinAbs(expected, angleTol));
    CHECK(r->applied * sign > 0.0);
    CHECK(std::abs(r->minGap.value()) <= t);
    const Vec3 tip = chain->points()[3];
    CHECK_THAT(std::atan2(tip.y, tip.x), Catch::WithinAbs(expected, angleTol));
    CHECK_THAT(tip.z, Catch::WithinAbs(0.0, 1e-15));
  }
}

TEST_CASE("a fold away from the obstacle completes (right-handed sign)", "[chain]") {
  auto chain = Chain::create(postAndArm(2.0, 1.0, 3.0), 0.1);
  REQUIRE(chain.ok());
  auto r = chain->fold(2, Vec3(0, 0, 1), -2.0);
  REQUIRE(r.ok());
  CHECK_FALSE(r->blocked);
  CHECK(r->status == ChainMotionStatus::Completed);
  CHECK_THAT(r->applied, Catch::WithinAbs(-2.0, 0.0));
  const Vec3 tip = chain->points()[3];
  CHECK_THAT(tip.x, Catch::WithinAbs(3.0 * std::cos(-2.0), 1e-14));
  CHECK_THAT(tip.y, Catch::WithinAbs(3.0 * std::sin(-2.0), 1e-14));
}

TEST_CASE("a hairpin fold of a straight chain stops at contact", "[chain]") {
  std::vector<Vec3> p;
  for (int k = 0; k <= 20; ++k) p.push_back(Vec3(k, 0, 0));
  const Real radius = 0.05;
  auto chain = Chain::create(p, radius);
  REQUIRE(chain.ok());
  auto r = chain->fold(10, Vec3(0, 1, 0), M_PI);
  REQUIRE(r.ok());
  CHECK(r->blocked);
  CHECK(r->applied > 2.5);
  CHECK(r->applied < M_PI);
  CHECK(r->minGap.value() <= 0.01 * radius);
  CHECK(r->minGap.value() >= -0.01 * radius);
  CHECK_THAT(r->minGap.value(), Catch::WithinAbs(bruteMinGap(chain->points(), radius), 1e-12));
  // Folding further in the same direction is blocked at once; folding back is free.
  auto again = chain->fold(10, Vec3(0, 1, 0), 0.5);
  REQUIRE(again.ok());
  CHECK(again->blocked);
  CHECK_THAT(again->applied, Catch::WithinAbs(0.0, 1e-3));
  // A zero fold at contact is a completed no-op, not a blocked one.
  auto none = chain->fold(10, Vec3(0, 1, 0), 0.0);
  REQUIRE(none.ok());
  CHECK_FALSE(none->blocked);
  CHECK(none->status == ChainMotionStatus::Completed);
  auto back = chain->fold(10, Vec3(0, 1, 0), -1.0);
  REQUIRE(back.ok());
  CHECK_FALSE(back->blocked);
}

TEST_CASE("a fold about the chain's own line leaves it in place", "[chain]") {
  std::vector<Vec3> p;
  for (int k = 0; k <= 6; ++k) p.push_back(Vec3(k, 0, 0));
  auto chain = Chain::create(p, 0.1);
  REQUIRE(chain.ok());
  auto r = chain->fold(3, Vec3(2, 0, 0), M_PI);
  REQUIRE(r.ok());
  CHECK_FALSE(r->blocked);
  for (int k = 0; k <= 6; ++k)
    CHECK_THAT(glm::length(chain->points()[k] - p[k]), Catch::WithinAbs(0, 1e-14));
}

TEST_CASE("shortening a segment stops when the parallel neighbours touch", "[chain]") {
  // Segments 0 and 2 are parallel, 1 apart (the length of segment 1): contact at length 2r.
  const Real radius = 0.1;
  auto chain = Chain::create({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, radius);
  REQUIRE(chain.ok());
  auto r = chain->setSegmentLength(1, 0.05);
  REQUIRE(r.ok());
  CHECK(r->blocked);
  const Real length = glm::length(chain->points()[2] - chain->points()[1]);
  CHECK_THAT(length, Catch::WithinAbs(2.0 * radius, 0.01 * radius));
  CHECK_THAT(r->applied, Catch::WithinAbs(2.0 * radius - 1.0, 0.01 * radius));
  // Lengthening is free and exact.
  auto longer = chain->setSegmentLength(1, 3.0);
  REQUIRE(longer.ok());
  CHECK_FALSE(longer->blocked);
  CHECK_THAT(glm::length(chain->points()[2] - chain->points()[1]), Catch::WithinAbs(3.0, 1e-12));
  CHECK_THAT(chain->points()[3].y, Catch::WithinAbs(3.0, 1e-12));
}

TEST_CASE("lengthening a segment stops at an obstacle ahead", "[chain]") {
  // Segment 2 grows along +x toward the vertical segment 0 at x = 5.
  const Real radius = 0.1;
  auto chain = Chain::create({{5, -1, 0}, {5, 1, 0}, {0, 1, 0}, {0, 0, 0}, {1, 0, 0}}, radius);
  REQUIRE(chain.ok());
  auto r = chain->setSegmentLength(3, 10.0);
  REQUIRE(r.ok());
  CHECK(r->blocked);
  CHECK_THAT(chain->points()[4].x, Catch::WithinAbs(5.0 - 2.0 * radius, 0.01 * radius));
}

TEST_CASE("append refuses a segment that would intersect, naming the pair", "[chain]") {
  auto chain = Chain::create({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}}, 0.1);
  REQUIRE(chain.ok());
  auto ok = chain->append(Vec3(-1, 0, 0), 0.5);
  REQUIRE(ok.ok());
  CHECK(ok->segment == 2);
  CHECK(chain->segmentCount() == 3);
  auto bad = chain->append(Vec3(0, -1, 0), 1.5);  // down through segment 0
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Contains("segments 0 and 3"));
  CHECK(chain->segmentCount() == 3);
  CHECK_FALSE(chain->append(Vec3(0, 0, 0), 1.0).ok());
  CHECK_FALSE(chain->append(Vec3(1, 0, 0), 0.0).ok());
  CHECK_FALSE(chain->append(Vec3(std::nan(""), 0, 0), 1.0).ok());
  auto removed = chain->removeLast();
  REQUIRE(removed.ok());
  CHECK(*removed == 2);
  REQUIRE(chain->removeLast().ok());
  CHECK_THAT(chain->removeLast().error(), Contains("only one"));
}

TEST_CASE("degenerate input gives clear errors", "[chain]") {
  const std::vector<Vec3> line = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  CHECK_THAT(Chain::create({{0, 0, 0}, {1, 0, 0}, {1, 0, 0}, {2, 0, 0}}, 0.1).error(),
             Contains("segment 1 has zero length"));
  CHECK_THAT(Chain::create(line, 0.0).error(), Contains("radius"));
  CHECK_THAT(Chain::create(line, -1.0).error(), Contains("radius"));
  CHECK_THAT(Chain::create(line, std::nan("")).error(), Contains("radius"));
  CHECK_THAT(Chain::create({{0, 0, 0}}, 0.1).error(), Contains("at least 2 points"));
  CHECK_THAT(Chain::create({{0, 0, 0}, {std::nan(""), 0, 0}}, 0.1).error(),
             Contains("point 1 is not finite"));
  // Starts self-intersecting: segment 3 comes back across segment 0.
  CHECK_THAT(Chain::create({{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, -1, 0}}, 0.1).error(),
             Contains("segments 0 and 3 intersect"));
  // Collinear folded back onto itself (a U-turn of zero width): segments 0 and 2 overlap.
  CHECK_THAT(Chain::create({{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1e-3, 0}}, 0.1).error(),
             Contains("segments 0 and 2"));
  auto chain = Chain::create(line, 0.1);
  REQUIRE(chain.ok());
  CHECK_THAT(chain->fold(0, Vec3(0, 0, 1), 1.0).error(), Contains("joint 0 is out of range"));
  CHECK_THAT(chain->fold(3, Vec3(0, 0, 1), 1.0).error(), Contains("joint 3 is out of range"));
  CHECK_THAT(chain->fold(1, Vec3(0, 0, 0), 1.0).error(), Contains("axis has zero length"));
  CHECK_THAT(chain->fold(1, Vec3(std::nan(""), 0, 1), 1.0).error(), Contains("axis is not finite"));
  CHECK_THAT(chain->fold(1, Vec3(0, 0, 1), std::nan("")).error(), Contains("angle is not finite"));
  Settings::Chain bad;
  bad.tolerance = 0.0;
  CHECK_THAT(chain->fold(1, Vec3(0, 0, 1), 1.0, bad).error(), Contains("chain.tolerance"));
  CHECK_THAT(chain->setSegmentLength(5, 1.0).error(), Contains("segment 5 is out of range"));
  CHECK_THAT(chain->setSegmentLength(1, 0.0).error(), Contains("length"));
  // A zero angle is a valid no-op.
  auto zero = chain->fold(1, Vec3(0, 0, 1), 0.0);
  REQUIRE(zero.ok());
  CHECK_FALSE(zero->blocked);
  CHECK(validateChain(line, 0.1));
}

TEST_CASE("max_substeps caps the work and says so", "[chain]") {
  // A fold that grazes for a long time: a long arm sweeping close above a long still segment.
  std::vector<Vec3> p;
  for (int k = 0; k <= 40; ++k) p.push_back(Vec3(k, 0, 0));
  auto chain = Chain::create(p, 0.05);
  REQUIRE(chain.ok());
  Settings::Chain settings;
  settings.maxSubsteps = 10;
  auto r = chain->fold(20, Vec3(0, 1, 0), M_PI, settings);
  REQUIRE(r.ok());
  CHECK(r->status == ChainMotionStatus::MaxSubsteps);
  CHECK(r->blocked);
  CHECK(r->substeps == 10);
  CHECK(r->minGap.value() > -0.01 * 0.05);
}

TEST_CASE("the broad-phase returns exactly the pairs of the all-pairs loop", "[chain]") {
  std::mt19937_64 rng(4242);
  int nonEmpty = 0;
  for (int trial = 0; trial < 60; ++trial) {
    // Random walks (crumpled, many near pairs) and the test families.
    std::vector<Vec3> p;
    const int segments = uniformInt(rng, 3, 400);
    if (trial % 2 == 0) {
      p.push_back(Vec3(0.0));
      for (int k = 0; k < segments; ++k)
        p.push_back(p.back() + chainUnitVector(rng) * uniform(rng, 0.0, 1.5));
    } else {
      p = makeChain(static_cast<ChainFamily>(trial % 3), segments, rng);
    }
    const Real radius = uniform(rng, 0.01, 0.5);
    for (const Real margin : {-0.01, 0.0, 0.1, 1.0}) {
      const auto fast = chainPairsWithin(p, radius, margin);
      const auto slow = chainPairsWithinAllPairs(p, radius, margin);
      REQUIRE(fast.size() == slow.size());
      for (size_t k = 0; k < fast.size(); ++k) {
        CHECK(fast[k].i == slow[k].i);
        CHECK(fast[k].j == slow[k].j);
        CHECK_THAT(fast[k].gap, Catch::WithinAbs(slow[k].gap, 1e-12));
      }
      nonEmpty += fast.empty() ? 0 : 1;
      const auto flags = chainContactFlags(p, radius, margin);
      for (const auto& s : slow) CHECK((flags[s.i] && flags[s.j]));
    }
    const auto closest = chainClosestPair(p, radius);
    if (segments >= 3) {
      REQUIRE(closest.has_value());
      CHECK_THAT(closest->gap, Catch::WithinAbs(bruteMinGap(p, radius), 1e-12));
    }
  }
  CHECK(nonEmpty > 60);  // the mix has pairs to find, not only empty answers
}
