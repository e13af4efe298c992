#pragma once
/// Scalar and vector types used everywhere in Tumble, and the rigid transform.
/// Conventions: right-handed, Y up, metres, kilograms, seconds; quaternions are (w, x, y, z).

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace tumble {

/// The one scalar type of the engine. The renderer converts to float.
using Real = double;
using Vec3 = glm::dvec3;
using Quat = glm::dquat;
using Mat3 = glm::dmat3;

namespace detail {
/// Every component +0 (neither -0 nor NaN): a vector that a rotation, a matrix or a positive
/// scale leaves +0, bit for bit (the engine's shortcuts that skip such products test it).
inline bool isPositiveZero(const Vec3& v) {
  return v == Vec3(0.0) && !std::signbit(v.x) && !std::signbit(v.y) && !std::signbit(v.z);
}
}  // namespace detail

/// A rigid transform: x_world = rotation * x_local + position. `rotation` is a unit quaternion.
struct Transform {
  Vec3 position{0.0, 0.0, 0.0};
  Quat rotation{1.0, 0.0, 0.0, 0.0};

  /// Maps a local point to world space.
  Vec3 apply(const Vec3& local) const { return rotation * local + position; }
  /// Maps a world point to local space.
  Vec3 applyInverse(const Vec3& world) const {
    return glm::conjugate(rotation) * (world - position);
  }
  /// Rotates a local direction into world space.
  Vec3 rotate(const Vec3& local) const { return rotation * local; }
  /// Rotates a world direction into local space.
  Vec3 rotateInverse(const Vec3& world) const { return glm::conjugate(rotation) * world; }
};

/// The transform applying `inner` then `outer` (a child's pose `inner` in a body posed `outer`).
inline Transform compose(const Transform& outer, const Transform& inner) {
  return {outer.apply(inner.position), outer.rotation * inner.rotation};
}

/// The transform undoing `x`.
inline Transform inverse(const Transform& x) {
  const Quat q = glm::conjugate(x.rotation);
  return {q * -x.position, q};
}

/// True when every component is finite (no NaN, no infinity).
inline bool isFinite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline bool isFinite(Real x) {
  return std::isfinite(x);
}

}  // namespace tumble
