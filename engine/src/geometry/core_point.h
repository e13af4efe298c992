#pragma once
// Internal: a round shape's core point in world space, without the rotation where it is the
// origin (a sphere's centre, as makeSphere leaves it).

#include "tumble/math.h"

namespace tumble::detail {

/// x.apply(p), bit for bit. For p = +0 in every component glm's q * p is
/// p + ((u x p) w + u x (u x p)) 2 with u the quaternion's vector part: every product with p's
/// zeros is a zero and +0 plus any zero is +0, for any finite rotation, so the result is
/// +0 + position (which turns a -0 coordinate into +0, as apply does), with no rotation.
inline Vec3 applyToCorePoint(const Transform& x, const Vec3& p) {
  if (isPositiveZero(p)) return Vec3(0.0) + x.position;
  return x.apply(p);
}

}  // namespace tumble::detail
