#pragma once
// Internal: the tangent basis of a contact normal, for the manifold's friction directions and for
// anything else that needs a deterministic frame about a unit vector.
#include <cmath>

#include "tumble/math.h"

namespace tumble {

/// Builds the two unit tangents of the unit `n` (a right-handed, deterministic basis: t1 x t2 = n).
inline void tangentBasis(const Vec3& n, Vec3& t1, Vec3& t2) {
  // Duff et al. 2017, "Building an Orthonormal Basis, Revisited".
  const Real sign = std::copysign(1.0, n.z);
  const Real a = -1.0 / (sign + n.z);
  const Real b = n.x * n.y * a;
  t1 = Vec3(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
  t2 = Vec3(b, sign + n.y * n.y * a, -n.y);
}

}  // namespace tumble
