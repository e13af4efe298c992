#pragma once
/// EPA: penetration depth, normal and witness points of two overlapping convex point sets.

#include <array>
#include <vector>

#include "tumble/gjk.h"

namespace tumble {

enum class EpaStatus { Converged, MaxIterations, Touching };

struct EpaResult {
  EpaStatus status = EpaStatus::Converged;
  Real depth = 0.0;  ///< >= 0, the minimum translation distance
  /// Unit, points from A towards B: moving B by depth*normal separates.
  Vec3 normal{0.0, 1.0, 0.0};
  Vec3 pointA{0.0};  ///< deepest point of A inside B, world space
  Vec3 pointB{0.0};  ///< deepest point of B inside A, world space
  int iterations = 0;
};

/// Expands GJK's final simplex (`gjk` must be Intersecting) to the penetration depth. Touching
/// and degenerate (flat, needle, point) cases give a defined unit normal and depth >= 0, never NaN.
/// Statuses: Converged (the face and support bounds met within epa.tolerance x the size of A - B),
/// MaxIterations (epa.max_iterations support points; the best lower bound so far), Touching
/// (depth within that tolerance of 0, A - B flat, or `gjk` not Intersecting: then depth 0 and the
/// normal along gjk.pointB - gjk.pointA). A GJK simplex with fewer than 4 points is grown by
/// support searches; an empty one makes EPA run gjkDistance itself with default settings.
/// Storage: a per-thread scratch polytope that grows to the largest epa.max_iterations seen, so
/// queries allocate only the first time (per thread) and when the cap grows.
EpaResult epaPenetration(const SupportShape& a, const Transform& xa, const SupportShape& b,
                         const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk);

/// The polytope EPA ended with, recorded for the demo's GJK viewer.
struct EpaTrace {
  /// Points of the Minkowski difference A - B (world axes, m; translation-free like GJK's trace).
  std::vector<Vec3> vertices;
  /// Live triangles as indices into `vertices`, counter-clockwise seen from outside.
  std::vector<std::array<int, 3>> faces;
  /// Index into `faces` of the face that gave the depth and normal; -1 when EPA returned before
  /// building a polytope (GJK not Intersecting, or A - B flat), then both lists are empty.
  int closestFace = -1;
};

/// epaPenetration, recording the final polytope into `trace` (cleared first) when it is not null.
/// Same answer as the overload above; recording allocates, the overload above does not.
EpaResult epaPenetration(const SupportShape& a, const Transform& xa, const SupportShape& b,
                         const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk,
                         EpaTrace* trace);

}  // namespace tumble
