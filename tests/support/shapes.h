#pragma once
// Shape builders shared by the tests.
#include <memory>
#include <vector>

#include "tumble/hull.h"
#include "tumble/math.h"
#include "tumble/support.h"

namespace tumble::test {

/// The 8 corners of the box centre + [-half, half]; corner i has +x if bit 0, +y if bit 1, +z if
/// bit 2.
std::vector<Vec3> boxCorners(const Vec3& half, const Vec3& centre = Vec3(0.0));

/// The hull of boxCorners(half).
std::shared_ptr<const ConvexHull> boxHull(const Vec3& half);

/// A support shape over `points` without an adjacency (the points must outlive it).
inline SupportShape shapeOf(const std::vector<Vec3>& points) {
  return SupportShape{points, {}, {}};
}

}  // namespace tumble::test
