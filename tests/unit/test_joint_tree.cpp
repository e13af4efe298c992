// The exact solve of acyclic joint groups (dynamics/joint_tree.h) against a dense solve of
// K = J M^-1 J^T built row by row: random forests with joints to the world, groups with loops left
// out, and redundant rows; and the list of jointed bodies kept from colliding.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "dynamics/joint_solver.h"
#include "dynamics/joint_tree.h"
#include "world_fixtures.h"

using namespace tumble;

namespace {

struct Problem {
  std::vector<SolverBody> bodies;  // 0: immovable
  std::vector<JointTree::Link> links;
  std::vector<JointTree::Rows> rows;  // per link
};

Problem randomForest(std::mt19937& rng, int bodies, Real worldChance, bool star = false) {
  std::uniform_real_distribution<Real> u(-1.0, 1.0), pos(0.5, 2.0);
  Problem p;
  p.bodies.resize(bodies + 1);
  for (int i = 1; i <= bodies; ++i) {
    SolverBody& b = p.bodies[i];
    b.invMass = 1.0 / (pos(rng) * (i % 7 == 0 ? 50.0 : 1.0));  // some heavy bodies
    Mat3 a(0.0);
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) a[c][r] = u(rng);
    b.invI = a * glm::transpose(a) + Mat3(0.2);  // symmetric positive definite
    b.body = i;
  }
  // Body i joins an earlier body or, at random, the world; each body at most one world joint of
  // three rows and one joint to its parent of three rows, so J has full row rank.
  auto addLink = [&](int joint, int a, int b) {
    p.links.push_back({joint, a, b});
    JointTree::Rows r;
    r.m = 3;
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < 6; ++i) {
        r.a[k][i] = a > 0 ? u(rng) : 0.0;
        r.b[k][i] = u(rng);
      }
    p.rows.push_back(r);
  };
  for (int i = 1; i <= bodies; ++i) {
    const bool toWorld =
        i == 1 || std::uniform_real_distribution<Real>(0.0, 1.0)(rng) < worldChance;
    if (i > 1) {
      std::uniform_int_distribution<int> pick(1, i - 1);
      const int parent = star ? 1 : pick(rng);
      if (i % 2 == 0)
        addLink(static_cast<int>(p.links.size()), parent, i);
      else  // the other way round: the tree must not depend on which side is a
        addLink(static_cast<int>(p.links.size()), i, parent);
    }
    if (toWorld) addLink(static_cast<int>(p.links.size()), 0, i);
  }
  return p;
}

// Dense K = J M^-1 J^T over the rows of `links` (in the tree's entry order), with the solver's
// mixing on the diagonal or without.
std::vector<std::vector<Real>> denseK(const Problem& p, const JointTree& tree, bool mixing) {
  const int n = tree.size();
  std::vector<std::vector<Real>> K(3 * n, std::vector<Real>(3 * n, 0.0));
  auto apply = [&](const SolverBody& b, const Real* row, Real* out) {  // M^-1 row
    for (int i = 0; i < 3; ++i) out[i] = b.invMass * row[i];
    const Vec3 w = b.invI * Vec3(row[3], row[4], row[5]);
    for (int i = 0; i < 3; ++i) out[3 + i] = w[i];
  };
  for (int e = 0; e < n; ++e)
    for (int f = 0; f < n; ++f) {
      const JointTree::Link& le = p.links[tree.joint(e)];
      const JointTree::Link& lf = p.links[tree.joint(f)];
      const JointTree::Rows& re = p.rows[tree.joint(e)];
      const JointTree::Rows& rf = p.rows[tree.joint(f)];
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) {
          Real sum = 0.0;
          const int be[2] = {le.a, le.b}, bf[2] = {lf.a, lf.b};
          for (int s = 0; s < 2; ++s)
            for (int t = 0; t < 2; ++t) {
              if (be[s] == 0 || be[s] != bf[t]) continue;
              Real m[6];
              apply(p.bodies[be[s]], t == 0 ? rf.a[l] : rf.b[l], m);
              const Real* row = s == 0 ? re.a[k] : re.b[k];
              for (int i = 0; i < 6; ++i) sum += row[i] * m[i];
            }
          K[3 * e + k][3 * f + l] = sum;
        }
    }
  if (mixing)  // the solver's constraint force mixing: each row's own J M^-1 J^T times kMixing
    for (int e = 0; e < n; ++e) {
      const JointTree::Link& le = p.links[tree.joint(e)];
      const JointTree::Rows& re = p.rows[tree.joint(e)];
      for (int k = 0; k < 3; ++k) {
        Real own = 0.0;
        for (int s = 0; s < 2; ++s) {
          const int body = s == 0 ? le.a : le.b;
          if (body == 0) continue;
          const Real* row = s == 0 ? re.a[k] : re.b[k];
          Real m[6];
          apply(p.bodies[body], row, m);
          for (int i = 0; i < 6; ++i) own += row[i] * m[i];
        }
        K[3 * e + k][3 * e + k] += JointTree::kMixing * own;
      }
    }
  return K;
}

// Gaussian elimination with partial pivoting.
std::vector<Real> denseSolve(std::vector<std::vector<Real>> K, std::vector<Real> r) {
  const int n = static_cast<int>(r.size());
  for (int c = 0; c < n; ++c) {
    int best = c;
    for (int i = c + 1; i < n; ++i)
      if (std::abs(K[i][c]) > std::abs(K[best][c])) best = i;
    std::swap(K[c], K[best]);
    std::swap(r[c], r[best]);
    for (int i = c + 1; i < n; ++i) {
      const Real f = K[i][c] / K[c][c];
      for (int j = c; j < n; ++j) K[i][j] -= f * K[c][j];
      r[i] -= f * r[c];
    }
  }
  std::vector<Real> x(n);
  for (int i = n - 1; i >= 0; --i) {
    Real s = r[i];
    for (int j = i + 1; j < n; ++j) s -= K[i][j] * x[j];
    x[i] = s / K[i][i];
  }
  return x;
}

JointTree buildTree(const Problem& p, int bodies) {
  JointTree tree;
  tree.setPairs(true);
  std::vector<char> movable(bodies + 1, 1);
  movable[0] = 0;
  tree.build(p.links, movable);
  return tree;
}

}  // namespace

TEST_CASE("The tree solve of joint groups agrees with a dense solve of K", "[joints][tree]") {
  std::mt19937 rng(15);
  int withWorld = 0, checked = 0, withPairs = 0;
  for (int trial = 0; trial < 40; ++trial) {
    // (the last: a star, one body with 24 joints, whose pairs go as their square)
    const bool star = trial == 39;
    const int bodies = star ? 25 : 1 + trial * 3;
    Problem p = randomForest(rng, bodies, trial % 3 == 0 ? 0.0 : 0.3, star);
    JointTree tree = buildTree(p, bodies);
    // A forest: every joint is kept, each once.
    REQUIRE(tree.size() == static_cast<int>(p.links.size()));
    std::vector<int> seen(p.links.size(), 0);
    for (int e = 0; e < tree.size(); ++e) ++seen[tree.joint(e)];
    CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
    for (int e = 0; e < tree.size(); ++e) {
      tree.rows(e) = p.rows[tree.joint(e)];
      withWorld += p.links[tree.joint(e)].a == 0 ? 1 : 0;
    }
    tree.factor(p.bodies);
    const int n = tree.size();
    std::vector<Real> r(6 * static_cast<size_t>(n), 0.0), flat(3 * static_cast<size_t>(n));
    std::uniform_real_distribution<Real> u(-1.0, 1.0);
    for (int e = 0; e < n; ++e)
      for (int k = 0; k < 3; ++k) flat[3 * e + k] = r[6 * e + k] = u(rng);
    const auto K = denseK(p, tree, true);
    const std::vector<Real> want = denseSolve(K, flat);
    tree.solve(r);
    Real scale = 0.0, worst = 0.0;
    for (int e = 0; e < n; ++e)
      for (int k = 0; k < 3; ++k) {
        scale = std::max(scale, std::abs(want[3 * e + k]));
        worst = std::max(worst, std::abs(r[6 * e + k] - want[3 * e + k]));
      }
    INFO("trial " << trial << ", " << n << " joints: worst difference " << worst << " of "
                  << scale);
    CHECK(worst <= 1e-9 * std::max(1.0, scale));
    // solveWith (the joints' passes): right-hand sides given entry by entry, solutions handed
    // back entry by entry; the pairs' products where the tree has few pairs.
    std::vector<Real> r2(6 * static_cast<size_t>(n), 0.0), got(3 * static_cast<size_t>(n), 0.0);
    std::vector<int> order;
    tree.solveWith(
        r2, [&](int e, Real* y) { std::copy_n(&flat[3 * static_cast<size_t>(e)], 3, y); },
        [&](int e, const Real* x) {
          order.push_back(e);
          std::copy_n(x, 3, &got[3 * static_cast<size_t>(e)]);
        });
    Real worstWith = 0.0;
    for (int i = 0; i < 3 * n; ++i) worstWith = std::max(worstWith, std::abs(got[i] - want[i]));
    INFO("solveWith (" << (tree.usesPairs() ? "pairs" : "sums") << "): worst difference "
                       << worstWith);
    CHECK(worstWith <= 1e-9 * std::max(1.0, scale));
    CHECK(static_cast<int>(order.size()) == n);
    CHECK(std::is_sorted(order.rbegin(), order.rend()));  // each once, the last entry first
    withPairs += tree.usesPairs() ? 1 : 0;
    ++checked;
  }
  CHECK(checked == 40);
  // Random forests have few pairs; the star takes the sums.
  CHECK(withPairs == checked - 1);
  CHECK(withWorld > 40);  // the mix has many joints to the world besides each group's first
}

TEST_CASE("forwardGroup's half substitutions give a^T K^-1 b, reaching only the paths to the root",
          "[joints][tree]") {
  // The closing joints' Schur complement (JointSet::factorClosure) sums (L^-1 a) . (D^-1 L^-1 b)
  // over the entries forwardGroup reaches from right-hand sides on one or two entries.
  std::mt19937 rng(23);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  int checked = 0, partial = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int bodies = 2 + trial * 2;
    Problem p = randomForest(rng, bodies, trial % 2 == 0 ? 0.0 : 0.25);
    JointTree tree = buildTree(p, bodies);
    for (int e = 0; e < tree.size(); ++e) tree.rows(e) = p.rows[tree.joint(e)];
    tree.factor(p.bodies);
    const int n = tree.size();
    const auto K = denseK(p, tree, true);
    for (int draw = 0; draw < 5 * tree.groupCount(); ++draw) {
      const int g = draw % tree.groupCount();
      const auto [first, last] = tree.groupEntries(g);
      std::uniform_int_distribution<int> pick(first, last - 1);
      // a on one entry of the group, b on one or two.
      const int ea = pick(rng), eb = pick(rng), eb2 = pick(rng);
      std::vector<Real> a(6 * static_cast<size_t>(n), 0.0), b = a, flatA(3 * n, 0.0), flatB = flatA;
      for (int k = 0; k < 3; ++k) {
        flatA[3 * ea + k] = a[6 * ea + k] = u(rng);
        flatB[3 * eb + k] = b[6 * eb + k] = u(rng);
        flatB[3 * eb2 + k] = b[6 * eb2 + k] += u(rng);
      }
      const std::vector<Real> x = denseSolve(K, flatB);
      Real want = 0.0, scale = 0.0;
      for (int i = 0; i < 3 * n; ++i) {
        want += flatA[i] * x[i];
        scale = std::max(scale, std::abs(flatA[i] * x[i]));
      }
      std::vector<Real> yhatA(a.size(), 7.0), yhatB(b.size(), 7.0);
      std::vector<int> reachedA, reachedB;
      tree.forwardGroup(g, a, yhatA, reachedA);
      tree.forwardGroup(g, b, yhatB, reachedB);
      // The sum over the entries both reached (elsewhere one of the two is zero).
      Real got = 0.0;
      for (int e : reachedA)
        if (std::find(reachedB.begin(), reachedB.end(), e) != reachedB.end())
          for (int k = 0; k < 3; ++k) got += yhatA[6 * e + k] * b[6 * e + k];
      INFO("trial " << trial << ", group " << g << " (" << last - first << " joints): a^T K^-1 b "
                    << got << ", dense " << want);
      CHECK(std::abs(got - want) <= 1e-9 * std::max(1.0, scale));
      // Reached: the right-hand side's entries first of all, in elimination order, within the
      // group; the others untouched (r as given, yhat zero).
      for (const auto* reached : {&reachedA, &reachedB}) {
        CHECK(std::is_sorted(reached->begin(), reached->end()));
        for (int e : *reached) CHECK((e >= first && e < last));
      }
      CHECK((!reachedA.empty() && reachedA.front() == ea));
      CHECK((!reachedB.empty() && reachedB.front() == std::min(eb, eb2)));
      for (int e = first; e < last; ++e)
        if (std::find(reachedA.begin(), reachedA.end(), e) == reachedA.end())
          for (int k = 0; k < 6; ++k) {
            CHECK(a[6 * e + k] == 0.0);
            CHECK(yhatA[6 * e + k] == 0.0);
          }
      partial += static_cast<int>(reachedA.size()) < last - first ? 1 : 0;
      ++checked;
    }
  }
  CHECK(checked > 100);
  CHECK(partial > checked / 2);  // most paths to the root leave joints out
}

TEST_CASE("A joint group with a loop is left to the iterative rows", "[joints][tree]") {
  // Bodies 1-2-3 in a triangle (a loop), 4-5 a chain hung from the world, 6 alone on two world
  // joints (no loop: the world is not a body of the groups).
  Problem p;
  p.bodies.resize(7);
  p.links = {{0, 1, 2}, {1, 2, 3}, {2, 3, 1}, {3, 0, 4}, {4, 4, 5}, {5, 0, 6}, {6, 6, 0}};
  JointTree tree;
  std::vector<char> movable(7, 1);
  movable[0] = 0;
  tree.build(p.links, movable);
  std::vector<int> kept;
  for (int e = 0; e < tree.size(); ++e) kept.push_back(tree.joint(e));
  std::sort(kept.begin(), kept.end());
  CHECK(kept == std::vector<int>{3, 4, 5, 6});
  // Two joints between the same pair are a loop too.
  p.links = {{0, 1, 2}, {1, 2, 1}};
  tree.build(p.links, movable);
  CHECK(tree.size() == 0);
  // A body that does not move (kinematic) is part of the world: 1 and 3 hang on it separately.
  movable[2] = 0;
  p.links = {{0, 1, 2}, {1, 2, 3}, {2, 3, 1}};
  tree.build(p.links, movable);
  CHECK(tree.size() == 3);
}

TEST_CASE("setLeavePairLoops and setOpenLoops leave loops' closing joints out, not their group",
          "[joints][tree]") {
  // A chain 1-2-3-4 from the world with second and third joints between 2 and 3 (either order)
  // and a second between 3 and 4: the later ones are left out, the chain kept.
  std::vector<char> movable(6, 1);
  movable[0] = 0;
  const std::vector<JointTree::Link> chain = {{0, 0, 1}, {1, 1, 2}, {2, 2, 3}, {3, 3, 2},
                                              {4, 4, 3}, {5, 2, 3}, {6, 3, 4}};
  auto kept = [&](const std::vector<JointTree::Link>& links, bool leave, int openLoops = 0) {
    JointTree tree;
    tree.setLeavePairLoops(leave);
    tree.setOpenLoops(openLoops);
    tree.build(links, movable);
    std::vector<int> joints;
    for (int e = 0; e < tree.size(); ++e) joints.push_back(tree.joint(e));
    std::sort(joints.begin(), joints.end());
    return joints;
  };
  CHECK(kept(chain, true) == std::vector<int>{0, 1, 2, 4});
  CHECK(kept(chain, false).empty());  // without it the pairs are loops, as above
  // A loop through other bodies still leaves its group out; another group stays.
  const std::vector<JointTree::Link> loop = {{0, 1, 2}, {1, 2, 3}, {2, 3, 1}, {3, 2, 1}, {4, 4, 5}};
  CHECK(kept(loop, true) == std::vector<int>{4});
  // setOpenLoops(n): up to n links closing loops through other bodies are left out alone; a group
  // with more is left out whole. The triangle 1-2-3 closed by joint 2; two triangles sharing
  // body 3 (3-4-5 closed by joint 5) have one closing link each.
  auto open = [&](const std::vector<JointTree::Link>& links, int n) {
    return kept(links, true, n);
  };
  const std::vector<JointTree::Link> triangle = {{0, 1, 2}, {1, 2, 3}, {2, 3, 1}, {3, 0, 1}};
  CHECK(open(triangle, 1) == std::vector<int>{0, 1, 3});
  CHECK(open(triangle, 0).empty());
  const std::vector<JointTree::Link> two = {{0, 1, 2}, {1, 2, 3}, {2, 3, 1},
                                            {3, 3, 4}, {4, 4, 5}, {5, 5, 3}};
  CHECK(open(two, 2) == std::vector<int>{0, 1, 3, 4});
  CHECK(open(two, 1).empty());
  // A pair's second joint is not counted: the triangle with a second joint 1-2 still opens.
  const std::vector<JointTree::Link> both = {{0, 1, 2}, {1, 2, 1}, {2, 2, 3}, {3, 3, 1}};
  CHECK(open(both, 1) == std::vector<int>{0, 2});
  // A pair whose second joint comes first in another group's order: the same joints left out.
  const std::vector<JointTree::Link> pair = {{0, 5, 4}, {1, 4, 5}, {2, 0, 4}};
  CHECK(kept(pair, true) == std::vector<int>{0, 2});
}

TEST_CASE("The tree solve of redundant rows stays bounded and meets consistent rows",
          "[joints][tree]") {
  // One body on two world joints with the same three rows: K is singular. The mixing makes the
  // solve that of K + kMixing diag(K), which must agree with the dense solve of that matrix; for
  // a right-hand side in K's range (r = K y) it meets K x = r to the mixing's order.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  Problem p;
  p.bodies.resize(2);
  p.bodies[1].invMass = 0.5;
  p.bodies[1].invI = Mat3(2.0, 0.3, 0.1, 0.3, 1.5, 0.2, 0.1, 0.2, 1.0);
  JointTree::Rows rows;
  rows.m = 3;
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 6; ++i) rows.b[k][i] = u(rng);
  p.links = {{0, 0, 1}, {1, 0, 1}};
  p.rows = {rows, rows};
  JointTree tree = buildTree(p, 1);
  REQUIRE(tree.size() == 2);
  for (int e = 0; e < 2; ++e) tree.rows(e) = rows;
  tree.factor(p.bodies);
  const auto K = denseK(p, tree, false);
  std::vector<Real> y(6), flat(6), r(12, 0.0);
  for (Real& v : y) v = u(rng);
  Real size = 0.0;
  for (int i = 0; i < 6; ++i) {
    Real s = 0.0;
    for (int j = 0; j < 6; ++j) s += K[i][j] * y[j];
    flat[i] = r[6 * (i / 3) + i % 3] = s;
    size = std::max(size, std::abs(s));
  }
  const std::vector<Real> want = denseSolve(denseK(p, tree, true), flat);
  tree.solve(r);
  Real worst = 0.0, diff = 0.0;
  for (int i = 0; i < 6; ++i) {
    const Real x = r[6 * (i / 3) + i % 3];
    REQUIRE(std::isfinite(x));
    diff = std::max(diff, std::abs(x - want[i]));
    Real s = 0.0;
    for (int j = 0; j < 6; ++j) s += K[i][j] * r[6 * (j / 3) + j % 3];
    worst = std::max(worst, std::abs(s - flat[i]));
  }
  INFO("difference from the dense solve " << diff << "; residual " << worst << " of " << size);
  Real largest = 1.0;
  for (Real w : want) largest = std::max(largest, std::abs(w));
  CHECK(diff < 1e-9 * largest);
  CHECK(worst < 1e-3 * size);
}

// JointSet::keepsApart (asked for every candidate pair of every step) against the live joints
// themselves, through creations and destructions that mark its list for a rebuild.
TEST_CASE("A joint keeps apart exactly the bodies it joins, unless it lets them collide") {
  std::mt19937 rng(15);
  const int n = 30;
  std::vector<Body> bodies(n);
  for (Body& b : bodies) b.alive = true;
  JointSet set;
  std::uniform_int_distribution<int> body(-1, n - 1), coin(0, 3);
  auto addJoints = [&](int count) {
    for (int k = 0; k < count; ++k) {
      BallJointDef def;
      const int a = body(rng), b = body(rng);
      if (a == b || (a < 0 && b < 0)) continue;
      if (a >= 0) def.a = BodyId{a, 0};
      if (b >= 0) def.b = BodyId{b, 0};
      def.collideConnected = coin(rng) == 0;
      REQUIRE(static_cast<bool>(set.create(def, bodies)));
    }
  };
  auto check = [&] {
    int apart = 0;
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        bool expected = false;
        for (const Joint& j : set.joints())
          expected = expected || (j.alive && !j.collideConnected && std::min(j.a, j.b) == a &&
                                  std::max(j.a, j.b) == b);
        REQUIRE(set.keepsApart(a, b) == expected);
        apart += expected;
      }
    return apart;
  };
  addJoints(120);
  const int before = check();
  CHECK(before > 40);  // a representative mix: many pairs kept apart, most pairs not
  for (int k = 0; k < static_cast<int>(set.joints().size()); k += 3) set.destroy(k);
  const int after = check();
  CHECK(after < before);
  addJoints(60);
  CHECK(check() > after);
}

// A point's rows (Rows::point: rows 0-2 with linear parts -e_k on a and +e_k on b, the rows after
// with none, as JointSet fills them) skip the zeros and ones of J in the products: the factor and
// the solve must give the very bits of the dense products on the same rows.
TEST_CASE("A point's rows give the dense products' bits", "[joints][tree]") {
  std::mt19937 rng(27);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  int compared = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int bodies = 2 + trial * 2;
    Problem p = randomForest(rng, bodies, trial % 3 == 0 ? 0.0 : 0.3);
    for (JointTree::Rows& r : p.rows) {
      r.m = std::array<int, 3>{3, 5, 6}[static_cast<size_t>(compared++ % 3)];
      for (int k = 0; k < r.m; ++k) {
        Vec3 e(0.0);
        if (k < 3) e[k] = 1.0;
        const Vec3 linA = -e, linB = e;  // -0 off the axis on a, as JointSet's -u
        for (int i = 0; i < 3; ++i) {
          r.a[k][i] = linA[i];
          r.b[k][i] = linB[i];
          r.a[k][3 + i] = u(rng);
          r.b[k][3 + i] = u(rng);
        }
      }
    }
    JointTree dense = buildTree(p, bodies), sparse = buildTree(p, bodies);
    for (int e = 0; e < dense.size(); ++e) {
      dense.rows(e) = sparse.rows(e) = p.rows[dense.joint(e)];
      sparse.rows(e).point = true;
    }
    dense.factor(p.bodies);
    sparse.factor(p.bodies);
    std::vector<Real> r(6 * static_cast<size_t>(dense.size()));
    for (Real& v : r) v = u(rng);
    std::vector<Real> rs = r;
    dense.solve(r);
    sparse.solve(rs);
    INFO("trial " << trial);
    REQUIRE(std::memcmp(r.data(), rs.data(), r.size() * sizeof(Real)) == 0);
    // Not vacuous: the solve moved the right-hand side.
    CHECK(std::any_of(r.begin(), r.end(), [](Real v) { return std::abs(v) > 1e-3; }));
  }
}
