#pragma once
/// GJK on any two convex point sets under rigid transforms: intersection verdict, distance,
/// closest points. Stateless; no heap allocation per query.

#include <vector>

#include "tumble/settings.h"
#include "tumble/support.h"

namespace tumble {

enum class GjkStatus { Separated, Intersecting, MaxIterations };

/// The simplex GJK ended with, as point indices into shape A and shape B. Pass it back as a warm
/// start for the next query on the same pair.
struct GjkSimplex {
  int count = 0;
  int indexA[4] = {0, 0, 0, 0};
  int indexB[4] = {0, 0, 0, 0};
};

struct GjkResult {
  GjkStatus status = GjkStatus::Separated;
  Real distance = 0.0;  ///< 0 when intersecting; with MaxIterations, the best estimate so far
  Vec3 pointA{0.0};     ///< closest point on A, world space
  Vec3 pointB{0.0};     ///< closest point on B, world space
  int iterations = 0;
  GjkSimplex simplex;

  bool intersecting() const { return status == GjkStatus::Intersecting; }
};

/// One GJK iteration as recorded for the demo's GJK viewer.
struct GjkTraceStep {
  int count = 0;        ///< simplex size after this step, 1..4
  Vec3 vertices[4];     ///< simplex points of the Minkowski difference A - B (world axes, m)
  Vec3 support{0.0};    ///< the support point found in this step (the start vertex on step 0)
  Vec3 closest{0.0};    ///< the simplex point closest to the origin (world axes, m)
  Vec3 pointA{0.0};     ///< closest point on A so far, world space
  Vec3 pointB{0.0};     ///< closest point on B so far, world space
  Real distance = 0.0;  ///< |closest|, m
};

/// The iterations of one query, in order (step 0 is the start simplex). Recording allocates;
/// queries without a trace do not.
struct GjkTrace {
  std::vector<GjkTraceStep> steps;
};

/// Distance and closest points between A (under `xa`) and B (under `xb`). Intersecting when the
/// origin is enclosed by the simplex or lies on it up to rounding (touching sets may come out
/// either way, with distance ~0); Separated when the distance converged (gjk.tolerance, relative
/// to the squared distance), the support repeated, or no strict progress was possible;
/// MaxIterations after gjk.max_iterations support evaluations, with the best estimate so far
/// (an upper bound on the distance). Works in A's frame, so large offsets cost no precision
/// beyond the inputs' own. No heap allocation.
/// `warm`, when given, seeds the simplex (e.g. last step's result for the same pair).
GjkResult gjkDistance(const SupportShape& a, const Transform& xa, const SupportShape& b,
                      const Transform& xb, const Settings::Gjk& settings,
                      const GjkSimplex* warm = nullptr);

/// gjkDistance, recording every iteration into `trace` (cleared first) when it is not null.
GjkResult gjkDistance(const SupportShape& a, const Transform& xa, const SupportShape& b,
                      const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                      GjkTrace* trace);

/// Boolean GJK: stops as soon as a separating direction is found or the origin is enclosed.
/// Cheaper than gjkDistance when only the verdict is needed (it keeps only a search direction,
/// no closest point). Same verdict as gjkDistance outside the touching band. When Separated,
/// `pointA` and `pointB` are the support points of A and B along the separating direction found
/// and `distance` is |pointB - pointA|: an upper bound, not the converged distance. When
/// Intersecting, `distance` is 0 and the points are the last support pair. `simplex` is a valid
/// warm start for either query; `warm` seeds the first direction (towards the origin from the
/// warm simplex's closest point); without it the search starts from a point inside A - B (the
/// midpoints of each set's first and last points), which saves a support on overlapping pairs.
GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings,
                       const GjkSimplex* warm = nullptr);

/// gjkIntersect, recording every iteration into `trace` (cleared first) when it is not null; with
/// a trace it runs the closest-point-tracking loop (same verdicts; the points are then those of
/// the last simplex).
GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                       GjkTrace* trace);

}  // namespace tumble
