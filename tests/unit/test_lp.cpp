// The vertex LP test (lp.h): exact cases, the article's derived queries, caps, degenerate inputs,
// and agreement with GLPK solving the same LP built independently with its own API.
#include <glpk.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <utility>
#include <vector>

#include "pair_families.h"
#include "test_support.h"
#include "tumble/crosscheck.h"
#include "tumble/lp.h"

using namespace tumble;
using tumble::test::FpTrapsOff;

namespace {

std::vector<Vec3> box(const Vec3& centre, const Vec3& half) {
  std::vector<Vec3> pts;
  for (int i = 0; i < 8; ++i)
    pts.push_back(centre + Vec3{(i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                                (i & 4) ? half.z : -half.z});
  return pts;
}

struct GlpkAnswer {
  bool solved = false;
  Real objective = 0.0;  ///< e^T (b - A x) at GLPK's optimum
};

// Kreuzer's problem P2 built directly with GLPK's API: rows = the normalised coordinates of
// sum(l s) - sum(m t) <= 0 and the two convexity rows <= 1; columns x >= 0; minimise
// -e^T A x (the objective e^T (b - A x) minus the constant e^T b = 2). Same normalisation as the
// engine documents (bounding-box centre, half-extent), computed here on its own.
GlpkAnswer glpkObjective(const std::vector<Vec3>& a, const std::vector<Vec3>& b,
                         bool exact = false) {
  Vec3 lo = a[0], hi = a[0];
  for (const auto* set : {&a, &b})
    for (const Vec3& p : *set) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  const Vec3 c = 0.5 * (lo + hi);
  const Real h = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) * 0.5;
  const int m = static_cast<int>(a.size() + b.size());

  FpTrapsOff traps;
  glp_term_out(GLP_OFF);
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_rows(lp, 5);
  for (int i = 1; i <= 5; ++i) glp_set_row_bnds(lp, i, GLP_UP, 0.0, i <= 3 ? 0.0 : 1.0);
  glp_add_cols(lp, m);
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};
  for (int j = 1; j <= m; ++j) {
    const bool inA = j <= static_cast<int>(a.size());
    const Vec3 p = inA ? a[static_cast<size_t>(j - 1)] : b[static_cast<size_t>(j - 1) - a.size()];
    const Real sign = inA ? 1.0 : -1.0;
    const Vec3 col = sign * ((p - c) / h);
    glp_set_col_bnds(lp, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, j, -(col.x + col.y + col.z + 1.0));
    for (int i = 0; i < 3; ++i) {
      ia.push_back(i + 1);
      ja.push_back(j);
      ar.push_back(col[i]);
    }
    ia.push_back(inA ? 4 : 5);
    ja.push_back(j);
    ar.push_back(1.0);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  GlpkAnswer ans;
  bool ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
  // Near contact GLPK's floating-point simplex can be off by 1e-8; its rational simplex, started
  // from that basis, is exact on the (rounded) data.
  if (ok && exact) ok = glp_exact(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
  if (ok) {
    ans.solved = true;
    ans.objective = 2.0 + glp_get_obj_val(lp);
  }
  glp_delete_prob(lp);
  return ans;
}

Settings::Lp defaults() {
  return Settings{}.lp;
}

// A fuzz finding whose sets intersect: GLPK's rational simplex says so (2 + its optimum -2 rounds
// to 0 or an ulp of 2), and the LP agrees, certified, with either pricing rule and in either order.
void checkFindingIntersects(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  const GlpkAnswer g = glpkObjective(a, b, true);
  REQUIRE(g.solved);
  CHECK(g.objective <= 1e-15);
  for (LpPricing pricing : {LpPricing::DantzigBland, LpPricing::Bland}) {
    LpOptions options;
    options.pricing = pricing;
    const LpResult ab = lpIntersect(a, b, defaults(), options);
    const LpResult ba = lpIntersect(b, a, defaults(), options);
    CAPTURE(static_cast<int>(pricing), ab.objective, ba.objective);
    CHECK(ab.status == LpStatus::Optimal);
    CHECK(ab.certified);
    CHECK(ab.intersect);
    CHECK(ba.intersect);
  }
}

}  // namespace

TEST_CASE("LP: identical, nested, touching and separated boxes", "[lp]") {
  const auto s = defaults();
  const auto unit = box(Vec3{0.0}, Vec3{1.0});
  SECTION("identical sets intersect with a zero objective") {
    LpResult r = lpIntersect(unit, unit, s);
    CHECK(r.status == LpStatus::Optimal);
    CHECK(r.intersect);
    CHECK(r.objective <= s.epsilon);
    CHECK(r.scale == Approx(1.0));
  }
  SECTION("one inside the other") {
    LpResult r = lpIntersect(unit, box(Vec3{0.1, -0.2, 0.3}, Vec3{0.2}), s);
    CHECK(r.intersect);
  }
  SECTION("touching faces, edges and vertices intersect") {
    CHECK(lpIntersect(unit, box(Vec3{2.0, 0.3, -0.4}, Vec3{1.0}), s).intersect);
    CHECK(lpIntersect(unit, box(Vec3{2.0, 2.0, 0.5}, Vec3{1.0}), s).intersect);
    CHECK(lpIntersect(unit, box(Vec3{2.0, 2.0, 2.0}, Vec3{1.0}), s).intersect);
  }
  SECTION("a gap of 1e-6 of the size separates") {
    LpResult r = lpIntersect(unit, box(Vec3{2.0 + 2e-6, 0.3, -0.4}, Vec3{1.0}), s);
    CHECK(r.status == LpStatus::Optimal);
    CHECK_FALSE(r.intersect);
    CHECK(r.objective > s.epsilon);
  }
  SECTION("far offsets and tiny sizes: 1e4 away, 1e-3 large, gap 1e-9 m") {
    const Vec3 o{9876.5, -4321.25, 7777.125};
    const Vec3 half{1e-3, 0.6e-3, 0.8e-3};
    const auto a = box(o, half);
    CHECK_FALSE(lpIntersect(a, box(o + Vec3{2e-3 + 1e-9, 0.0, 0.0}, half), s).intersect);
    CHECK(lpIntersect(a, box(o + Vec3{2e-3 - 1e-9, 1e-4, 0.0}, half), s).intersect);
  }
}

TEST_CASE("LP: the one-point shortcut compares absolute differences", "[lp]") {
  const auto s = defaults();
  const Vec3 p{0.0, 0.0, 0.0}, q{5.0, 5.0, 5.0};
  // The article's signed test ((p - q).x < eps && ...) calls these two points equal.
  LpResult r = lpIntersect(std::span<const Vec3>(&p, 1), std::span<const Vec3>(&q, 1), s);
  CHECK_FALSE(r.intersect);
  CHECK(r.objective == Approx(2.0));
  CHECK_FALSE(lpIntersect(std::span<const Vec3>(&q, 1), std::span<const Vec3>(&p, 1), s).intersect);
  CHECK(lpIntersect(std::span<const Vec3>(&q, 1), std::span<const Vec3>(&q, 1), s).intersect);
  // Relative to the pair's own size, any difference separates two points, even far from the origin.
  const Vec3 far{1e4, -2e4, 3e4}, near = far + Vec3{0.0, 3.637978807091713e-12, 0.0};
  LpResult tiny = lpIntersect(std::span<const Vec3>(&far, 1), std::span<const Vec3>(&near, 1), s);
  CHECK_FALSE(tiny.intersect);
  CHECK(tiny.scale > 0.0);
  CHECK(lpIntersect(std::span<const Vec3>(&far, 1), std::span<const Vec3>(&far, 1), s).intersect);
}

TEST_CASE("LP: point in polytope and polytope subset", "[lp]") {
  const auto s = defaults();
  const auto unit = box(Vec3{0.0}, Vec3{1.0});
  CHECK(lpContainsPoint(unit, Vec3{0.2, -0.5, 0.9}, s).intersect);
  CHECK(lpContainsPoint(unit, Vec3{1.0, 0.3, -0.2}, s).intersect);  // on a face
  CHECK(lpContainsPoint(unit, Vec3{1.0, 1.0, 1.0}, s).intersect);   // a vertex
  CHECK_FALSE(lpContainsPoint(unit, Vec3{1.0 + 1e-7, 0.3, -0.2}, s).intersect);
  CHECK_FALSE(lpContainsPoint(unit, Vec3{1.5, 1.5, 0.0}, s).intersect);

  auto inner = box(Vec3{0.1}, Vec3{0.5});
  LpSubsetResult in = lpSubset(inner, unit, s);
  CHECK(in.subset);
  CHECK_FALSE(in.outside.has_value());
  inner[5] = Vec3{0.2, 1.01, 0.0};
  LpSubsetResult out = lpSubset(inner, unit, s);
  CHECK_FALSE(out.subset);
  REQUIRE(out.outside.has_value());
  CHECK(*out.outside == 5u);
  CHECK(lpSubset({}, unit, s).subset);
  CHECK_FALSE(lpSubset(unit, {}, s).subset);
}

TEST_CASE("LP: empty sets intersect nothing", "[lp]") {
  const auto unit = box(Vec3{0.0}, Vec3{1.0});
  LpResult r = lpIntersect(unit, {}, defaults());
  CHECK_FALSE(r.intersect);
  CHECK(r.objective == Approx(2.0));
  CHECK(r.pivots == 0);
}

TEST_CASE("LP: dimension 2", "[lp]") {
  const auto s = defaults();
  const std::vector<glm::dvec2> sq{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const std::vector<glm::dvec2> tri{{1.5, 0.5}, {3, 0}, {3, 1}};
  const std::vector<glm::dvec2> touching{{1, 0.5}, {3, 0}, {3, 1}};
  const std::vector<glm::dvec2> poking{{0.9, 0.5}, {3, 0}, {3, 1}};
  CHECK_FALSE(lpIntersect2d(sq, tri, s).intersect);
  CHECK(lpIntersect2d(sq, touching, s).intersect);
  CHECK(lpIntersect2d(sq, poking, s).intersect);
  // A segment crossing the square's corner region without touching it.
  const std::vector<glm::dvec2> seg{{1.05, 2.0}, {2.0, 1.05}};
  CHECK_FALSE(lpIntersect2d(sq, seg, s).intersect);
  const std::vector<glm::dvec2> nearMiss{{0.0, 2.000001}, {2.000001, 0.0}};
  CHECK_FALSE(lpIntersect2d(sq, nearMiss, s).intersect);
  const std::vector<glm::dvec2> throughCorner{{0.0, 2.0}, {2.0, 0.0}};
  CHECK(lpIntersect2d(sq, throughCorner, s).intersect);
  const std::vector<glm::dvec2> across{{-0.5, 1.5}, {1.5, -0.5}};
  CHECK(lpIntersect2d(sq, across, s).intersect);
}

TEST_CASE("LP: the pivot cap ends with MaxPivots", "[lp]") {
  auto s = defaults();
  test::PairGenerator gen(7);
  test::ConvexPair p = gen.next(test::ShapeKind::Ellipsoid, test::ShapeKind::Ellipsoid, 64, 64);
  LpResult full = lpIntersect(p.worldA(), p.worldB(), s);
  REQUIRE(full.pivots > 2);
  s.maxPivots = 2;
  LpResult capped = lpIntersect(p.worldA(), p.worldB(), s);
  CHECK(capped.status == LpStatus::MaxPivots);
  CHECK(capped.pivots == 2);
}

TEST_CASE("LP: Bland's rule terminates on degenerate sets", "[lp]") {
  // Many duplicates of coplanar points: every basis is degenerate.
  std::vector<Vec3> square, tri;
  for (int rep = 0; rep < 50; ++rep) {
    for (int i = 0; i < 4; ++i) square.push_back({(i & 1) ? 1.0 : -1.0, (i & 2) ? 1.0 : -1.0, 0.0});
    square.push_back({0.0, 0.0, 0.0});
    tri.push_back({0.0, 0.0, 0.0});
    tri.push_back({2.0, 0.0, 0.0});
    tri.push_back({0.0, 2.0, 0.0});
  }
  std::vector<Vec3> above = tri;
  for (Vec3& p : above) p.z += 0.5;
  for (LpPricing pricing : {LpPricing::Bland, LpPricing::DantzigBland}) {
    LpOptions o;
    o.pricing = pricing;
    LpResult hit = lpIntersect(square, tri, defaults(), o);
    CHECK(hit.status == LpStatus::Optimal);
    CHECK(hit.intersect);
    LpResult miss = lpIntersect(square, above, defaults(), o);
    CHECK(miss.status == LpStatus::Optimal);
    CHECK_FALSE(miss.intersect);
    CHECK(miss.objective == Approx(glpkObjective(square, above).objective).margin(1e-7));
  }
}

TEST_CASE("LP: normalisation makes the answer translation and scale invariant", "[lp]") {
  const auto s = defaults();
  test::PairGenerator gen(11);
  for (int i = 0; i < 200; ++i) {
    test::ConvexPair p = gen.next();
    auto a = p.worldA(), b = p.worldB();
    LpResult r0 = lpIntersect(a, b, s);
    const Vec3 shift{1234.5, -777.0, 42.0};
    const Real k = 1e-2;
    for (Vec3& q : a) q = (q - p.xa.position) * k + shift;
    for (Vec3& q : b) q = (q - p.xa.position) * k + shift;
    LpResult r1 = lpIntersect(a, b, s);
    if (r0.objective > 1e-6) CHECK(r1.objective == Approx(r0.objective).margin(1e-6));
    if (r0.objective > 1e-6 || r0.objective < 1e-12) CHECK(r0.intersect == r1.intersect);
  }
}

TEST_CASE("LP: local points with transforms equal the world-space query", "[lp]") {
  const auto s = defaults();
  test::PairGenerator gen(5);
  for (int i = 0; i < 300; ++i) {
    test::ConvexPair p = gen.next();
    LpResult local = lpIntersect(p.a, p.xa, p.b, p.xb, s);
    LpResult world = lpIntersect(p.worldA(), p.worldB(), s);
    CHECK(local.scale == Approx(world.scale).epsilon(1e-9));
    if (world.objective > 1e-6) {
      CHECK_FALSE(local.intersect);
      CHECK(local.objective == Approx(world.objective).margin(1e-6));
    }
  }
}

TEST_CASE("LP: same verdict and optimum as GLPK on random pairs", "[lp][glpk]") {
  const auto s = defaults();
  test::PairGenerator gen(20261123);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  const int kPairs = 20000;
#else
  const int kPairs = 5000;
#endif
  int intersecting = 0, judged = 0, bothOptimal = 0;
  LpWorkspace ws;
  LpOptions opt;
  opt.workspace = &ws;
  for (int i = 0; i < kPairs; ++i) {
    test::ConvexPair p = gen.next();
    auto a = p.worldA(), b = p.worldB();
    LpResult r = lpIntersect(a, b, s, opt);
    REQUIRE(r.status == LpStatus::Optimal);
    if (a.size() == 1 && b.size() == 1) continue;  // no LP: the shortcut
    GlpkAnswer g = glpkObjective(a, b);
    REQUIRE(g.solved);
    INFO("pair " << i << " " << p.name() << " ours " << r.objective << " glpk " << g.objective);
    if (g.objective > 1e-6) {
      ++judged;
      CHECK_FALSE(r.intersect);
      // Both reached the optimum: the minimum value is unique even where the optimal x is not.
      CHECK(r.objective == Approx(g.objective).margin(1e-7));
      ++bothOptimal;
    } else if (std::abs(g.objective) < 1e-12) {
      ++judged;
      ++intersecting;
      CHECK(r.intersect);
    }
  }
  // Near-touching pairs (objective between 1e-12 and 1e-6) are rare; the mix is representative.
  CHECK(judged > kPairs * 95 / 100);
  CHECK(intersecting > judged * 3 / 10);
  CHECK(intersecting < judged * 7 / 10);
  CHECK(bothOptimal > 0);
}

TEST_CASE("LP: same verdict and optimum as GLPK near contact", "[lp][glpk]") {
  // Pairs moved to gaps of +-1e-7 .. 1e-3 of their size along GJK's closest direction or EPA's
  // normal: degenerate, ill-conditioned LPs, where a simplex code is most likely to go wrong.
  // GLPK's floating-point answers are off by up to ~1e-8 there, so the reference is its exact
  // (rational) simplex.
  const Settings s;
  test::PairGenerator gen(77);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  const int kPairs = 6000;
#else
  const int kPairs = 2000;
#endif
  const Real ks[] = {1e-7, -1e-7, 1e-5, -1e-5, 1e-3, -1e-3};
  int judged = 0;
  for (int i = 0; i < kPairs; ++i) {
    test::ConvexPair p = gen.next();
    SupportShape sa, sb;
    sa.points = p.a;
    sb.points = p.b;
    const CrossCheckResult r0 = crossCheck(sa, p.xa, sb, p.xb, s);
    Vec3 normal;
    Real gap0;
    if (r0.gjkIntersect) {
      normal = r0.epa.normal;
      gap0 = -r0.epa.depth;
    } else {
      if (r0.gjk.distance <= 0.0) continue;
      normal = (r0.gjk.pointB - r0.gjk.pointA) / r0.gjk.distance;
      gap0 = r0.gjk.distance;
    }
    p.xb.position += normal * (ks[i % 6] * p.scale - gap0);
    const auto a = p.worldA(), b = p.worldB();
    if (a.size() == 1 && b.size() == 1) continue;
    const LpResult r = lpIntersect(a, b, s.lp);
    REQUIRE(r.status == LpStatus::Optimal);
    const GlpkAnswer g = glpkObjective(a, b, true);
    REQUIRE(g.solved);
    INFO("pair " << i << " " << p.name() << " ours " << r.objective << " glpk " << g.objective);
    // Verdicts only: with collinear or coplanar data the objective of this LP jumps with the
    // last bit of the input (the inequality rows make the feasible set lower-dimensional), so
    // two correct solvers on data rounded differently can report 1 and 2 for a separated pair.
    if (g.objective > 1e-8) {  // 10 epsilon: ours stops within epsilon / 2 of the minimum
      ++judged;
      CHECK_FALSE(r.intersect);
    } else if (g.objective == 0.0) {  // the rational simplex's zero is exact
      ++judged;
      CHECK(r.intersect);
    }
  }
  CHECK(judged > kPairs * 4 / 10);  // the 1e-7 gaps are mostly too close to judge
}

TEST_CASE("LP: the verdict is read from a freshly factored basis", "[lp][glpk]") {
  // Found by fuzz_narrowphase (tests/fuzz/corpus/narrowphase/regression-lp-drift): A 0.039 m into
  // B, for sets 1024 m across (depth 7.6e-5 h). Dantzig's pivots first pass through a basis with
  // reduced costs of 1e13; the updated x_B then drifted by 5.7e-4, and the test stopped "optimal"
  // and separated at an objective of 5.7e-4 (lp.cpp, run()).
  const std::vector<Vec3> a = {{0.0, 0.0, 40.0},
                               {0.0, 0.0, 0.0},
                               {508.546875, 511.984375, -254.0},
                               {-510.0, -391.453125, -510.625},
                               {-508.015625, -508.0, -511.984375},
                               {-512.0, -512.0, -511.890625},
                               {0.0, 1.0, -512.0},
                               {-512.0, -511.875, -512.0}};
  std::vector<Vec3> b = {{-253.984375, -254.0, 511.984375},
                         {511.984375, -508.015625, -128.0},
                         {-510.5, -71.96875, 511.234375}};
  for (int i = 0; i < 10; ++i) b.push_back(Vec3(-512.0));
  // The second finding (regression-lp-drift-2): B's third point moved, 0.0088 m deep.
  std::vector<Vec3> b2 = b;
  b2[2] = Vec3(-138.5, -71.96875, 511.234375);
  // The third (regression-lp-drift-3): 0.00073 m deep; Bland's rule from the slack basis ends
  // in the same infeasible basis as Dantzig's.
  std::vector<Vec3> b3 = b;
  b3[2] = Vec3(-510.5, -502.734375, 317.71875);
  b3[3] = Vec3(-508.015625, -512.0, -512.0);
  // The fourth (regression-lp-readmit): 0.039 m deep; after the recomputation one more pivot,
  // and the column that had just left was the improving one (kept out, the LP stopped at 5.7e-4).
  std::vector<Vec3> b4 = b;
  b4[1] = Vec3(511.984375, -124.015625, -128.0);
  b4[2] = Vec3(-512.0, -71.96875, 511.234375);
  b4[3] = Vec3(-509.546875, -512.0, -512.0);
  for (int i = 0; i < 3; ++i) b4.push_back(Vec3(-512.0));
  const std::vector<Vec3>* findings[] = {&b, &b2, &b3, &b4};
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    checkFindingIntersects(a, *findings[k]);
  }
}

TEST_CASE("LP: basic values are refined against the columns", "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-refine): 1.3e-4 m deep for sets 1024 m across
  // (2.5e-7 of their size, just past the cross-check band). The last pivot is 1e-6, so x_B =
  // B^-1 b is off by about 1e-9 (epsilon): the basis proved "infeasible" and the LP said
  // separated at an objective of 1.16e-9. One step of iterative refinement at each
  // refactorisation recovers x_B.
  const Vec3 s{-512.0, -512.0, -512.0};
  const std::vector<Vec3> a = {{508.25, -510.4375, -512.0},           {-512.0, -512.0, 511.953125},
                               {511.984375, 511.984375, -510.515625}, s,
                               {-512.0, 131.84375, -511.734375},      s};
  const std::vector<Vec3> b = {
      {-509.0625, 132.0, -511.734375}, s, {146.0, -511.296875, -512.0}, s, s, s, s, s, s};
  checkFindingIntersects(a, b);
}

TEST_CASE("LP: 'separated' is said only with a plane that separates the points", "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-certificate): 0.039 m deep for sets 1024 m across.
  // The final basis holds two pairs of near-duplicate points (condition about 1e13); a basic
  // column's reduced cost, which pricing never looks at, read -7.8e-4, and the LP stopped
  // "optimal" at 5.7e-4. The duals' plane, checked against the points, does not separate them.
  const std::vector<Vec3> a = {{0.0, 0.0, 40.0},
                               {0.0, 0.0, 0.0},
                               {508.546875, 511.984375, -254.0},
                               {-510.0, -391.453125, -510.625},
                               {-508.515625, -508.0, -511.984375},
                               {-512.0, -512.0, -511.890625},
                               {0.0, 1.0, -512.0},
                               {-512.0, -511.875, -512.0}};
  std::vector<Vec3> b = {{-253.984375, -254.0, 511.984375},
                         {511.984375, -508.015625, -228.0},
                         {-512.0, -72.0, 511.234375},
                         {-509.546875, -512.0, -512.0}};
  for (int i = 0; i < 12; ++i) b.push_back(Vec3(-512.0));
  checkFindingIntersects(a, b);
}

TEST_CASE("LP: a verdict double precision cannot back is found again in long double",
          "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-precise): 0.795 m deep for sets 1024 m across. In
  // double precision both pricing rules end "separated" at 2.4e-7 without a separating plane;
  // the long double run finds the intersection.
  const std::vector<Vec3> a = {{0.0, 0.0, 40.0625},
                               {0.0, 0.0, 0.0},
                               {508.546875, 511.984375, -254.0},
                               {-510.0, -391.453125, -510.625},
                               {-508.015625, -508.0, -511.984375},
                               {-512.0, -512.0, -511.984375},
                               {1.0, 1.0, -512.0},
                               {-512.0, -239.875, -512.0}};
  const std::vector<Vec3> b = {
      {-253.984375, -254.0, 511.984375}, {511.984375, -124.015625, -503.984375},
      {317.71875, -222.875, -512.0},     {-512.0, -512.0, -512.0},
      {-512.0, -512.0, -512.0},          {-512.0, -512.0, -512.0},
      {-512.0, -512.0, -512.0},          {-512.0, -512.0, -512.0},
      {-512.0, -512.0, -512.0},          {-512.0, -512.0, -512.0},
      {-512.0, -512.0, -512.0},          {-224.0, -222.875, -350.875},
      {-512.0, -512.0, -512.0},          {-512.0, -512.0, 116.765625},
      {-512.0, -512.0, -512.0},          {-512.0, -512.0, -512.0}};
  checkFindingIntersects(a, b);
}

TEST_CASE("LP: without a certificate in long double the swapped problem is solved", "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-swapped): 49 m deep for sets 1024 m across. Double
  // and long double both end 1.25e-9 above epsilon with no separating plane; with B's columns
  // first the pivots take another path and find the intersection.
  const std::vector<Vec3> a = {{0.0, 0.0, 56.0625},
                               {0.0, 0.0, 0.0},
                               {508.546875, 511.984375, -254.0},
                               {-510.0, -391.453125, -510.625},
                               {-508.015625, -508.0, -367.25},
                               {-512.0, -512.0, -511.984375},
                               {1.0, 1.0, -512.0},
                               {-512.0, -239.875, -512.0}};
  const std::vector<Vec3> b = {{-253.984375, -254.0, 511.984375},
                               {511.984375, -508.015625, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0},
                               {-512.0, -128.0, 364.015625},
                               {367.421875, 367.421875, 367.421875},
                               {367.421875, 367.421875, 367.421875}};
  checkFindingIntersects(a, b);
}

TEST_CASE("LP: the pivot cap covers the runs after an uncertified one", "[lp]") {
  // Found by fuzz_narrowphase (regression-lp-cap): with the cap at 8 the first run stopped
  // uncertified after 8 pivots and the long double run was given 1 more; and when the cap ends
  // the search for a certified verdict, the status says so.
  const std::vector<Vec3> a = {{-512.0, -512.0, -512.0},
                               {130.0, -479.921875, -479.875},
                               {508.0, 511.984375, 511.984375},
                               {-508.015625, -512.0, -441.484375},
                               {-423.65625, -423.65625, -423.65625},
                               {-423.65625, -423.65625, -423.65625},
                               {-423.65625, -423.65625, -423.65625},
                               {128.34375, -479.921875, -479.875},
                               {508.0, -420.015625, -423.65625}};
  const std::vector<Vec3> b = {{-423.65625, -423.65625, -423.65625}};
  for (int cap = 1; cap <= 40; ++cap) {
    Settings::Lp settings = defaults();
    settings.maxPivots = cap;
    for (LpPricing pricing : {LpPricing::DantzigBland, LpPricing::Bland}) {
      LpOptions options;
      options.pricing = pricing;
      CAPTURE(cap, static_cast<int>(pricing));
      for (const LpResult& r :
           {lpIntersect(a, b, settings, options), lpIntersect(b, a, settings, options)}) {
        CHECK(r.pivots <= cap);
        // 0.00095 m deep: a "separated" verdict may only come with the cap's status
        if (!r.intersect) CHECK(r.status == LpStatus::MaxPivots);
      }
    }
  }
}

TEST_CASE("LP: a verdict no run can certify is marked uncertified", "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-uncertified-*): 0.031 and 10.7 m deep for sets
  // 1024 m across. Double, long double and the swapped problem all end 1.1-1.3e-9 above epsilon
  // without a separating plane. Not solved: the LP says so instead of a bare "separated".
  const std::vector<std::pair<std::vector<Vec3>, std::vector<Vec3>>> pairs = {
      {{{-509.96875, 511.984375, 511.96875},
        {511.984375, 511.984375, -256.015625},
        {511.984375, 511.953125, 510.125},
        {511.953125, 511.984375, 511.984375},
        {511.984375, 511.984375, 511.984375}},
       {{511.96875, 511.984375, 511.984375},
        {511.96875, 511.96875, 511.984375},
        {511.984375, 511.984375, -256.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0}}},
      {{{0.0, 0.0, 40.0},
        {0.0, 0.0, -259.9375},
        {108.546875, 511.984375, -254.0},
        {110.0, 511.984375, -254.0},
        {-510.0, -391.453125, -510.625},
        {-508.015625, -508.0, -511.984375},
        {-512.0, 508.0, -500.0},
        {0.0, 0.0, 40.0}},
       {{0.0, 0.0, -259.9375},
        {108.546875, 511.984375, -254.0},
        {110.0, 511.984375, -254.0},
        {-510.0, -391.453125, -510.625},
        {-508.015625, -508.0, -511.984375},
        {-512.0, -512.0, -511.890625},
        {0.0, 1.0, -348.0},
        {-512.0, -511.875, -512.0},
        {511.984375, 511.984375, -124.015625},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -512.0},
        {-512.0, -512.0, -511.890625},
        {0.0, 1.0, -348.0}}},
  };
  for (const auto& [a, b] : pairs) {
    const GlpkAnswer g = glpkObjective(a, b, true);
    REQUIRE(g.solved);
    CHECK(g.objective <= 1e-15);  // GLPK's rational simplex: they intersect
    const LpResult r = lpIntersect(a, b, defaults());
    CAPTURE(r.objective);
    CHECK((r.intersect || !r.certified));
  }
}

TEST_CASE("LP: an uncertified residual is reported within the objective's range", "[lp]") {
  // Found by fuzz_narrowphase in CI (regression-lp-range): separated by 2.5 m (GJK); the drifted
  // basic values had a residual of 7.1, which was reported as the objective (its range is [0, 2]).
  const std::vector<Vec3> a = {{0.0, -483.890625, -511.984375}, {-512.0, -510.0, -510.0},
                               {-254.0, 511.96875, 511.984375}, {-7.0, -511.046875, -512.0},
                               {-350.0, -351.375, -351.375},    {2.0, -510.5, -512.0},
                               {0.0, -512.0, -512.0},           {-266.03125, -512.0, -512.0}};
  const std::vector<Vec3> b = {{-512.0, -512.0, -512.0}, {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0}, {-512.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0}, {-484.0, -512.0, -512.0},
                               {-512.0, -512.0, -512.0}, {-512.0, -512.0, -512.0}};
  for (LpPricing pricing : {LpPricing::DantzigBland, LpPricing::Bland}) {
    LpOptions options;
    options.pricing = pricing;
    for (const LpResult& r :
         {lpIntersect(a, b, defaults(), options), lpIntersect(b, a, defaults(), options)}) {
      CAPTURE(static_cast<int>(pricing), r.objective);
      CHECK_FALSE(r.intersect);
      CHECK(r.objective >= 0.0);
      CHECK(r.objective <= 2.0);
    }
  }
}

TEST_CASE("LP: 'intersect' is said only of a point whose residual is within epsilon",
          "[lp][glpk]") {
  // Found by fuzz_narrowphase (regression-lp-residual): B is one point, at least 0.24 m outside
  // A (exact arithmetic; GJK: 1.62 m). A 1.9e-9 pivot made the basis' condition 1e15; its
  // recomputed slacks summed to 5e-17 and the LP said "intersect". The residual b - A x from the
  // columns themselves is large there: no certificate, solved again in long double.
  const std::vector<Vec3> a = {{0.0, -483.890625, -511.984375}, {-512.0, -510.0, -510.0},
                               {-254.0, 511.96875, 511.984375}, {1.0, -412.0, -510.0},
                               {-350.0, -351.375, -351.375},    {2.0, -510.5, -512.0},
                               {0.0, -512.0, -512.0},           {-510.03125, -512.0, -512.0}};
  const std::vector<Vec3> b(8, Vec3(-512.0));
  const GlpkAnswer g = glpkObjective(a, b, true);
  REQUIRE(g.solved);
  CHECK(g.objective > 1e-3);  // GLPK's rational simplex: separated
  for (LpPricing pricing : {LpPricing::DantzigBland, LpPricing::Bland}) {
    LpOptions options;
    options.pricing = pricing;
    const LpResult ab = lpIntersect(a, b, defaults(), options);
    const LpResult ba = lpIntersect(b, a, defaults(), options);
    CAPTURE(static_cast<int>(pricing), ab.objective, ba.objective);
    CHECK_FALSE(ab.intersect);
    CHECK_FALSE(ba.intersect);
    CHECK(ab.objective == Approx(g.objective).epsilon(1e-6));
  }
}
