#pragma once
/// The vertex LP collision test: do conv(S) and conv(T) intersect, decided by linear programming on
/// the points alone (A. M. Kreuzer, "On Convex Polytopes, Collision Detection, and the Simplex
/// Method", CodeProject 2016). Independent of GJK: it is the cross-check that keeps GJK honest.
///
/// The LP (dimension n = 2 or 3, m = |S| + |T| columns, k = n + 2 rows):
///   minimise e^T (b - A x)  subject to  A x <= b, x >= 0,
/// where column j of A is (s_j, 1, 0) for a point of S and (-t_j, 0, 1) for a point of T, and
/// b = (0, ..., 0, 1, 1): the first n rows are the coordinates of sum(l_i s_i) - sum(m_j t_j), the
/// last two the convexity rows. The minimum is 0 exactly when 0 lies in conv(S) - conv(T).
///
/// Numerics (not in the article): the verdict is translation and scale invariant, so before
/// building the LP every point is translated by the centre c of the bounding box of both sets
/// and divided by its half-extent h (the largest half side): coordinates lie in [-1, 1]. All
/// tolerances are relative to that normalised problem, i.e. to h: `lp.epsilon` is the zero of
/// the objective (intersect when objective <= epsilon) and, divided by 4, of reduced costs; pivot
/// elements below 1e-9 count as zero. An intersect
/// verdict implies a Euclidean distance <= sqrt(3) * epsilon * h between the sets (see lp.cpp).
/// When h = 0 every point is the same point and the sets intersect. Two distinct single points are
/// separated with objective 2 without building the LP: relative to the pair's own size (h is
/// half their largest coordinate difference) they are as far apart as points can be. This is the
/// article's one-point shortcut with absolute differences; the article compared signed ones,
/// which called (0,0,0) and (5,5,5) equal.
///
/// The simplex method starts from the slack basis (x = 0), prices with Dantzig's rule while the
/// objective decreases and with Bland's rule (lowest index enters; among the rows tied in Harris's
/// two-pass ratio test the lowest basic index leaves, skipping pivots under 1% of the largest)
/// after any degenerate pivot, which keeps it from cycling; `LpPricing::Bland` uses Bland's rule
/// throughout. It is a revised simplex with the explicit k x k basis inverse (k <= 5, the dense
/// tableau of the slack columns), refactorised every 32 pivots, so one pivot costs O(k m) for
/// pricing plus O(k^2). Guards against rounding in ill-conditioned bases near contact (each found
/// by a failing random case): basic columns and the column that just left never enter; a column
/// whose best pivot is under 1e-4 is passed over for one with a sound pivot when there is one;
/// the zero of reduced costs scales with |y|; after 50 degenerate pivots in a row the basic values
/// are perturbed once by 1% of epsilon (removed at the end). Before a verdict the basic values
/// and duals are recomputed from the basis (with one step of iterative refinement) when the
/// product-form updates may have drifted, and the verdict needs a certificate computed from the
/// points: "intersect" a feasible x whose residual b - A x is within epsilon, "separated" the
/// duals' plane with A and B on its two sides. A run without one (near-duplicate points make
/// bases of condition 1e13) is solved again in long double, and then, still without one, with
/// the sets swapped; `pivots` counts every run, and the cap covers them all.
///
/// Inputs are point sets of at least one point each with finite coordinates. An empty set
/// intersects nothing (intersect false, objective 2, as in the article).

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "tumble/math.h"
#include "tumble/settings.h"

namespace tumble {

enum class LpStatus {
  Optimal,   ///< the minimum was reached (or the objective fell to the zero: intersect)
  MaxPivots  ///< `lp.max_pivots` pivots were made; the verdict is from the objective so far
};

struct LpResult {
  LpStatus status = LpStatus::Optimal;
  bool intersect = false;  ///< objective <= lp.epsilon
  Real objective = 2.0;    ///< e^T (b - A x) at the end, in normalised units, in [0, 2]
  int pivots = 0;          ///< simplex pivots made
  Real scale = 0.0;        ///< m, the half-extent h the problem was normalised by (0: one point)
  /// The verdict has a certificate computed from the points (see above). False only when the
  /// double run, the long double run and the swapped problem all ended without one: the pair is
  /// at the LP's numerical floor (near-duplicate points, bases of condition 1e13) and the
  /// verdict, objective <= epsilon, may be wrong. Found by fuzzing at objectives 1.1-1.9e-9.
  bool certified = true;
};

/// Pivot rule of the simplex method.
enum class LpPricing {
  DantzigBland,  ///< most negative reduced cost; Bland's rule after a degenerate pivot (default)
  Bland          ///< Bland's rule at every pivot (slower; the textbook anti-cycling rule)
};

/// Scratch memory of the LP test. Reused between queries, so that after the largest query has
/// been seen no query allocates. One per thread; the functions below use a thread_local one when
/// none is given.
class LpWorkspace {
 public:
  /// Makes room for `columns` columns of `dimension` coordinates.
  void reserve(size_t dimension, size_t columns) {
    if (coords_.size() < dimension * columns) coords_.resize(dimension * columns);
  }
  Real* coords() { return coords_.data(); }

 private:
  std::vector<Real> coords_;  ///< normalised coordinates, one array per dimension (SoA)
};

/// Options of one query that are not settings.
struct LpOptions {
  LpPricing pricing = LpPricing::DantzigBland;
  LpWorkspace* workspace = nullptr;  ///< nullptr: a thread_local workspace
};

/// Do conv(xa(a)) and conv(xb(b)) intersect? `a` and `b` are local points (>= 1 each, finite),
/// placed in the world by the rigid transforms `xa` and `xb`.
LpResult lpIntersect(std::span<const Vec3> a, const Transform& xa, std::span<const Vec3> b,
                     const Transform& xb, const Settings::Lp& settings,
                     const LpOptions& options = {});

/// Do conv(a) and conv(b) intersect? World-space points (>= 1 each, finite).
LpResult lpIntersect(std::span<const Vec3> a, std::span<const Vec3> b, const Settings::Lp& settings,
                     const LpOptions& options = {});

/// The same test in the plane.
LpResult lpIntersect2d(std::span<const glm::dvec2> a, std::span<const glm::dvec2> b,
                       const Settings::Lp& settings, const LpOptions& options = {});

/// Point in polytope (the article's derived query): is `point` in conv(polytope)? `intersect` of
/// the result is the answer.
LpResult lpContainsPoint(std::span<const Vec3> polytope, const Vec3& point,
                         const Settings::Lp& settings, const LpOptions& options = {});

struct LpSubsetResult {
  LpStatus status = LpStatus::Optimal;  ///< MaxPivots if any point's LP hit the cap
  bool subset = true;
  std::optional<size_t> outside;  ///< when !subset, the index of the first point of `inner` outside
  int pivots = 0;                 ///< total over the points tested
};

/// Polytope subset (the article's derived query): is conv(inner) a subset of conv(outer)? True
/// exactly when every point of `inner` lies in conv(outer); stops at the first point outside.
/// An empty `inner` is a subset of anything; a non-empty one is not a subset of an empty `outer`.
LpSubsetResult lpSubset(std::span<const Vec3> inner, std::span<const Vec3> outer,
                        const Settings::Lp& settings, const LpOptions& options = {});

}  // namespace tumble
