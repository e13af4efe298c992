// Exact solve of the equality rows of acyclic joint groups (Baraff 1996, "Linear-time dynamics
// using Lagrange multipliers", sec. 5-7), in constraint space.
//
// Why: soft rows solved one joint at a time give by load / (row mass omega^2): each row's
// softness is measured against its own effective mass, so a chain's top link, holding fifty
// links and a load fifty times heavier, stretches as if it held them with one link's mass (5%
// over a 50-link chain at 4 substeps). Solving a group's rows together with the same softness
// taken against the group's K = J M^-1 J^T (lambda += -massScale K^-1 (J v + bias) -
// impulseScale lambda) makes the spring K^-1 omega^2: at rest the joint impulses hold every body
// against gravity, M^-1 J^T lambda = -g h, so K lambda = J (-g h) = 0 and the joints do not
// stretch at all; they give only to relative accelerations (a limb stopped by a stair edge).
//
// How: K's sparsity is the joints' line graph, chordal for a tree: eliminating the joints from
// the leaves of the body tree inward fills nothing. Eliminating joint j (between a body below,
// whose other joints are gone, and the body `up` above it) changes the K blocks of the joints
// still at `up` by J_k W J_j^T D_j^-1 J_j W J_l^T, so each body keeps one 6x6 matrix W (its
// inverse mass, less what the eliminated joints take: the articulated inverse mass) and each
// joint its pivot D_j = J W J^T over its two bodies and G_j = W_up J_up^T D_j^-1. Joints to the
// static world (or to a kinematic or sleeping body) are eliminated at their body before the
// body's own joint to its parent. Factor and solve cost O(joints) with 6x6 blocks.
#include "dynamics/joint_tree.h"

#include <algorithm>
#include <cmath>

#include "dynamics/island.h"

namespace tumble {
namespace {

// J M^-1 J^T of row k on one body; a point's rows (Rows::point) have the linear part +-e_k for
// k < 3 and none after.
template <bool point>
Real rowScale(const SolverBody& b, const Real* row, int k) {
  const Vec3 ang(row[3], row[4], row[5]);
  const Real angular = glm::dot(ang, b.invI * ang);
  if constexpr (point) {
    return k < 3 ? b.invMass * b.linearFree[k] + angular : angular;
  } else {
    const Vec3 lin(row[0], row[1], row[2]);
    return b.invMass * glm::dot(lin, b.linearFree * lin) + angular;
  }
}

}  // namespace

bool JointTree::linked(const std::vector<Link>& links, int a, int b) const {
  for (int s = firstLink_[a]; s >= 0; s = nextLink_[s]) {
    const Link& l = links[s / 2];
    if ((s % 2 == 0 ? l.b : l.a) == b) return true;
  }
  return false;
}

void JointTree::build(const std::vector<Link>& links, const std::vector<char>& movable) {
  usePairs_ = false;
  closing_.clear();
  entries_.clear();
  bodies_.clear();
  groups_.clear();
  entryGroup_.clear();
  const int nb = static_cast<int>(movable.size());
  const int nl = static_cast<int>(links.size());
  parent_.resize(nb);
  for (int i = 0; i < nb; ++i) parent_[i] = i;
  loop_.assign(nb, 0);
  firstLink_.assign(nb, -1);
  nextLink_.assign(2 * nl, -1);
  auto isMovable = [&](int s) { return s > 0 && movable[s] != 0; };
  bool any = false;
  for (int k = 0; k < nl; ++k) {
    const Link& l = links[k];
    const bool ma = isMovable(l.a), mb = isMovable(l.b);
    if (ma && mb) {
      const int ra = findRoot(parent_, l.a), rb = findRoot(parent_, l.b);
      if (ra == rb && leavePairLoops_ && linked(links, l.a, l.b)) continue;
      if (ra == rb && openLoops_ > 0) {
        closing_.push_back(k);  // left out alone, or its group with it (below)
        continue;
      }
      if (ra == rb) {
        loop_[ra] = 1;  // a second path between two bodies: not a tree
      } else {
        // The lower index becomes the root, so the result does not depend on the union order.
        const int lo = std::min(ra, rb), hi = std::max(ra, rb);
        parent_[hi] = lo;
        loop_[lo] = static_cast<char>(loop_[lo] | loop_[hi]);
      }
    }
    // Adjacency: slot 2k on body a, 2k + 1 on body b (pushed at the front: walked in reverse).
    if (ma) {
      nextLink_[2 * k] = firstLink_[l.a];
      firstLink_[l.a] = 2 * k;
    }
    if (mb) {
      nextLink_[2 * k + 1] = firstLink_[l.b];
      firstLink_[l.b] = 2 * k + 1;
    }
    any = any || ma || mb;
  }
  // A group with more links closing loops than openLoops_ is left out whole.
  if (!closing_.empty()) {
    closingCount_.assign(nb, 0);
    for (int k : closing_) {
      const int r = findRoot(parent_, links[k].a);
      if (++closingCount_[r] > openLoops_) loop_[r] = 1;
    }
  }
  if (!any) return;
  // Breadth first from the lowest body of each acyclic group; then eliminate in reverse order of
  // discovery (every body after the bodies below it).
  seen_.assign(nb, -1);  // the link a body was reached through (nl: the group's root)
  order_.clear();
  for (int root = 1; root < nb; ++root) {
    if (firstLink_[root] < 0 || seen_[root] >= 0 || loop_[findRoot(parent_, root)]) continue;
    const size_t start = order_.size();
    order_.push_back(root);
    seen_[root] = nl;
    for (size_t q = start; q < order_.size(); ++q) {
      const int body = order_[q];
      for (int s = firstLink_[body]; s >= 0; s = nextLink_[s]) {
        const Link& l = links[s / 2];
        const int other = (s % 2 == 0) ? l.b : l.a;
        if (!isMovable(other) || seen_[other] >= 0) continue;
        seen_[other] = s / 2;
        order_.push_back(other);
      }
    }
  }
  Group group;
  for (int q = static_cast<int>(order_.size()) - 1; q >= 0; --q) {
    const int body = order_[q];
    bodies_.push_back(body);
    // Joints to the immovable world at this body, in link order (the list runs backwards).
    const size_t first = entries_.size();
    for (int s = firstLink_[body]; s >= 0; s = nextLink_[s]) {
      const Link& l = links[s / 2];
      if (isMovable(s % 2 == 0 ? l.b : l.a)) continue;
      Entry& e = entries_.emplace_back();
      e.joint = l.joint;
      e.up = body;
      e.down = 0;
      e.upIsA = (s % 2 == 0);
    }
    std::reverse(entries_.begin() + static_cast<std::ptrdiff_t>(first), entries_.end());
    const int via = seen_[body];
    if (via < nl) {
      const Link& l = links[via];
      Entry& e = entries_.emplace_back();
      e.joint = l.joint;
      e.upIsA = (l.b == body);
      e.up = e.upIsA ? l.a : l.b;
      e.down = body;
    }
    if (via == nl) {  // the group's root: its last body
      group.entryEnd = static_cast<int>(entries_.size());
      group.bodyEnd = static_cast<int>(bodies_.size());
      groups_.push_back(group);
      group.entryBegin = group.entryEnd;
      group.bodyBegin = group.bodyEnd;
    }
  }
  // Each entry's pairs: the earlier entries whose body up is its up or its down (solveWith).
  const int ne = wantPairs_ ? static_cast<int>(entries_.size()) : 0;
  upHead_.assign(nb, -1);
  upNext_.assign(ne, -1);
  pairs_.clear();
  pairStart_.assign(ne + 1, 0);
  for (int q = 0; q < ne; ++q) {
    const Entry& e = entries_[q];
    pairStart_[q] = static_cast<int>(pairs_.size());
    for (int c = upHead_[e.up]; c >= 0; c = upNext_[c]) pairs_.push_back({c, true});
    if (e.down > 0)
      for (int c = upHead_[e.down]; c >= 0; c = upNext_[c]) pairs_.push_back({c, false});
    upNext_[q] = upHead_[e.up];
    upHead_[e.up] = q;
  }
  pairStart_[ne] = static_cast<int>(pairs_.size());
  usePairs_ =
      wantPairs_ && pairs_.size() <= static_cast<size_t>(kPairsPerEntry) * static_cast<size_t>(ne);
  H_.resize(usePairs_ ? pairs_.size() : 0);
  Ht_.resize(H_.size());
  yhat_.resize(6 * static_cast<size_t>(ne));
  entryGroup_.resize(entries_.size());
  for (int g = 0; g < static_cast<int>(groups_.size()); ++g)
    for (int e = groups_[g].entryBegin; e < groups_[g].entryEnd; ++e) entryGroup_[e] = g;
  W_.resize(nb);
  z_.resize(6 * static_cast<size_t>(nb));
}

template <int m>
void JointTree::solvePivot(const Entry& e, Real* x) {
  for (int k = 0; k < m; ++k) {
    for (int i = 0; i < k; ++i) x[k] -= e.L[k][i] * x[i];
  }
  for (int k = 0; k < m; ++k) x[k] *= e.dinv[k];
  for (int k = m - 1; k >= 0; --k) {
    for (int i = k + 1; i < m; ++i) x[k] -= e.L[i][k] * x[i];
  }
}

void JointTree::factor(const std::vector<SolverBody>& sbs) {
  factorRange(0, static_cast<int>(bodies_.size()), 0, static_cast<int>(entries_.size()), sbs);
}

void JointTree::factorGroup(int g, const std::vector<SolverBody>& sbs) {
  const Group& group = groups_[g];
  factorRange(group.bodyBegin, group.bodyEnd, group.entryBegin, group.entryEnd, sbs);
}

void JointTree::factorRange(int bodyBegin, int bodyEnd, int entryBegin, int entryEnd,
                            const std::vector<SolverBody>& sbs) {
  for (int q = bodyBegin; q < bodyEnd; ++q) {
    const int b = bodies_[q];
    const SolverBody& s = sbs[b];
    Mat6& W = W_[b];
    for (auto& row : W.m) std::fill(row, row + 6, 0.0);
    for (int i = 0; i < 3; ++i) {
      W.m[i][i] = s.invMass * s.linearFree[i];
      for (int k = 0; k < 3; ++k) W.m[3 + i][3 + k] = s.invI[k][i];  // glm: column k, row i
    }
  }
  for (int q = entryBegin; q < entryEnd; ++q) {
    Entry& e = entries_[q];
    withShape(e, [&](auto m, auto point) { factorEntry<m(), point()>(e, sbs); });
    if (usePairs_) pairProducts(q);
  }
}

template <class F>
void JointTree::withShape(const Entry& e, F&& f) {
  withRows(e.rows.m, [&](auto m) {
    if constexpr (decltype(m)::value >= 3) {
      if (e.rows.point) return f(m, std::true_type{});
    }
    f(m, std::false_type{});
  });
}

namespace {

// The sign of the linear part of a point's row k < 3 on body a (-e_k) or b (+e_k).
Real pointSign(bool onA) {
  return onA ? -1.0 : 1.0;
}

// sum over l of w[l] j[l] (a row of W against row k of J), from +0 in l's order; for a point's
// row (Rows::point) the linear part's zeros are skipped and its one (the sign s at l = k < 3)
// is not multiplied out: the same bits.
template <bool point>
Real rowTimes(const Real* w, const Real* j, int k, Real s) {
  Real t = 0.0;
  if constexpr (point) {
    if (k < 3) t += w[k] * s;
    for (int l = 3; l < 6; ++l) t += w[l] * j[l];
  } else {
    for (int l = 0; l < 6; ++l) t += w[l] * j[l];
  }
  return t;
}

// The lower triangle of J T for J's m rows and T = W J^T (6 x m), added to D.
template <int m, bool point>
void addRowsTimes(Real (&D)[6][6], const Real (&J)[6][6], const Real (&T)[6][6], Real s) {
  for (int k = 0; k < m; ++k)
    for (int l = 0; l <= k; ++l) {
      Real d = 0.0;
      if constexpr (point) {
        if (k < 3) d += s * T[k][l];
        for (int i = 3; i < 6; ++i) d += J[k][i] * T[i][l];
      } else {
        for (int i = 0; i < 6; ++i) d += J[k][i] * T[i][l];
      }
      D[k][l] += d;
    }
}

}  // namespace

template <int m, bool point>
void JointTree::factorEntry(Entry& e, const std::vector<SolverBody>& sbs) {
  const auto& Ju = e.upIsA ? e.rows.a : e.rows.b;
  const auto& Jd = e.upIsA ? e.rows.b : e.rows.a;
  const Real su = pointSign(e.upIsA), sd = pointSign(!e.upIsA);
  Mat6& Wu = W_[e.up];
  Real T[6][6];  // W_up J_up^T, 6 x m
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < m; ++k) T[i][k] = rowTimes<point>(Wu.m[i], Ju[k], k, su);
  // The pivot block's lower triangle (the factorisation below reads no more); each entry is
  // its body sums added to +0 in turn, as it was summed in one.
  Real D[6][6];
  for (int k = 0; k < m; ++k)
    for (int l = 0; l <= k; ++l) D[k][l] = 0.0;
  addRowsTimes<m, point>(D, Ju, T, su);
  if (e.down > 0) {
    const Mat6& Wd = W_[e.down];
    Real Td[6][6];
    for (int i = 0; i < 6; ++i)
      for (int k = 0; k < m; ++k) Td[i][k] = rowTimes<point>(Wd.m[i], Jd[k], k, sd);
    addRowsTimes<m, point>(D, Jd, Td, sd);
  }
  // Constraint force mixing (ODE's CFM; Baraff's regularisation): each row's diagonal gains
  // kMixing times the row's own K with no joint eliminated, so a row redundant or nearly
  // redundant with rows already eliminated (a bridge's last hinge repeats the tilt that the
  // other hinges already lock) takes bounded impulses instead of impulses as large as 1 / pivot
  // (dropping pivots under a threshold instead left the bridge blowing up or shaking). The
  // rows give by kMixing times what a row alone would: nothing measurable. The bridge's widest
  // gap over 1200 steps (a driver outside the tree) at e3440a2, with the joints' geometric
  // stiffness: 0.26 mm at 1e-7, 0.23 at 1e-5, 0.27 at 1e-4 (here), 40 mm at 3e-4, 257 mm at 1e-3,
  // 4.3 m at 3e-3; before it (085acd5) 0.42 / 0.40 / 0.43 mm and non-finite from 3e-4 on.
  // Then D = L diag(d) L^T without pivoting; a pivot that rounding left at zero or below (no
  // movable body along the row) is dropped, its impulse kept at 0.
  for (int k = 0; k < m; ++k) {
    Real scale = rowScale<point>(sbs[e.up], Ju[k], k);
    if (e.down > 0) scale += rowScale<point>(sbs[e.down], Jd[k], k);
    D[k][k] += mixing_ * scale;
  }
  Real d[6];
  for (int k = 0; k < m; ++k) {
    Real dk = D[k][k];
    for (int i = 0; i < k; ++i) dk -= e.L[k][i] * e.L[k][i] * d[i];
    const bool keep = dk > 0.0;
    d[k] = keep ? dk : 0.0;
    // A cleared row (contact_tree.cpp) has dk = 0 exactly, and a compiler may divide before it
    // chooses: the divisor is at least 1e-300 (the same bits for any pivot above it).
    const Real inverse = 1.0 / std::max(dk, 1e-300);
    e.dinv[k] = keep ? inverse : 0.0;
    e.L[k][k] = 1.0;
    for (int r = k + 1; r < m; ++r) {
      Real v = D[r][k];
      for (int i = 0; i < k; ++i) v -= e.L[r][i] * e.L[k][i] * d[i];
      e.L[r][k] = v * e.dinv[k];
    }
  }
  // G = T D^-1: each of its six rows solved as solvePivot solves one (the same operations in
  // the same order), the six side by side (columns of Gt) so they run in parallel.
  Real Gt[6][6];
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < 6; ++i) Gt[k][i] = T[i][k];
  for (int k = 0; k < m; ++k)
    for (int l = 0; l < k; ++l)
      for (int i = 0; i < 6; ++i) Gt[k][i] -= e.L[k][l] * Gt[l][i];
  for (int k = 0; k < m; ++k)
    for (int i = 0; i < 6; ++i) Gt[k][i] *= e.dinv[k];
  for (int k = m - 1; k >= 0; --k)
    for (int l = k + 1; l < m; ++l)
      for (int i = 0; i < 6; ++i) Gt[k][i] -= e.L[l][k] * Gt[l][i];
  for (int i = 0; i < 6; ++i)
    for (int k = 0; k < m; ++k) e.G[i][k] = Gt[k][i];
  // W_up -= G T^T.
  for (int i = 0; i < 6; ++i)
    for (int l = i; l < 6; ++l) {
      Real g = 0.0;
      for (int k = 0; k < m; ++k) g += e.G[i][k] * T[l][k];
      Wu.m[i][l] -= g;
      Wu.m[l][i] = Wu.m[i][l];
    }
}

namespace {

// y[k] -= sum_i J[k][i] z[i] for the m rows of J (6 body coordinates each; s: a point's sign,
// rowTimes).
template <int m, bool point, class Rows>
void subtractRowsTimes(Real* y, const Rows& J, const Real* z, Real s) {
  for (int k = 0; k < m; ++k) y[k] -= rowTimes<point>(z, J[k], k, s);
}

// z[i] += sum_k J[k][i] x[k]: the m rows of J transposed, times x. A point's linear coordinate
// i < 3 has one row with a part there (row i, the sign s), so its sum is that one product.
template <int m, bool point, class Rows>
void addRowsTransposedTimes(Real* z, const Rows& J, const Real* x, Real s) {
  for (int i = 0; i < 6; ++i) {
    Real t = 0.0;
    if (point && i < 3) {
      t += x[i] * s;
    } else {
      for (int k = 0; k < m; ++k) t += J[k][i] * x[k];
    }
    z[i] += t;
  }
}

}  // namespace

// Forward: y_k = r_k - sum over earlier j at k's bodies of J_k G_j y_j, the sums kept per body
// in z (forwardSums); then D^-1.
template <int m, bool point>
void JointTree::forwardSums(const Entry& e, Real* y) {
  const auto& Ju = e.upIsA ? e.rows.a : e.rows.b;
  const auto& Jd = e.upIsA ? e.rows.b : e.rows.a;
  Real* zu = &z_[6 * static_cast<size_t>(e.up)];
  subtractRowsTimes<m, point>(y, Ju, zu, pointSign(e.upIsA));
  if (e.down > 0)
    subtractRowsTimes<m, point>(y, Jd, &z_[6 * static_cast<size_t>(e.down)], pointSign(!e.upIsA));
  for (int i = 0; i < 6; ++i) {
    Real t = 0.0;
    for (int k = 0; k < m; ++k) t += e.G[i][k] * y[k];
    zu[i] += t;
  }
}

template <int m, bool point>
void JointTree::forward(const Entry& e, Real* y) {
  forwardSums<m, point>(e, y);
  solvePivot<m>(e, y);
}

void JointTree::forwardGroup(int g, std::vector<Real>& r, std::vector<Real>& yhat,
                             std::vector<int>& reached) {
  const Group& group = groups_[g];
  reached.clear();
  if (reached_.size() < W_.size()) reached_.resize(W_.size());
  for (int q = group.bodyBegin; q < group.bodyEnd; ++q) {
    std::fill_n(&z_[6 * static_cast<size_t>(bodies_[q])], 6, 0.0);
    reached_[static_cast<size_t>(bodies_[q])] = 0;
  }
  for (int q = group.entryBegin; q < group.entryEnd; ++q) {
    const Entry& e = entries_[q];
    Real* y = &r[6 * static_cast<size_t>(q)];
    Real* yh = &yhat[6 * static_cast<size_t>(q)];
    // Skipped, its values zero (what the sums would give: nothing reached its bodies' sums).
    bool live = reached_[static_cast<size_t>(e.up)] ||
                (e.down > 0 && reached_[static_cast<size_t>(e.down)]);
    for (int k = 0; k < e.rows.m && !live; ++k) live = y[k] != 0.0;
    if (!live) {
      std::fill_n(yh, 6, 0.0);
      continue;
    }
    withShape(e, [&](auto m, auto point) {
      forwardSums<m(), point()>(e, y);
      for (int k = 0; k < 6; ++k) yh[k] = k < m() ? y[k] : 0.0;
      solvePivot<m()>(e, y);
    });
    reached_[static_cast<size_t>(e.up)] = 1;
    reached.push_back(q);
  }
}

// Backward: x_j = w_j - G_j^T sum over later k at up of J_k^T x_k (z reused).
template <int m, bool point>
void JointTree::backward(const Entry& e, Real* x) {
  const auto& Ju = e.upIsA ? e.rows.a : e.rows.b;
  const auto& Jd = e.upIsA ? e.rows.b : e.rows.a;
  Real* su = &z_[6 * static_cast<size_t>(e.up)];
  for (int k = 0; k < m; ++k) {
    Real t = 0.0;
    for (int i = 0; i < 6; ++i) t += e.G[i][k] * su[i];
    x[k] -= t;
  }
  addRowsTransposedTimes<m, point>(su, Ju, x, pointSign(e.upIsA));
  if (e.down > 0)
    addRowsTransposedTimes<m, point>(&z_[6 * static_cast<size_t>(e.down)], Jd, x,
                                     pointSign(!e.upIsA));
}

namespace {

// out[j] -= sum over i < rows of M[i][j] in[i], for j < cols: the cols sums side by side (no
// chain of dependent additions across them), each over i in order.
template <int rows, int cols>
void subtractTransposedTimes(const Real (&M)[6][6], const Real* in, Real* out) {
  Real t[6] = {};
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) t[j] += M[i][j] * in[i];
  for (int j = 0; j < cols; ++j) out[j] -= t[j];
}

}  // namespace

// The pairs (solveWith): entry q subtracts H y^ of each earlier entry c whose body up is one of
// q's (y^: c's forward value before its pivot solve, so H y^ = J_q W J_c^T D_c^-1 y^, what the
// per-body sums z give), and the backward pass pushes H^T x_q into c, which solve() takes from
// the sums s at c's body up.
void JointTree::pairProducts(int q) {
  const Entry& e = entries_[q];
  for (int p = pairStart_[q]; p < pairStart_[q + 1]; ++p) {
    const Pair& pr = pairs_[static_cast<size_t>(p)];
    const Entry& c = entries_[pr.c];
    const bool onA = pr.onUp == e.upIsA;  // the shared body is q's body a
    const auto& J = onA ? e.rows.a : e.rows.b;
    const Real sign = pointSign(onA);
    Mat6& H = H_[static_cast<size_t>(p)];
    Mat6& Ht = Ht_[static_cast<size_t>(p)];
    withRows(e.rows.m, [&](auto me) {
      withRows(c.rows.m, [&](auto mc) {
        for (int r = 0; r < me(); ++r)
          for (int k = 0; k < mc(); ++k) {
            Real t = 0.0;
            if (e.rows.point) {
              if (r < 3) t += sign * c.G[r][k];
              for (int i = 3; i < 6; ++i) t += J[r][i] * c.G[i][k];
            } else {
              for (int i = 0; i < 6; ++i) t += J[r][i] * c.G[i][k];
            }
            H.m[r][k] = t;
            Ht.m[k][r] = t;
          }
      });
    });
  }
}

void JointTree::forwardPairs(int q, Real* y) {
  const Entry& e = entries_[q];
  withRows(e.rows.m, [&](auto me) {
    for (int p = pairStart_[q]; p < pairStart_[q + 1]; ++p) {
      const int c = pairs_[static_cast<size_t>(p)].c;
      const Real* yc = &yhat_[6 * static_cast<size_t>(c)];
      const Mat6& Ht = Ht_[static_cast<size_t>(p)];
      withRows(entries_[c].rows.m,
               [&](auto mc) { subtractTransposedTimes<mc(), me()>(Ht.m, yc, y); });
    }
    // (a loop: std::copy_n's count, fixed as it is, still reached memmove: 1.5% of the bridge)
    Real* yhat = &yhat_[6 * static_cast<size_t>(q)];
    for (int k = 0; k < me(); ++k) yhat[k] = y[k];
    solvePivot<me()>(e, y);
  });
}

void JointTree::backwardPairs(int q, std::vector<Real>& r) {
  const Entry& e = entries_[q];
  const Real* x = &r[6 * static_cast<size_t>(q)];
  withRows(e.rows.m, [&](auto me) {
    for (int p = pairStart_[q]; p < pairStart_[q + 1]; ++p) {
      const int c = pairs_[static_cast<size_t>(p)].c;
      Real* xc = &r[6 * static_cast<size_t>(c)];
      const Mat6& H = H_[static_cast<size_t>(p)];
      withRows(entries_[c].rows.m,
               [&](auto mc) { subtractTransposedTimes<me(), mc()>(H.m, x, xc); });
    }
  });
}

void JointTree::solve(std::vector<Real>& r) {
  solveRange(0, static_cast<int>(bodies_.size()), 0, size(), r);
}

void JointTree::solveGroup(int g, std::vector<Real>& r) {
  const Group& group = groups_[g];
  solveRange(group.bodyBegin, group.bodyEnd, group.entryBegin, group.entryEnd, r);
}

void JointTree::solveRange(int bodyBegin, int bodyEnd, int entryBegin, int entryEnd,
                           std::vector<Real>& r) {
  for (int q = bodyBegin; q < bodyEnd; ++q)
    std::fill_n(&z_[6 * static_cast<size_t>(bodies_[q])], 6, 0.0);
  for (int q = entryBegin; q < entryEnd; ++q) {
    const Entry& e = entries_[q];
    Real* y = &r[6 * static_cast<size_t>(q)];
    withShape(e, [&](auto m, auto point) { forward<m(), point()>(e, y); });
  }
  for (int q = bodyBegin; q < bodyEnd; ++q)
    std::fill_n(&z_[6 * static_cast<size_t>(bodies_[q])], 6, 0.0);
  for (int q = entryEnd - 1; q >= entryBegin; --q) {
    const Entry& e = entries_[q];
    Real* x = &r[6 * static_cast<size_t>(q)];
    withShape(e, [&](auto m, auto point) { backward<m(), point()>(e, x); });
  }
}

}  // namespace tumble
