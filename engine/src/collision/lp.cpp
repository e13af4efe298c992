// The vertex LP collision test: Kreuzer, "On Convex Polytopes, Collision Detection, and the Simplex
// Method" (CodeProject 2016), problem P2, solved by a revised simplex method with an explicit basis
// inverse (Chvatal, "Linear Programming", ch. 7) and Bland's rule against cycling (Bland 1977).
#include "tumble/lp.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tumble {
namespace {

// Why an intersect verdict bounds the distance: with residual r = b - A x >= 0, sigma = sum(l) =
// 1 - r_n, tau = sum(m) = 1 - r_n+1, p = sum(l s)/sigma and q = sum(m t)/tau (points of the two
// hulls, |p|, |q| <= sqrt(n) after normalisation), sigma p - tau q = -r_coords gives
// |p - q| <= |r_coords| + r_n |p| + r_n+1 |q| <= sqrt(n) * objective. So objective <= eps means
// dist <= sqrt(3) eps h. Conversely at an intersecting pair the minimum is 0, and stopping with all
// reduced costs >= -eps/4 leaves an objective <= eps/2 (the structurals sum to <= 2).

constexpr int kRefactorPeriod = 32;  // pivots between recomputations of the basis inverse

// Normalised LP data: coordinates of column j in coords[d * m + j] (S columns +s, T columns -t);
// column j < nA has a 1 in convexity row n, the others in row n + 1.
template <int N>
struct Problem {
  const Real* coords = nullptr;
  int nA = 0;
  int m = 0;
};

template <int N>
class Simplex {
 public:
  static constexpr int K = N + 2;

  Simplex(const Problem<N>& p, Real eps, int maxPivots, LpPricing pricing)
      : p_(p), eps_(eps), maxPivots_(maxPivots), pricing_(pricing) {
    tolDual_ = std::max(0.25 * eps, 1e-13);
    tolPivot_ = std::max(eps, 1e-12);
    tolDegenerate_ = 1e-3 * eps;
    for (int i = 0; i < K; ++i) {
      for (int l = 0; l < K; ++l) binv_[i][l] = i == l ? 1.0 : 0.0;
      basic_[i] = p.m + i;
      xb_[i] = i < N ? 0.0 : 1.0;
    }
  }

  LpResult run() {
    LpResult r;
    bool bland = pricing_ == LpPricing::Bland;
    Real objective = objectiveValue();
    for (;;) {
      if (objective <= eps_) break;  // the zero: intersect, no need to go on (article's loop test)
      if (r.pivots >= maxPivots_) {
        r.status = LpStatus::MaxPivots;
        break;
      }
      computeDuals();
      int q = bland ? priceBland() : priceDantzig();
      if (q < 0) break;  // every reduced cost >= -tolDual: optimal
      std::array<Real, K> alpha = column(q);
      int row = ratioTest(alpha, bland);
      // The feasible set is bounded, so an improving column always has a positive pivot in exact
      // arithmetic; none above the pivot zero means the reduced cost was rounding noise.
      if (row < 0) break;
      Real theta = xb_[row] / alpha[row];
      pivot(row, q, alpha);
      ++r.pivots;
      if (r.pivots % kRefactorPeriod == 0) refactor();
      objective = objectiveValue();
      if (pricing_ == LpPricing::DantzigBland) bland = theta <= tolDegenerate_;
    }
    if (r.pivots > 0 && r.pivots % kRefactorPeriod != 0) {
      refactor();
      objective = objectiveValue();
    }
    r.objective = objective;
    r.intersect = objective <= eps_;
    return r;
  }

 private:
  Real coord(int d, int j) const { return p_.coords[d * p_.m + j]; }
  int convexityRow(int j) const { return j < p_.nA ? N : N + 1; }
  bool isBasic(int j) const {
    for (int i = 0; i < K; ++i)
      if (basic_[i] == j) return true;
    return false;
  }

  // The objective is the sum of the slacks (= e^T (b - A x)); only basic slacks are nonzero.
  Real objectiveValue() const {
    Real f = 0.0;
    for (int i = 0; i < K; ++i)
      if (basic_[i] >= p_.m) f += xb_[i];
    return f;
  }

  // y^T = c_B^T B^-1 with cost 1 on slacks, 0 on structurals.
  void computeDuals() {
    y_.fill(0.0);
    for (int i = 0; i < K; ++i)
      if (basic_[i] >= p_.m)
        for (int l = 0; l < K; ++l) y_[l] += binv_[i][l];
  }

  // Reduced cost of structural j: 0 - y^T a_j. Of slack l: 1 - y_l.
  Real reducedCost(int j) const {
    if (j >= p_.m) return 1.0 - y_[j - p_.m];
    Real s = y_[convexityRow(j)];
    for (int d = 0; d < N; ++d) s += y_[d] * coord(d, j);
    return -s;
  }

  int priceDantzig() const {
    int q = -1;
    Real best = -tolDual_;
    const Real* c[N];
    for (int d = 0; d < N; ++d) c[d] = p_.coords + d * p_.m;
    for (int part = 0; part < 2; ++part) {
      int lo = part == 0 ? 0 : p_.nA, hi = part == 0 ? p_.nA : p_.m;
      Real y0 = y_[N + part];
      for (int j = lo; j < hi; ++j) {
        Real s = y0;
        for (int d = 0; d < N; ++d) s += y_[d] * c[d][j];
        if (-s < best) {
          best = -s;
          q = j;
        }
      }
    }
    for (int l = 0; l < K; ++l) {
      Real d = 1.0 - y_[l];
      if (d < best && !isBasic(p_.m + l)) {
        best = d;
        q = p_.m + l;
      }
    }
    return q;
  }

  int priceBland() const {
    for (int j = 0; j < p_.m + K; ++j) {
      if (j >= p_.m && isBasic(j)) continue;
      Real d = reducedCost(j);
      if (d < -tolDual_) return j;
    }
    return -1;
  }

  // B^-1 a_q.
  std::array<Real, K> column(int q) const {
    std::array<Real, K> a{};
    if (q >= p_.m) {
      for (int i = 0; i < K; ++i) a[i] = binv_[i][q - p_.m];
      return a;
    }
    int cr = convexityRow(q);
    for (int i = 0; i < K; ++i) {
      Real s = binv_[i][cr];
      for (int d = 0; d < N; ++d) s += binv_[i][d] * coord(d, q);
      a[i] = s;
    }
    return a;
  }

  // Minimum ratio x_B / alpha over alpha > tolPivot; ties (within eps) go to the lowest basic index
  // under Bland's rule, to the largest pivot element otherwise.
  int ratioTest(const std::array<Real, K>& alpha, bool bland) const {
    int row = -1;
    Real best = 0.0;
    for (int i = 0; i < K; ++i) {
      if (alpha[i] <= tolPivot_) continue;
      Real ratio = xb_[i] / alpha[i];
      if (row < 0 || ratio < best - eps_) {
        row = i;
        best = ratio;
      } else if (ratio <= best + eps_) {
        bool better = bland ? basic_[i] < basic_[row] : alpha[i] > alpha[row];
        if (better) {
          row = i;
          best = std::min(best, ratio);
        }
      }
    }
    return row;
  }

  void pivot(int row, int q, const std::array<Real, K>& alpha) {
    Real inv = 1.0 / alpha[row];
    for (int l = 0; l < K; ++l) binv_[row][l] *= inv;
    xb_[row] *= inv;
    for (int i = 0; i < K; ++i) {
      if (i == row || alpha[i] == 0.0) continue;
      Real f = alpha[i];
      for (int l = 0; l < K; ++l) binv_[i][l] -= f * binv_[row][l];
      xb_[i] -= f * xb_[row];
      // The ratio test keeps x_B >= 0; a rounding-size negative would poison later ratios.
      if (xb_[i] < 0.0) xb_[i] = 0.0;
    }
    basic_[row] = q;
  }

  // Recomputes B^-1 and x_B = B^-1 b from the basis columns (Gauss-Jordan, partial pivoting), to
  // stop the product-form updates from drifting. Keeps the old inverse if B looks singular.
  void refactor() {
    Real m[K][2 * K];
    for (int i = 0; i < K; ++i)
      for (int l = 0; l < 2 * K; ++l) m[i][l] = l - K == i ? 1.0 : 0.0;
    for (int c = 0; c < K; ++c) {
      int j = basic_[c];
      if (j >= p_.m) {
        m[j - p_.m][c] = 1.0;
      } else {
        for (int d = 0; d < N; ++d) m[d][c] = coord(d, j);
        m[convexityRow(j)][c] = 1.0;
      }
    }
    for (int c = 0; c < K; ++c) {
      int piv = c;
      for (int i = c + 1; i < K; ++i)
        if (std::abs(m[i][c]) > std::abs(m[piv][c])) piv = i;
      if (std::abs(m[piv][c]) < 1e-14) return;
      if (piv != c)
        for (int l = 0; l < 2 * K; ++l) std::swap(m[c][l], m[piv][l]);
      Real inv = 1.0 / m[c][c];
      for (int l = 0; l < 2 * K; ++l) m[c][l] *= inv;
      for (int i = 0; i < K; ++i) {
        if (i == c || m[i][c] == 0.0) continue;
        Real f = m[i][c];
        for (int l = 0; l < 2 * K; ++l) m[i][l] -= f * m[c][l];
      }
    }
    // Row c of the reduced matrix is row c of B^-1 (basis position c).
    for (int i = 0; i < K; ++i) {
      for (int l = 0; l < K; ++l) binv_[i][l] = m[i][K + l];
      xb_[i] = std::max(0.0, binv_[i][N] + binv_[i][N + 1]);
    }
  }

  Problem<N> p_;
  Real eps_;
  int maxPivots_;
  LpPricing pricing_;
  Real tolDual_ = 0.0, tolPivot_ = 0.0, tolDegenerate_ = 0.0;
  Real binv_[K][K];
  std::array<Real, K> xb_{};
  std::array<Real, K> y_{};
  int basic_[K];
};

LpWorkspace& defaultWorkspace(const LpOptions& options) {
  thread_local LpWorkspace ws;
  return options.workspace != nullptr ? *options.workspace : ws;
}

// Builds the normalised problem from points given relative to a provisional origin `o` (world =
// rel + o) by `relA(i)` / `relB(j)`, then solves it.
template <int N, class VecN, class RelA, class RelB>
LpResult solve(int nA, int nB, const VecN& o, RelA relA, RelB relB, const Settings::Lp& settings,
               const LpOptions& options) {
  LpResult r;
  if (nA == 0 || nB == 0) return r;  // nothing to collide with: objective 2, separated
  const int m = nA + nB;
  LpWorkspace& ws = defaultWorkspace(options);
  ws.reserve(N, static_cast<size_t>(m));
  Real* c = ws.coords();

  VecN lo(0.0), hi(0.0);
  auto store = [&](int j, const VecN& p) {
    for (int d = 0; d < N; ++d) c[d * m + j] = p[d];
    if (j == 0) {
      lo = p;
      hi = p;
    } else {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  };
  for (int i = 0; i < nA; ++i) store(i, relA(i));
  for (int j = 0; j < nB; ++j) store(nA + j, relB(j));

  VecN centre = 0.5 * (lo + hi);
  Real h = 0.0, magnitude = 0.0;
  for (int d = 0; d < N; ++d) {
    h = std::max(h, 0.5 * (hi[d] - lo[d]));
    magnitude = std::max({magnitude, std::abs(lo[d] + o[d]), std::abs(hi[d] + o[d])});
  }
  r.scale = h;
  // All points agree to relative precision epsilon: one point, which intersects itself. This is
  // the article's one-point shortcut, with absolute differences.
  if (h <= settings.epsilon * magnitude || h == 0.0) {
    r.intersect = true;
    r.objective = 0.0;
    return r;
  }
  if (nA == 1 && nB == 1) {  // two distinct points: the LP's minimum is x = 0, objective 2
    r.intersect = false;
    r.objective = 2.0;
    return r;
  }

  Real inv = 1.0 / h;
  for (int j = 0; j < m; ++j) {
    Real sign = j < nA ? 1.0 : -1.0;
    for (int d = 0; d < N; ++d) c[d * m + j] = sign * ((c[d * m + j] - centre[d]) * inv);
  }
  Problem<N> p;
  p.coords = c;
  p.nA = nA;
  p.m = m;
  Simplex<N> simplex(p, settings.epsilon, settings.maxPivots, options.pricing);
  LpResult s = simplex.run();
  s.scale = h;
  return s;
}

}  // namespace

LpResult lpIntersect(std::span<const Vec3> a, const Transform& xa, std::span<const Vec3> b,
                     const Transform& xb, const Settings::Lp& settings, const LpOptions& options) {
  if (a.empty() || b.empty()) return LpResult{};
  // Provisional origin: the first point of A in the world, so that world points near it subtract
  // exactly (Sterbenz) and far offsets cost no precision.
  const Vec3 o = xa.apply(a[0]);
  const Vec3 da = xa.position - o, db = xb.position - o;
  return solve<3>(
      static_cast<int>(a.size()), static_cast<int>(b.size()), o,
      [&](int i) { return xa.rotate(a[static_cast<size_t>(i)]) + da; },
      [&](int j) { return xb.rotate(b[static_cast<size_t>(j)]) + db; }, settings, options);
}

LpResult lpIntersect(std::span<const Vec3> a, std::span<const Vec3> b, const Settings::Lp& settings,
                     const LpOptions& options) {
  if (a.empty() || b.empty()) return LpResult{};
  const Vec3 o = a[0];
  return solve<3>(
      static_cast<int>(a.size()), static_cast<int>(b.size()), o,
      [&](int i) { return a[static_cast<size_t>(i)] - o; },
      [&](int j) { return b[static_cast<size_t>(j)] - o; }, settings, options);
}

LpResult lpIntersect2d(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b,
                       const Settings::Lp& settings, const LpOptions& options) {
  if (a.empty() || b.empty()) return LpResult{};
  const glm::dvec2 o = a[0];
  return solve<2>(
      static_cast<int>(a.size()), static_cast<int>(b.size()), o,
      [&](int i) { return a[static_cast<size_t>(i)] - o; },
      [&](int j) { return b[static_cast<size_t>(j)] - o; }, settings, options);
}

LpResult lpContainsPoint(std::span<const Vec3> polytope, const Vec3& point,
                         const Settings::Lp& settings, const LpOptions& options) {
  return lpIntersect(std::span<const Vec3>(&point, 1), polytope, settings, options);
}

LpSubsetResult lpSubset(std::span<const Vec3> inner, std::span<const Vec3> outer,
                        const Settings::Lp& settings, const LpOptions& options) {
  LpSubsetResult r;
  for (size_t i = 0; i < inner.size(); ++i) {
    LpResult p = lpContainsPoint(outer, inner[i], settings, options);
    r.pivots += p.pivots;
    if (p.status == LpStatus::MaxPivots) r.status = LpStatus::MaxPivots;
    if (!p.intersect) {
      r.subset = false;
      r.outside = i;
      break;
    }
  }
  return r;
}

}  // namespace tumble
