#pragma once
/// EPA: penetration depth, normal and witness points of two overlapping convex point sets.

#include "tumble/gjk.h"

namespace tumble {

enum class EpaStatus { Converged, MaxIterations, Touching };

struct EpaResult {
  EpaStatus status = EpaStatus::Converged;
  Real depth = 0.0;   ///< >= 0, the minimum translation distance
  Vec3 normal{0.0, 1.0, 0.0};  ///< unit, points from A towards B: moving B by depth*normal separates
  Vec3 pointA{0.0};   ///< deepest point of A inside B, world space
  Vec3 pointB{0.0};   ///< deepest point of B inside A, world space
  int iterations = 0;
};

/// Expands GJK's final simplex (`gjk` must be Intersecting) to the penetration depth. Touching
/// and degenerate (flat, needle, point) cases give a defined unit normal and depth >= 0, never NaN.
EpaResult epaPenetration(const SupportShape& a, const Transform& xa, const SupportShape& b,
                         const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk);

}  // namespace tumble
