#pragma once
// Internal: one call into Qhull's reentrant library, returning plain polygons.

#include <span>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble::detail {

/// Faces of the hull as Qhull found them (merged facets), each an ordered cycle of input point
/// indices, counter-clockwise seen from outside.
struct QhullFaces {
  std::vector<std::vector<int>> faces;
  std::vector<Vec3> normals;  ///< Qhull's unit outward facet normals, one per face
};

/// Runs Qhull on `points` (already translated near the origin). `inputRoundoff` is the absolute
/// error already present in the coordinates (m); Qhull's own roundoff estimate is raised to it so
/// that faces made coplanar by the caller's data are merged. Nothing is printed: Qhull's messages
/// go to a memory stream and come back in the error. Thread-safe (one qhT per call).
Expected<QhullFaces> runQhull(std::span<const Vec3> points, Real inputRoundoff);

}  // namespace tumble::detail
