#pragma once
// The boolean GJK fast path: direction-only simplex updates (no barycentric coordinates, no
// closest-point bookkeeping), stopping at the first separating plane or enclosing tetrahedron.
#include "collision/gjk_pair.h"
#include "tumble/gjk.h"

namespace tumble::detail {

/// Runs the boolean GJK in `frame` (A's frame). Returns true with `out` filled when it reached a
/// certified verdict: a support plane that separates (Separated) or a non-degenerate tetrahedron
/// of Minkowski points enclosing the origin (Intersecting). Returns false, leaving `out`
/// unspecified, when rounding stalls it (a repeated support point, a vanishing search direction,
/// a flat tetrahedron) or after `settings.maxIterations` supports: the caller then runs the
/// distance-tracking GJK, whose progress test settles such near-touching pairs.
bool booleanGjk(PairFrame& frame, const Settings::Gjk& settings, const GjkSimplex* warm,
                GjkResult& out);

}  // namespace tumble::detail
