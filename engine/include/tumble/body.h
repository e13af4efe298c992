#pragma once
/// Rigid bodies: the definition a body is made from (BodyDef) and its state inside a World (Body).

#include <cstdint>
#include <memory>

#include "tumble/hull.h"
#include "tumble/math.h"

namespace tumble {

/// Static bodies never move; kinematic bodies move with the velocity they are given and are not
/// pushed by contacts; dynamic bodies respond to gravity, forces and contacts.
enum class BodyType { Static, Kinematic, Dynamic };

/// A handle to a body of a World. A destroyed body's slot (index) is reused by a later
/// createBody, with the next generation: an id kept past its body's destruction is then not
/// alive (World::isAlive) rather than naming the new body.
struct BodyId {
  int index = -1;
  uint32_t generation = 0;
  bool valid() const { return index >= 0; }
  friend bool operator==(BodyId, BodyId) = default;
  friend auto operator<=>(BodyId, BodyId) = default;
};

/// Everything needed to create a body. Plain data with defaults; World::createBody validates it
/// and names the bad field on failure.
struct BodyDef {
  BodyType type = BodyType::Dynamic;
  /// The convex shape in body-local coordinates, shared between bodies (required, non-null).
  std::shared_ptr<const ConvexHull> shape;
  Vec3 position{0.0};                    ///< m, world position of the shape's local origin
  Quat orientation{1.0, 0.0, 0.0, 0.0};  ///< normalised on creation; must not be zero
  Vec3 linearVelocity{0.0};              ///< m/s, of the centre of mass
  Vec3 angularVelocity{0.0};             ///< rad/s, world frame
  Real density = 1000.0;                 ///< kg/m^3, > 0 for dynamic bodies
  Real friction = 0.5;                   ///< Coulomb coefficient, [0, 10]
  Real restitution = 0.0;                ///< [0, 1]
  bool awake = true;                     ///< a dynamic body may start asleep
  uint64_t userData = 0;                 ///< opaque to the engine
};

/// A body's state as the World keeps it. Read it freely; change it through World's methods so
/// that sleeping, the broad-phase and the caches stay consistent.
struct Body {
  BodyType type = BodyType::Dynamic;
  std::shared_ptr<const ConvexHull> shape;
  SupportShape support;  ///< view of `shape` for the narrow-phase

  Real mass = 0.0;         ///< kg; 0 for static and kinematic bodies
  Real invMass = 0.0;      ///< 1/kg
  Vec3 localCenter{0.0};   ///< m, centre of mass in the shape's frame
  Mat3 localInertia{0.0};  ///< kg m^2, about the centre of mass, shape axes
  Mat3 invLocalInertia{0.0};
  Real radius = 0.0;  ///< m, farthest hull vertex from the centre of mass

  Vec3 center{0.0};                   ///< m, world centre of mass
  Quat rotation{1.0, 0.0, 0.0, 0.0};  ///< unit quaternion
  Vec3 linearVelocity{0.0};           ///< m/s
  Vec3 angularVelocity{0.0};          ///< rad/s, world frame
  Vec3 force{0.0};                    ///< N, accumulated until the next step, then cleared
  Vec3 torque{0.0};                   ///< N m, accumulated until the next step, then cleared

  Real friction = 0.5;
  Real restitution = 0.0;
  bool awake = true;
  Real sleepTime = 0.0;  ///< s spent under the sleep thresholds
  int sleepIsland = -1;  ///< the island the body fell asleep with (-1 when awake)
  int proxy = -1;        ///< broad-phase proxy
  bool alive = false;
  uint32_t generation = 0;  ///< of the slot: bumped each time a body in it is destroyed
  uint64_t userData = 0;

  /// The shape's frame: x_world = rotation * x_local + origin.
  Transform transform() const { return {center - rotation * localCenter, rotation}; }
  /// Inverse inertia in world axes (1/(kg m^2)).
  Mat3 invInertiaWorld() const {
    const Mat3 r = glm::mat3_cast(rotation);
    return r * invLocalInertia * glm::transpose(r);
  }
  /// Velocity of the material point at world position `p` (m/s).
  Vec3 velocityAt(const Vec3& p) const {
    return linearVelocity + glm::cross(angularVelocity, p - center);
  }
  bool isDynamic() const { return type == BodyType::Dynamic; }
};

}  // namespace tumble
