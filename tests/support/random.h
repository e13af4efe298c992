#pragma once
// Random point clouds for the geometry tests (fixed seeds; our own uniform mapping so the numbers
// do not depend on the standard library's distributions).
#include <cmath>
#include <random>
#include <vector>

#include "tumble/math.h"

namespace tumble::test {

/// Uniform in [0, 1) from the top 53 bits.
inline Real unit01(std::mt19937_64& rng) {
  return static_cast<Real>(rng() >> 11) * 0x1.0p-53;
}

/// Uniform in [lo, hi).
inline Real uniform(std::mt19937_64& rng, Real lo, Real hi) {
  return lo + (hi - lo) * unit01(rng);
}

/// Uniform on the unit sphere (rejection from the cube).
inline Vec3 unitVector(std::mt19937_64& rng) {
  for (;;) {
    Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    Real l2 = glm::dot(v, v);
    if (l2 > 1e-6 && l2 <= 1.0) return v / std::sqrt(l2);
  }
}

/// A uniformly random rotation (normalised 4-vector from the 4-ball).
inline Quat randomRotation(std::mt19937_64& rng) {
  for (;;) {
    Quat q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    Real l2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (l2 > 1e-6 && l2 <= 1.0) return q / std::sqrt(l2);
  }
}

/// A random pose: position uniform in the cube [-spread, spread]^3, a uniformly random rotation.
inline Transform randomPose(std::mt19937_64& rng, Real spread) {
  Transform x;
  x.position = Vec3(uniform(rng, -spread, spread), uniform(rng, -spread, spread),
                    uniform(rng, -spread, spread));
  x.rotation = randomRotation(rng);
  return x;
}

/// `count` points on an ellipsoid with the given semi-axes.
inline std::vector<Vec3> ellipsoidPoints(std::mt19937_64& rng, size_t count, const Vec3& radii) {
  std::vector<Vec3> out;
  for (size_t i = 0; i < count; ++i) out.push_back(unitVector(rng) * radii);
  return out;
}

/// Uniform in [lo, hi], both inclusive.
inline int uniformInt(std::mt19937_64& rng, int lo, int hi) {
  return lo + static_cast<int>(rng() % static_cast<unsigned long long>(hi - lo + 1));
}

}  // namespace tumble::test
