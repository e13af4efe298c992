// The cross-check (crosscheck.h): GJK/EPA and the LP test agree on random pairs of every family
// outside the tolerance band, on the sample pairs against their Qhull truth, and on analytic cases.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus.h"
#include "pair_families.h"
#include "shapes.h"
#include "tumble/crosscheck.h"

using namespace tumble;
using tumble::test::boxCorners;

namespace {

// Pairs in the property test: 100,000 in optimised builds (the release ctest); Debug and sanitizer
// builds of the same code run a prefix of the same sequence to stay within seconds. The
// environment variable TUMBLE_CROSSCHECK_PAIRS overrides the count.
int pairCount() {
  if (const char* env = std::getenv("TUMBLE_CROSSCHECK_PAIRS")) return std::max(1, std::atoi(env));
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  return 100000;
#else
  return 20000;
#endif
}

}  // namespace

TEST_CASE("Cross-check: the band", "[crosscheck]") {
  Settings s;
  // 32 sqrt(3) sqrt(eps) = 32 sqrt(3) 2^-26 wins with the defaults (100 gjk.tolerance = 1e-8).
  CHECK(crossCheckBand(1.0, s) == Approx(32.0 * std::sqrt(3.0) / 67108864.0));
  s.lp.epsilon = 1e-6;
  CHECK(crossCheckBand(2.0, s) == Approx(2.0 * 2.0 * std::sqrt(3.0) * 1e-6));
  s.lp.epsilon = 1e-15;
  s.gjk.tolerance = 1e-4;
  CHECK(crossCheckBand(3.0, s) == Approx(3e-2));
}

TEST_CASE("Cross-check: GJK's floor on slivers sharing a vertex is inside the band",
          "[crosscheck]") {
  // fuzz_narrowphase (regression-gjk-band): touching sets 1024 m across, GJK stops at 2.4e-4 m,
  // 2.4e-7 of its simplex's |w| = 1024 m but 4.8e-7 of h = 512 m, outside the band of 16 sqrt(eps)
  // h it had then. The LP finds them touching.
  const auto [a, b, fuzzSettings] = test::narrowphaseCase("regression-gjk-band");
  const CrossCheckResult r = crossCheck(a, b, Settings{});
  CHECK(r.lp.intersect);
  CHECK(r.gjkMeasure <= 1e-6 * r.lp.scale);  // GJK's floor, a few sqrt(eps) |w|
  CHECK(r.agree);
}

TEST_CASE("Cross-check: analytic boxes", "[crosscheck]") {
  const Settings s;
  const auto a = boxCorners(Vec3{1.0});
  SECTION("separated along x by 0.25") {
    CrossCheckResult r = crossCheck(a, boxCorners(Vec3{1.0}, Vec3{2.25, 0.5, -0.3}), s);
    CHECK_FALSE(r.gjkIntersect);
    CHECK_FALSE(r.lp.intersect);
    CHECK(r.gjkMeasure == Approx(0.25).epsilon(1e-9));
    CHECK(r.agree);
    CHECK_FALSE(r.epaRan);
  }
  SECTION("overlapping by 0.125 along y") {
    CrossCheckResult r = crossCheck(a, boxCorners(Vec3{1.0}, Vec3{0.2, 1.875, 0.1}), s);
    CHECK(r.gjkIntersect);
    CHECK(r.lp.intersect);
    CHECK(r.epaRan);
    CHECK(r.gjkMeasure == Approx(0.125).epsilon(1e-6));
    CHECK(r.agree);
  }
  SECTION("far from the origin and small") {
    const Vec3 o{-8765.4321, 1234.5678, 9999.0};
    const auto small = boxCorners(Vec3{1e-3}, o);
    CrossCheckResult hit =
        crossCheck(small, boxCorners(Vec3{1e-3}, o + Vec3{1.9e-3, 0.0, 1e-4}), s);
    CHECK(hit.gjkIntersect);
    CHECK(hit.lp.intersect);
    CHECK(hit.gjkMeasure == Approx(1e-4).epsilon(1e-4));
    CrossCheckResult miss =
        crossCheck(small, boxCorners(Vec3{1e-3}, o + Vec3{2.1e-3, 0.0, 1e-4}), s);
    CHECK_FALSE(miss.gjkIntersect);
    CHECK_FALSE(miss.lp.intersect);
    CHECK(miss.gjkMeasure == Approx(1e-4).epsilon(1e-6));
  }
  SECTION("a disagreement outside the band is reported") {
    // Force the LP to stop after one pivot: it cannot have reached the zero on a deep overlap.
    Settings capped = s;
    capped.lp.maxPivots = 1;
    CrossCheckResult r = crossCheck(a, boxCorners(Vec3{1.0}, Vec3{0.3, 0.2, 0.1}), capped);
    CHECK(r.gjkIntersect);
    CHECK(r.lpCapped());
    CHECK_FALSE(r.lp.intersect);
    CHECK_FALSE(r.agree);
  }
}

TEST_CASE("Cross-check: GJK and LP agree on random pairs of every family", "[crosscheck]") {
  const Settings s;
  const int n = pairCount();
  test::PairGenerator gen(0x7475'6d62'6c65ull);
  int intersecting = 0, inBand = 0, disagreeing = 0, capped = 0;
  std::array<int, test::kShapeKindCount> kindSeen{};
  CrossCheckLog log;
  for (int i = 0; i < n; ++i) {
    test::ConvexPair p = gen.next();
    ++kindSeen[static_cast<size_t>(p.kindA)];
    SupportShape sa, sb;
    sa.points = p.a;
    sb.points = p.b;
    CrossCheckResult r = crossCheck(sa, p.xa, sb, p.xb, s);
    log.record(p.name(), sa, p.xa, sb, p.xb, r);
    if (r.gjkCapped() || r.lpCapped()) ++capped;
    if (r.gjkMeasure <= r.band) {
      ++inBand;
      continue;
    }
    if (r.gjkIntersect) ++intersecting;
    if (r.gjkIntersect != r.lp.intersect) {
      ++disagreeing;
      // At most a handful are printed in full by Catch; the count is asserted below.
      if (disagreeing <= 5) {
        INFO("pair " << i << " " << p.name() << " gjk " << r.gjkIntersect << " measure "
                     << r.gjkMeasure << " band " << r.band << " lp objective " << r.lp.objective
                     << " pivots " << r.lp.pivots);
        CHECK(r.gjkIntersect == r.lp.intersect);
      }
    }
  }
  const int judged = n - inBand;
  INFO("pairs " << n << ", in band " << inBand << ", intersecting " << intersecting << ", capped "
                << capped);
  CHECK(disagreeing == 0);
  CHECK(log.checked() == n);
  CHECK(log.disagreed() == disagreeing);
  CHECK(capped == 0);
  CHECK(inBand < n / 100);
  CHECK(intersecting > judged * 3 / 10);
  CHECK(intersecting < judged * 7 / 10);
  for (int seen : kindSeen) CHECK(seen > 0);
}

TEST_CASE("Cross-check: agreement near contact", "[crosscheck]") {
  // Each pair is moved along GJK's closest direction (separated) or EPA's normal (overlapping) to
  // a signed gap g = k * scale, k in +-{1e-6, 1e-5, 1e-3}: gaps just outside the band (8.3e-7
  // scale), where the two methods are most likely to part ways.
  const Settings s;
  const int n = std::max(1, pairCount() / 10);
  test::PairGenerator gen(99);
  const Real ks[] = {1e-6, -1e-6, 1e-5, -1e-5, 1e-3, -1e-3};
  int checked = 0, disagreeing = 0, wrongSide = 0;
  std::string wrongNames;
  for (int i = 0; i < n; ++i) {
    test::ConvexPair p = gen.next();
    SupportShape sa, sb;
    sa.points = p.a;
    sb.points = p.b;
    const CrossCheckResult r0 = crossCheck(sa, p.xa, sb, p.xb, s);
    Vec3 normal;  // moving B along +normal increases the gap
    Real gap0;
    if (r0.gjkIntersect) {
      normal = r0.epa.normal;
      gap0 = -r0.epa.depth;
    } else {
      if (r0.gjk.distance <= 0.0) continue;
      normal = (r0.gjk.pointB - r0.gjk.pointA) / r0.gjk.distance;
      gap0 = r0.gjk.distance;
    }
    const Real k = ks[i % 6];
    const Real g = k * p.scale;
    Transform xb = p.xb;
    xb.position += normal * (g - gap0);
    const CrossCheckResult r = crossCheck(sa, p.xa, sb, xb, s);
    ++checked;
    if (!r.agree) {
      ++disagreeing;
      if (disagreeing <= 5) {
        INFO("pair " << i << " " << p.name() << " k " << k << " gjk " << r.gjkIntersect << " "
                     << r.gjkMeasure << " band " << r.band << " lp " << r.lp.intersect << " "
                     << r.lp.objective);
        CHECK(r.agree);
      }
    }
    // Moving to a positive gap along the closest direction or the penetration normal separates
    // by exactly g. (A negative one need not overlap: past a sharp vertex or a thin A - B the
    // origin can leave A - B again, so only agreement is asserted there.)
    if (k >= 1e-5 && r.gjkIntersect) {
      ++wrongSide;
      if (wrongNames.size() < 2000) wrongNames += p.name() + " ";
    }
  }
  INFO("checked " << checked << ", disagreeing " << disagreeing << ", wrong side " << wrongSide
                  << ": " << wrongNames);
  CHECK(disagreeing == 0);
  CHECK(wrongSide == 0);
}

TEST_CASE("Cross-check: the sample pairs against their Qhull truth", "[crosscheck]") {
  const Settings s;
  std::ifstream in(TUMBLE_SOURCE_DIR "/tests/data/pairs_sample.jsonl");
  REQUIRE(in.good());
  std::string line;
  int lines = 0, judged = 0;
  while (std::getline(in, line)) {
    ++lines;
    const auto j = nlohmann::json::parse(line);
    std::vector<Vec3> a, b;
    for (const auto& p : j.at("a"))
      a.push_back({p[0].get<Real>(), p[1].get<Real>(), p[2].get<Real>()});
    for (const auto& p : j.at("b"))
      b.push_back({p[0].get<Real>(), p[1].get<Real>(), p[2].get<Real>()});
    const auto& truth = j.at("truth");
    const bool hit = truth.at("intersect").get<bool>();
    const Real measure = truth.at(hit ? "depth" : "distance").get<Real>();
    const Real scale = truth.at("scale").get<Real>();
    CrossCheckResult r = crossCheck(a, b, s);
    INFO(j.at("id").get<std::string>()
         << " truth " << hit << " " << measure << " gjk " << r.gjkIntersect << " " << r.gjkMeasure
         << " lp " << r.lp.intersect << " " << r.lp.objective);
    CHECK(r.agree);
    CHECK_FALSE(r.gjkCapped());
    CHECK_FALSE(r.lpCapped());
    if (measure <= 1e-3 * scale) continue;  // too close to touching to judge (cases/README.md)
    ++judged;
    CHECK(r.lp.intersect == hit);
    CHECK(r.gjkIntersect == hit);
    CHECK(r.gjkMeasure == Approx(measure).epsilon(1e-6).margin(1e-9 * scale));
  }
  CHECK(lines == 60);
  CHECK(judged > 40);
}
