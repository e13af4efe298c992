#pragma once
/// Support mappings of convex point sets: the point of the set farthest along a direction.
/// Every narrow-phase query (GJK, EPA, the LP test) takes shapes in this form, so they work on any
/// point set: a single point, a segment, a triangle, or the vertices of a hull. One curved set,
/// the cylinder, is given by its exact support function instead (GJK and EPA only).

#include <span>

#include "tumble/math.h"

namespace tumble {

/// A convex set given as the convex hull of `points` (local coordinates). Optionally a vertex
/// adjacency in compressed form (neighbours of point i are
/// `neighbours[neighbourOffsets[i] .. neighbourOffsets[i+1])`): with it, large sets are searched
/// by hill climbing instead of brute force. The spans are views: the owner keeps the data alive.
/// A solid cylinder about the local y axis, from y = -halfHeight to halfHeight: a convex set given
/// by its support function (exact), not by points.
struct CylinderSupport {
  Real radius = 0.0;      ///< m, > 0
  Real halfHeight = 0.0;  ///< m, > 0

  /// A point of the cylinder farthest along `d` (any non-zero direction; local frame): on the rim
  /// of the cap that d points to, or the cap's centre when d is along the axis.
  Vec3 support(const Vec3& d) const;
};

struct SupportShape {
  std::span<const Vec3> points;
  std::span<const int> neighbourOffsets;  ///< empty, or points.size() + 1 entries
  std::span<const int> neighbours;
  /// Non-null for a cylinder: GJK and EPA then take their support points from it, exactly, and
  /// `points` holds only a few of its points (an inscribed sample, for callers that want a point
  /// set, such as a centroid). The LP test does not take such shapes.
  const CylinderSupport* cylinder = nullptr;

  /// Sets with at least this many points and an adjacency use hill climbing.
  static constexpr size_t kHillClimbThreshold = 32;

  bool hasAdjacency() const { return !neighbourOffsets.empty(); }
};

/// Index of a point of `shape` maximising dot(point, direction) (local frame). `hint` is a point
/// index to start hill climbing from (the previous answer; -1 for none). Ties go to the lowest
/// index in brute force; hill climbing returns some maximiser. Precondition: points not empty.
int supportIndex(const SupportShape& shape, const Vec3& direction, int hint = -1);

/// Brute force over all points, whatever the shape's size (the reference the tests compare with).
int supportIndexBruteForce(const SupportShape& shape, const Vec3& direction);

/// Hill climbing over the adjacency from `start`. Precondition: the shape has an adjacency.
int supportIndexHillClimb(const SupportShape& shape, const Vec3& direction, int start);

}  // namespace tumble
