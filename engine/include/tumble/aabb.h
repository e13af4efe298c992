#pragma once
/// Axis-aligned bounding boxes in world space.

#include <algorithm>

#include "tumble/math.h"

namespace tumble {

/// An axis-aligned box [lower, upper] (metres). Valid when lower <= upper componentwise.
struct Aabb {
  Vec3 lower{0.0};
  Vec3 upper{0.0};

  /// True when the closed boxes share at least one point.
  bool overlaps(const Aabb& o) const {
    return lower.x <= o.upper.x && o.lower.x <= upper.x && lower.y <= o.upper.y &&
           o.lower.y <= upper.y && lower.z <= o.upper.z && o.lower.z <= upper.z;
  }
  /// True when `o` lies inside this box (boundary included).
  bool contains(const Aabb& o) const {
    return lower.x <= o.lower.x && lower.y <= o.lower.y && lower.z <= o.lower.z &&
           o.upper.x <= upper.x && o.upper.y <= upper.y && o.upper.z <= upper.z;
  }
  /// Surface area (m^2), the cost measure of the tree (MacDonald and Booth 1990).
  Real area() const {
    const Vec3 d = upper - lower;
    return 2.0 * (d.x * d.y + d.y * d.z + d.z * d.x);
  }
  Vec3 center() const { return 0.5 * (lower + upper); }
  Vec3 extents() const { return 0.5 * (upper - lower); }
  /// The box grown by `margin` on every side.
  Aabb fattened(Real margin) const { return {lower - Vec3(margin), upper + Vec3(margin)}; }
};

/// The smallest box holding both.
inline Aabb merge(const Aabb& a, const Aabb& b) {
  return {glm::min(a.lower, b.lower), glm::max(a.upper, b.upper)};
}

}  // namespace tumble
