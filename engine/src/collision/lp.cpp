// The vertex LP collision test: Kreuzer, "On Convex Polytopes, Collision Detection, and the Simplex
// Method" (CodeProject 2016), problem P2, solved by a revised simplex method with an explicit basis
// inverse (Chvatal, "Linear Programming", ch. 7) and Bland's rule against cycling (Bland 1977).
//
// The LP (dimension n = 2 or 3, m = |S| + |T| columns, k = n + 2 rows):
//   minimise e^T (b - A x)  subject to  A x <= b, x >= 0,
// where column j of A is (s_j, 1, 0) for a point of S and (-t_j, 0, 1) for a point of T, and
// b = (0, ..., 0, 1, 1): the first n rows are the coordinates of sum(l_i s_i) - sum(m_j t_j), the
// last two the convexity rows. The minimum is 0 exactly when 0 lies in conv(S) - conv(T).
//
// The simplex method starts from the slack basis (x = 0), prices with Dantzig's rule while the
// objective decreases and with Bland's rule (lowest index enters; among the rows tied in Harris's
// two-pass ratio test the lowest basic index leaves, skipping pivots under 1% of the largest)
// after any degenerate pivot, which keeps it from cycling; `LpPricing::Bland` uses Bland's rule
// throughout. It is a revised simplex with the explicit k x k basis inverse (k <= 5, the dense
// tableau of the slack columns), refactorised every 32 pivots, so one pivot costs O(k m) for
// pricing plus O(k^2). Guards against rounding in ill-conditioned bases near contact (each found
// by a failing random case): basic columns and the column that just left never enter; a column
// whose best pivot is under 1e-4 is passed over for one with a sound pivot when there is one;
// the zero of reduced costs scales with |y|; after 50 degenerate pivots in a row the basic values
// are perturbed once by 1% of epsilon (removed at the end). Before a verdict the basic values
// and duals are recomputed from the basis (with one step of iterative refinement) when the
// product-form updates may have drifted, and the verdict needs a certificate computed from the
// points: "intersect" a feasible x whose residual b - A x is within epsilon, "separated" the
// duals' plane with A and B on its two sides. A run without one (near-duplicate points make
// bases of condition 1e13) is solved again in long double, and then, still without one, with
// the sets swapped; `pivots` counts every run, and the cap covers them all.
#include "tumble/lp.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace tumble {
namespace {

// Why an intersect verdict bounds the distance: with residual r = b - A x >= 0, sigma = sum(l) =
// 1 - r_n, tau = sum(m) = 1 - r_n+1, p = sum(l s)/sigma and q = sum(m t)/tau (points of the two
// hulls, |p|, |q| <= sqrt(n) after normalisation), sigma p - tau q = -r_coords gives
// |p - q| <= |r_coords| + r_n |p| + r_n+1 |q| <= sqrt(n) * objective. So objective <= eps means
// dist <= sqrt(3) eps h. Conversely at an intersecting pair the minimum is 0, and stopping with all
// reduced costs >= -eps/4 leaves an objective <= eps/2 (the structurals sum to <= 2).

constexpr Real kPivotZero = 1e-9;   // smaller pivot elements (normalised data) count as 0
constexpr Real kSmallPivot = 1e-4;  // a pivot this small is taken only when no other is
// Rows with alpha <= kPivotZero neither bound the step nor pivot: such an alpha is noise, or a
// real but tiny one whose row then goes at most theta * kPivotZero negative (clamped to 0).
constexpr Real kAlphaZero = kPivotZero;
constexpr Real kPrimalTol = 1e-12;  // Harris's delta: x_B may dip this far below 0
// Smallest pivot Bland's rule may take in a tie, relative to the largest candidate.
constexpr Real kBlandRelativePivot = 1e-2;
constexpr int kRefactorPeriod = 32;  // pivots between recomputations of the basis inverse
// Consecutive degenerate pivots after which Bland's rule takes over (until the objective drops).
constexpr int kDegenerateRunForBland = 1;
// Degenerate pivots in a row after which the basic values are perturbed (once), and by how much,
// relative to epsilon.
constexpr int kPerturbAfter = 50;
constexpr Real kPerturbation = 0.01;
// Times per query that the column which just left may be priced again before optimality.
constexpr int kMaxReadmissions = 4;
// The verdict is read from x_B only while its estimated drift is below this fraction of epsilon.
constexpr Real kDriftForVerdict = 1e-3;

// Normalised LP data: coordinates of column j in coords[d * m + j] (S columns +s, T columns -t);
// column j < nA has a 1 in convexity row n, the others in row n + 1.
template <int N>
struct Problem {
  const Real* coords = nullptr;
  int nA = 0;
  int m = 0;
};

template <int N, class T>
class Simplex {
 public:
  static constexpr int K = N + 2;

  Simplex(const Problem<N>& p, T eps, int maxPivots, LpPricing pricing)
      : p_(p), eps_(eps), maxPivots_(maxPivots), pricing_(pricing) {
    tolDual_ = std::max<T>(0.25 * eps, 1e-13);
    tolDegenerate_ = 1e-3 * eps;
    startFromSlacks();
  }

  LpResult run() {
    LpResult r;
    bool bland = pricing_ == LpPricing::Bland;
    T objective = objectiveValue();
    int degenerateRun = 0;
    bool perturbed = false;
    int readmissions = 0;
    computeDuals();
    // A verdict is not given on x_B and duals that may have drifted by more than a thousandth of
    // epsilon since they were last computed afresh from the basis (drift_, see pivot()); they
    // are recomputed first. The product-form updates drift after pivots through an
    // ill-conditioned basis: fuzz_narrowphase found pairs (1024 m across, 0.039 m deep) whose
    // pivots passed through reduced costs of 1e13 and then stopped "optimal" at an objective of
    // 5.7e-4. A well-conditioned run drifts by about 1e-14 and skips the recomputation (it would
    // cost a quarter of a small query). Whether the verdict is then backed by a certificate is
    // certified() (solve() solves again in extended precision when it is not).
    auto fresh = [&] { return drift_ <= kDriftForVerdict * eps_; };
    auto refresh = [&] {
      refactor();
      computeDuals();
      objective = objectiveValue();
      justLeft_ = -1;  // its exclusion guards against noisy duals; these are fresh
    };
    for (;;) {
      if (objective <= eps_) {  // the zero: intersect, no need to go on (article's loop test)
        if (!fresh()) {
          refresh();
          continue;
        }
        break;
      }
      if (r.pivots >= maxPivots_) {
        r.status = LpStatus::MaxPivots;
        break;
      }
      int q = bland ? priceBland(0) : priceDantzig();
      // Optimality is only judged over every nonbasic column: the one that just left may come
      // back (a few times per query, against 2-cycles of noise). fuzz_narrowphase: after a
      // recomputation one more pivot, and then the just-left column was the improving one of a
      // pair 0.039 m deep that stopped at 5.7e-4.
      if (q < 0 && justLeft_ >= 0 && readmissions < kMaxReadmissions &&
          reducedCost(justLeft_) < -tolDualNow_) {
        ++readmissions;
        q = justLeft_;
      }
      if (q < 0) {  // every reduced cost >= -tolDual: optimal
        if (!fresh()) {
          refresh();
          continue;
        }
        break;
      }
      std::array<T, K> alpha = column(q);
      int row = ratioTest(alpha, bland);
      // The feasible set is bounded, so an improving column has a positive pivot in exact
      // arithmetic; none above the pivot zero, or only a tiny one, means the column's reduced
      // cost is mostly rounding noise, and pivoting on it would leave an ill-conditioned basis
      // whose noisy reduced costs can cycle. Look for a column with a sound pivot by Bland's
      // rule; failing that keep the small pivot, and with none at all stop (optimal to working
      // precision).
      if (row < 0 || alpha[row] < kSmallPivot) {
        for (int q2 = priceBland(q + 1); q2 >= 0; q2 = priceBland(q2 + 1)) {
          std::array<T, K> a2 = column(q2);
          int r2 = ratioTest(a2, true);
          if (r2 < 0) continue;
          if (row < 0 || a2[r2] >= kSmallPivot) {  // the first usable, or the first sound one
            q = q2;
            alpha = a2;
            row = r2;
            if (alpha[row] >= kSmallPivot) break;
          }
        }
      }
      if (row < 0) {
        if (!fresh()) {
          refresh();
          continue;
        }
        break;
      }
      T theta = xb_[row] / alpha[row];
      const T dq = reducedCost(q);
      justLeft_ = basic_[row];
      pivot(row, q, alpha);
      ++r.pivots;
      if (r.pivots % kRefactorPeriod == 0) {
        refresh();
      } else {
        updateDuals(dq, row);
      }
      objective = objectiveValue();
      degenerateRun = theta <= tolDegenerate_ ? degenerateRun + 1 : 0;
      if (pricing_ == LpPricing::DantzigBland) bland = degenerateRun >= kDegenerateRunForBland;
      // Bland's rule cannot cycle in exact arithmetic, but rounding in an ill-conditioned basis
      // can make it stall. A long degenerate run gets the classic cure once: shift the basic
      // values by distinct tiny amounts (a perturbation of b by B delta, far below epsilon), which
      // makes the next pivots non-degenerate; the true values are restored at the end.
      if (degenerateRun == kPerturbAfter && !perturbed) {
        perturbed = true;
        for (int i = 0; i < K; ++i) xb_[i] += kPerturbation * eps_ * (1.0 + i) / K;
        objective = objectiveValue();
      }
    }
    if (perturbed) {
      refactor();  // x_B = B^-1 b without the shift
      objective = objectiveValue();
    }
    // "Intersect" is only said of basic values whose residual, computed from the columns
    // themselves, is within epsilon too: that is what bounds the distance (top of this file).
    const T checked = residual();
    // Reported within the objective's range [0, 2]: a residual from drifted values can be any
    // size (7.1 for regression-lp-range).
    if (objective <= eps_ && checked > eps_) objective = std::min<T>(checked, 2.0);
    r.objective = static_cast<Real>(objective);
    r.intersect = objective <= eps_;
    certified_ = r.status == LpStatus::MaxPivots ||
                 (!infeasible_ && (r.intersect ? checked <= eps_ : separates()));
    return r;
  }

  /// After run(): the verdict is backed by a certificate computed from the points themselves:
  /// "intersect" by a feasible x whose residual b - A x is within epsilon, "separated" by the
  /// duals' plane, which has all of A on one side and all of B on the other (separates()); and
  /// no recomputation found the basis infeasible (B^-1 b < -epsilon). A run stopped by the pivot
  /// cap counts as certified (the cap is the caller's budget).
  bool certified() const { return certified_; }

 private:
  // sum |b - A x| for the current basic values, from the columns (not from B^-1): the tracked
  // slacks equal it only while B^-1 is accurate. Through a basis of condition 1e15 (a 1.9e-9
  // pivot, fuzz_narrowphase) the recomputed slacks summed to 5e-17 for a point 0.24 m or more
  // outside the other polytope; its residual is large, so that verdict is not certified.
  T residual() const {
    const std::array<T, K> res = residualVector();
    T sum = 0.0;
    for (int i = 0; i < K; ++i) sum += std::abs(res[i]);
    return sum;
  }

  // b - B x_B, from the basic columns themselves.
  std::array<T, K> residualVector() const {
    std::array<T, K> res{};
    res[N] = 1.0;
    res[N + 1] = 1.0;
    for (int c = 0; c < K; ++c) {
      const int j = basic_[c];
      if (j >= p_.m) {
        res[j - p_.m] -= xb_[c];
      } else {
        for (int d = 0; d < N; ++d) res[d] -= xb_[c] * coord(d, j);
        res[convexityRow(j)] -= xb_[c];
      }
    }
    return res;
  }

  // Do the duals certify "separated"? Their first N components are the normal of a plane that
  // must have all of A on one side and all of B on the other, with a positive gap, computed
  // from the points themselves: the reduced costs that pricing checked only bound it through
  // y_N + y_N+1, which is as inaccurate as B^-1. In a basis of two pairs of near-duplicate
  // points (condition about 1e13, fuzz_narrowphase) a basic column's reduced cost, which
  // pricing never looks at, read -7.8e-4, and the LP called a pair 0.039 m deep separated.
  bool separates() const {
    T topA = -std::numeric_limits<T>::max(), bottomB = std::numeric_limits<T>::max();
    for (int j = 0; j < p_.m; ++j) {
      if (j < p_.nA)
        topA = std::max(topA, dot(j));
      else
        bottomB = std::min(bottomB, -dot(j));  // B's columns hold -t
    }
    return bottomB - topA > 0.0;
  }

  // The slack basis: B = I, x_B = b (0 for the coordinate rows, 1 for the convexity rows).
  void startFromSlacks() {
    for (int i = 0; i < K; ++i) {
      for (int l = 0; l < K; ++l) binv_[i][l] = i == l ? 1.0 : 0.0;
      basic_[i] = p_.m + i;
      xb_[i] = i < N ? 0.0 : 1.0;
    }
    justLeft_ = -1;
    drift_ = 0.0;
    infeasible_ = false;
  }

  T coord(int d, int j) const { return p_.coords[d * p_.m + j]; }
  int convexityRow(int j) const { return j < p_.nA ? N : N + 1; }
  bool isBasic(int j) const {
    for (int i = 0; i < K; ++i)
      if (basic_[i] == j) return true;
    return false;
  }
  // Columns that may not enter: basic ones, and the one that left at the last pivot. In exact
  // arithmetic the leaving column's reduced cost becomes -d_q / alpha_r > 0, so an immediate
  // re-entry is rounding noise of an ill-conditioned basis, and would start a cycle.
  bool excluded(int j) const { return j == justLeft_ || isBasic(j); }

  // The objective is the sum of the slacks (= e^T (b - A x)); only basic slacks are nonzero.
  T objectiveValue() const {
    T f = 0.0;
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
    // Reduced costs carry rounding proportional to |y|, which an ill-conditioned basis inflates:
    // the dual zero scales with it.
    T yMax = 1.0;
    for (int l = 0; l < K; ++l) yMax = std::max(yMax, std::abs(y_[l]));
    tolDualNow_ = tolDual_ * yMax;
  }

  // After a pivot on `row` with entering reduced cost dq: y' = y + dq * (new row of B^-1), the
  // product-form update of the duals (Chvatal ch. 7); drift is reset at each refactorisation.
  void updateDuals(T dq, int row) {
    T yMax = 1.0;
    for (int l = 0; l < K; ++l) {
      y_[l] += dq * binv_[row][l];
      yMax = std::max(yMax, std::abs(y_[l]));
    }
    tolDualNow_ = tolDual_ * yMax;
  }

  // Reduced cost of structural j: 0 - y^T a_j. Of slack l: 1 - y_l.
  T reducedCost(int j) const {
    if (j >= p_.m) return 1.0 - y_[j - p_.m];
    T s = y_[convexityRow(j)];
    for (int d = 0; d < N; ++d) s += y_[d] * coord(d, j);
    return -s;
  }

  // The most negative reduced cost. Per set this is a support query: the S column maximising
  // y_c . s_j and the T column maximising y_c . (-t_j). The maximum is found branch-free with four
  // independent lanes, then the first column reaching it (the same expression, so the same
  // rounding): ties go to the lowest index, as in a plain scan.
  T dot(int j) const {
    T v = y_[0] * p_.coords[j] + y_[1] * p_.coords[p_.m + j];
    if constexpr (N == 3) v += y_[2] * p_.coords[2 * p_.m + j];
    return v;
  }

  // Kept out of line: inlined into run() it measured 20% slower at 512 points (register spills).
  [[gnu::noinline]] int argmaxDot(int lo, int hi, T& best) const {
    if (lo >= hi) return -1;
    T m0 = dot(lo);
    int i0 = lo;
    int j = lo + 1;
#if defined(__GNUC__)
    // Two columns per SSE2 register (GCC/Clang vector extensions; -O2 does not vectorise this
    // loop by itself), four lanes in two registers; the same comparisons as the scalar loop.
    using V2 = Real __attribute__((vector_size(16)));
    using I2 = long long __attribute__((vector_size(16)));
    // Double data only (the extended-precision re-solve scans scalar); below 16 columns the lane
    // merge costs more than it saves.
    if constexpr (std::is_same_v<T, Real>)
      if (hi - j >= 16) {
        const Real* c0 = p_.coords;
        const Real* c1 = p_.coords + p_.m;
        const Real* c2 = N == 3 ? p_.coords + 2 * p_.m : nullptr;
        const V2 ya = {y_[0], y_[0]}, yb = {y_[1], y_[1]},
                 yc = {y_[N == 3 ? 2 : 0], y_[N == 3 ? 2 : 0]};
        V2 ma = {m0, m0}, mb = ma;
        I2 ia = {i0, i0}, ib = ia;
        I2 ja = {j, j + 1}, jb = {j + 2, j + 3};
        const I2 step = {4, 4};
        auto load = [](const Real* p) {
          V2 v;
          std::memcpy(&v, p, sizeof v);
          return v;
        };
        for (; j + 4 <= hi; j += 4) {
          V2 va = ya * load(c0 + j) + yb * load(c1 + j);
          V2 vb = ya * load(c0 + j + 2) + yb * load(c1 + j + 2);
          if constexpr (N == 3) {
            va += yc * load(c2 + j);
            vb += yc * load(c2 + j + 2);
          }
          const I2 ga = va > ma, gb = vb > mb;
          ia = ga ? ja : ia;
          ma = ga ? va : ma;
          ib = gb ? jb : ib;
          mb = gb ? vb : mb;
          ja += step;
          jb += step;
        }
        const Real ms[4] = {ma[0], ma[1], mb[0], mb[1]};
        const int is[4] = {static_cast<int>(ia[0]), static_cast<int>(ia[1]),
                           static_cast<int>(ib[0]), static_cast<int>(ib[1])};
        for (int l = 0; l < 4; ++l)
          if (ms[l] > m0 || (ms[l] == m0 && is[l] < i0)) {
            m0 = ms[l];
            i0 = is[l];
          }
      }
#endif
    for (; j < hi; ++j) {
      const T v = dot(j);
      if (v > m0) {
        m0 = v;
        i0 = j;
      }
    }
    best = m0;
    return i0;
  }

  // The same without the excluded columns: the rare case where the branch-free maximum landed
  // on one.
  int argmaxDotNonbasic(int lo, int hi, T& best) const {
    int idx = -1;
    for (int j = lo; j < hi; ++j) {
      if (excluded(j)) continue;
      T v = dot(j);
      if (idx < 0 || v > best) {
        best = v;
        idx = j;
      }
    }
    return idx;
  }

  int priceDantzig() const {
    int q = -1;
    T best = -tolDualNow_;
    for (int part = 0; part < 2; ++part) {
      int lo = part == 0 ? 0 : p_.nA, hi = part == 0 ? p_.nA : p_.m;
      T dot = 0.0;
      int j = argmaxDot(lo, hi, dot);
      T d = -(y_[N + part] + dot);
      // The maximum on a basic column (reduced cost 0) means no column of this set improves,
      // unless rounding made that 0 negative: only then look past the excluded columns.
      if (j >= 0 && d < best && excluded(j)) {
        j = argmaxDotNonbasic(lo, hi, dot);
        d = -(y_[N + part] + dot);
      }
      if (j >= 0 && d < best) {
        best = d;
        q = j;
      }
    }
    for (int l = 0; l < K; ++l) {
      T d = 1.0 - y_[l];
      if (d < best && !excluded(p_.m + l)) {
        best = d;
        q = p_.m + l;
      }
    }
    return q;
  }

  int priceBland(int start) const {
    for (int j = start; j < p_.m + K; ++j) {
      if (j >= p_.m && excluded(j)) continue;
      T d = reducedCost(j);
      // A basic column's reduced cost is 0 up to rounding; an ill-conditioned basis can make the
      // rounding exceed the tolerance, and pivoting a basic column on itself would cycle.
      if (d < -tolDualNow_ && !excluded(j)) return j;
    }
    return -1;
  }

  // B^-1 a_q.
  std::array<T, K> column(int q) const {
    std::array<T, K> a{};
    if (q >= p_.m) {
      for (int i = 0; i < K; ++i) a[i] = binv_[i][q - p_.m];
      return a;
    }
    int cr = convexityRow(q);
    for (int i = 0; i < K; ++i) {
      T s = binv_[i][cr];
      for (int d = 0; d < N; ++d) s += binv_[i][d] * coord(d, q);
      a[i] = s;
    }
    return a;
  }

  // Harris's two-pass ratio test (Harris 1973): the step bound theta_max = min (x_i + delta) /
  // alpha_i over alpha_i > tolPivot, then among the rows whose ratio is within it the pivot:
  // the largest alpha (stability), or under Bland's rule the lowest basic index among the rows
  // whose alpha is at least kBlandRelativePivot of the largest. Plain Bland would take a 1e-6
  // pivot over a 1.0 one in a degenerate tie, and the basis inverse would never recover.
  int ratioTest(const std::array<T, K>& alpha, bool bland) const {
    // Candidates only: alpha <= kPivotZero (= kAlphaZero) neither bounds nor pivots. Ratios are
    // compared as products (x_i <= theta_max alpha_i) so that each row costs one division.
    T thetaMax = std::numeric_limits<T>::max();
    for (int i = 0; i < K; ++i)
      if (alpha[i] > kAlphaZero) thetaMax = std::min(thetaMax, (xb_[i] + kPrimalTol) / alpha[i]);
    bool tied[K];
    T maxAlpha = 0.0;
    for (int i = 0; i < K; ++i) {
      tied[i] = alpha[i] > kPivotZero && xb_[i] <= thetaMax * alpha[i];
      if (tied[i]) maxAlpha = std::max(maxAlpha, alpha[i]);
    }
    if (maxAlpha == 0.0) return -1;
    int row = -1;
    for (int i = 0; i < K; ++i) {
      if (!tied[i]) continue;
      if (bland) {
        if (alpha[i] >= kBlandRelativePivot * maxAlpha && (row < 0 || basic_[i] < basic_[row]))
          row = i;
      } else if (alpha[i] == maxAlpha) {
        return i;
      }
    }
    return row;
  }

  void pivot(int row, int q, const std::array<T, K>& alpha) {
    T inv = 1.0 / alpha[row];
    T rowMax = std::abs(xb_[row] *= inv), alphaMax = 0.0;
    for (int l = 0; l < K; ++l) rowMax = std::max(rowMax, std::abs(binv_[row][l] *= inv));
    for (int i = 0; i < K; ++i) alphaMax = std::max(alphaMax, std::abs(alpha[i]));
    // Each update below subtracts products of up to alphaMax * rowMax, each rounded by an ulp.
    drift_ += std::numeric_limits<T>::epsilon() * alphaMax * rowMax;
    for (int i = 0; i < K; ++i) {
      if (i == row || alpha[i] == 0.0) continue;
      T f = alpha[i];
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
    drift_ = 0.0;  // also when B looks singular: the old inverse is then the best there is
    T m[K][2 * K];
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
      T inv = 1.0 / m[c][c];
      for (int l = 0; l < 2 * K; ++l) m[c][l] *= inv;
      for (int i = 0; i < K; ++i) {
        if (i == c || m[i][c] == 0.0) continue;
        T f = m[i][c];
        for (int l = 0; l < 2 * K; ++l) m[i][l] -= f * m[c][l];
      }
    }
    // Row c of the reduced matrix is row c of B^-1 (basis position c).
    for (int i = 0; i < K; ++i) {
      for (int l = 0; l < K; ++l) binv_[i][l] = m[i][K + l];
      xb_[i] = binv_[i][N] + binv_[i][N + 1];
    }
    // One step of iterative refinement, x_B += B^-1 (b - B x_B) with the residual from the
    // columns: in a basis of condition 1e6 (a 1e-6 pivot) x_B = B^-1 b is off by 1e-9, the size
    // of epsilon, and an intersecting pair 2.5e-7 of its size deep read as separated (fuzz).
    const std::array<T, K> res = residualVector();
    for (int i = 0; i < K; ++i) {
      T dx = 0.0;
      for (int l = 0; l < K; ++l) dx += binv_[i][l] * res[l];
      const T x = xb_[i] + dx;
      if (x < -eps_) infeasible_ = true;
      xb_[i] = std::max<T>(0.0, x);
    }
  }

  Problem<N> p_;
  T eps_;
  int maxPivots_;
  LpPricing pricing_;
  T tolDual_ = 0.0, tolDualNow_ = 0.0, tolDegenerate_ = 0.0;
  T binv_[K][K];
  std::array<T, K> xb_{};
  std::array<T, K> y_{};
  int basic_[K];
  int justLeft_ = -1;
  T drift_ = 0.0;            // bound on the rounding x_B and B^-1 gathered since the last refactor
  bool infeasible_ = false;  // a refactorisation found B^-1 b < -epsilon
  bool certified_ = false;
};

LpWorkspace& defaultWorkspace(const LpOptions& options) {
  thread_local LpWorkspace ws;
  return options.workspace != nullptr ? *options.workspace : ws;
}

// Builds the normalised problem from points given relative to some provisional origin by
// `relA(i)` / `relB(j)`, then solves it.
//
// Numerics (not in the article): the verdict is translation and scale invariant, so before
// building the LP every point is translated by the centre c of the bounding box of both sets and
// divided by its half-extent h (the largest half side): coordinates lie in [-1, 1]. All
// tolerances are relative to that normalised problem, i.e. to h: `lp.epsilon` is the zero of the
// objective (intersect when objective <= epsilon) and, divided by 4, of reduced costs; pivot
// elements below 1e-9 count as zero. An intersect verdict implies a Euclidean distance
// <= sqrt(3) * epsilon * h between the sets (derivation at the top of this file).
template <int N, class VecN, class RelA, class RelB>
LpResult solve(int nA, int nB, RelA relA, RelB relB, const Settings::Lp& settings,
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
  Real h = 0.0;
  for (int d = 0; d < N; ++d) h = std::max(h, 0.5 * (hi[d] - lo[d]));
  r.scale = h;
  // Every point is the same point: it intersects itself. Relative to the pair's own size any
  // other difference is a full separation, which is what the article's one-point shortcut
  // should say (it compared signed differences, so (0,0,0) "equalled" (5,5,5)).
  if (h == 0.0) {
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
  Simplex<N, Real> simplex(p, settings.epsilon, settings.maxPivots, options.pricing);
  LpResult s = simplex.run();
  bool certified = simplex.certified();
  // Near-duplicate points (1e-4 of the pair's size apart, fuzz_narrowphase) make bases of
  // condition 1e13, where double precision cannot back its verdict; long double (64-bit
  // mantissa on x86-64, 11 bits more) solves most such findings. Rare: only uncertified runs.
  // The pivot cap covers every run.
  auto again = [&](const Problem<N>& problem) {
    Simplex<N, long double> precise(problem, settings.epsilon, settings.maxPivots - s.pivots,
                                    options.pricing);
    const int before = s.pivots;
    s = precise.run();
    s.pivots += before;
    certified = precise.certified();
  };
  if (!certified && s.pivots < settings.maxPivots) again(p);
  // Last, the same question with the sets swapped (B's columns first, signs flipped): the pivot
  // rules' ties then take another path through other bases. A pair 49 m deep (1024 m across)
  // ended 1.25e-9 above epsilon without a certificate in long double too; swapped, it is found.
  if (!certified && s.pivots < settings.maxPivots) {
    std::vector<Real> swapped(static_cast<size_t>(N * m));
    for (int d = 0; d < N; ++d)
      for (int j = 0; j < m; ++j)
        swapped[static_cast<size_t>(d * m + j)] = -c[d * m + (j < nB ? nA + j : j - nB)];
    Problem<N> other;
    other.coords = swapped.data();
    other.nA = nB;
    other.m = m;
    again(other);
  }
  // The cap stopped the search for a certified verdict: say so (regression-lp-cap: at cap 8 the
  // long double run ended "separated" 1.9e-9 above epsilon without a plane, 0.00095 m deep).
  if (!certified && s.pivots >= settings.maxPivots) s.status = LpStatus::MaxPivots;
  // Still uncertified: two fuzz_narrowphase findings (0.031 and 10.7 m deep, objectives
  // 1.1-1.9e-9) end here in every run; LpResult::certified says their verdict may be wrong.
  s.certified = certified;
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
  return solve<3, Vec3>(
      static_cast<int>(a.size()), static_cast<int>(b.size()),
      [&](int i) { return xa.rotate(a[static_cast<size_t>(i)]) + da; },
      [&](int j) { return xb.rotate(b[static_cast<size_t>(j)]) + db; }, settings, options);
}

LpResult lpIntersect(std::span<const Vec3> a, std::span<const Vec3> b, const Settings::Lp& settings,
                     const LpOptions& options) {
  if (a.empty() || b.empty()) return LpResult{};
  const Vec3 o = a[0];
  return solve<3, Vec3>(
      static_cast<int>(a.size()), static_cast<int>(b.size()),
      [&](int i) { return a[static_cast<size_t>(i)] - o; },
      [&](int j) { return b[static_cast<size_t>(j)] - o; }, settings, options);
}

LpResult lpIntersect2d(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b,
                       const Settings::Lp& settings, const LpOptions& options) {
  if (a.empty() || b.empty()) return LpResult{};
  const glm::dvec2 o = a[0];
  return solve<2, glm::dvec2>(
      static_cast<int>(a.size()), static_cast<int>(b.size()),
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
