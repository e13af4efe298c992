#include "tumble/support.h"

#include <cmath>

namespace tumble {

Vec3 CylinderSupport::support(const Vec3& d) const {
  const Real y = d.y >= 0.0 ? halfHeight : -halfHeight;
  const Real s = std::sqrt(d.x * d.x + d.z * d.z);
  // Along the axis every point of the cap is a support point: its centre is the one that does not
  // depend on the rounding of a tiny sideways component.
  if (!(s > 1e-12 * (std::abs(d.y) + s))) return Vec3(0.0, y, 0.0);
  const Real k = radius / s;
  return Vec3(k * d.x, y, k * d.z);
}

int supportIndexBruteForce(const SupportShape& shape, const Vec3& direction) {
  int best = 0;
  Real bestDot = glm::dot(shape.points[0], direction);
  for (size_t i = 1; i < shape.points.size(); ++i) {
    Real d = glm::dot(shape.points[i], direction);
    if (d > bestDot) {
      bestDot = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

// On a convex polytope every vertex that does not maximise a linear function has a neighbour that
// strictly improves it (the property the simplex method relies on), so strict greedy ascent over
// the vertex graph ends at a maximiser and cannot cycle. Each move strictly increases the value,
// so no vertex is visited twice: points.size() moves bound the walk even for a malformed
// adjacency, which then returns the best vertex reached.
int supportIndexHillClimb(const SupportShape& shape, const Vec3& direction, int start) {
  int current = start;
  Real currentDot = glm::dot(shape.points[static_cast<size_t>(current)], direction);
  for (size_t moves = 0; moves < shape.points.size(); ++moves) {
    int next = current;
    Real nextDot = currentDot;
    const int end = shape.neighbourOffsets[static_cast<size_t>(current) + 1];
    for (int k = shape.neighbourOffsets[static_cast<size_t>(current)]; k < end; ++k) {
      int n = shape.neighbours[static_cast<size_t>(k)];
      Real d = glm::dot(shape.points[static_cast<size_t>(n)], direction);
      if (d > nextDot) {
        nextDot = d;
        next = n;
      }
    }
    if (next == current) break;
    current = next;
    currentDot = nextDot;
  }
  return current;
}

// Warm start: the previous answer is usually the answer again or a few edges away (GJK's
// directions turn slowly), so the climb starts there; without a valid hint it starts at 0.
int supportIndex(const SupportShape& shape, const Vec3& direction, int hint) {
  if (shape.hasAdjacency() && shape.points.size() >= SupportShape::kHillClimbThreshold) {
    int start = (hint >= 0 && static_cast<size_t>(hint) < shape.points.size()) ? hint : 0;
    return supportIndexHillClimb(shape, direction, start);
  }
  return supportIndexBruteForce(shape, direction);
}

}  // namespace tumble
