#pragma once
/// The vertex LP collision test: do conv(S) and conv(T) intersect, decided by linear programming on
/// the points alone (A. M. Kreuzer, "On Convex Polytopes, Collision Detection, and the Simplex
/// Method", CodeProject 2016). Independent of GJK: it is the cross-check that keeps GJK honest.
/// The linear program, the simplex method and its guards against rounding are described in lp.cpp.
///
/// Scale: the verdict is translation and scale invariant. The problem is normalised by h, half the
/// largest side of the bounding box of both sets (LpResult::scale), and every tolerance is
/// relative to h: `lp.epsilon` is the zero of the objective (intersect when objective <= epsilon),
/// and an intersect verdict implies a Euclidean distance <= sqrt(3) * epsilon * h between the sets.
/// Special cases: when h = 0 every point is the same point and the sets intersect (objective 0);
/// two distinct single points are separated with objective 2 (as far apart as points can be
/// relative to their own size); an empty set intersects nothing (separated, objective 2).
///
/// Inputs are point sets of at least one point each with finite coordinates. A verdict is given
/// with a certificate computed from the points (LpResult::certified); `pivots` counts the pivots of
/// every run a query needs and `lp.max_pivots` caps their total.

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
  Real objective = 2.0;    ///< the LP objective at the end (lp.cpp), normalised units, in [0, 2]
  int pivots = 0;          ///< simplex pivots made
  Real scale = 0.0;        ///< m, the half-extent h the problem was normalised by (0: one point)
  /// The verdict has a certificate computed from the points: "intersect" a feasible solution whose
  /// residual is within epsilon, "separated" a plane with A and B on its two sides. False
  /// only when no run found one: the pair is at the LP's numerical floor (near-duplicate points)
  /// and the verdict, objective <= epsilon, may be wrong.
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
