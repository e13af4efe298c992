#pragma once
/// GJK on any two convex point sets under rigid transforms: intersection verdict, distance,
/// closest points. Stateless; no heap allocation per query.

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

/// Distance and closest points between A (under `xa`) and B (under `xb`).
/// `warm`, when given, seeds the simplex (e.g. last step's result for the same pair).
GjkResult gjkDistance(const SupportShape& a, const Transform& xa, const SupportShape& b,
                      const Transform& xb, const Settings::Gjk& settings,
                      const GjkSimplex* warm = nullptr);

/// Boolean GJK: stops as soon as a separating direction is found or the origin is enclosed.
/// Cheaper than gjkDistance when only the verdict is needed.
GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings,
                       const GjkSimplex* warm = nullptr);

}  // namespace tumble
