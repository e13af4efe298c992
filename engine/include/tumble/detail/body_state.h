#pragma once
/// Engine-internal: a body's state as the World keeps it, with its broad-phase proxy and sleep
/// bookkeeping. Not part of the API (World::body() returns a BodyView); it is in the include
/// tree only because World holds these by value.

#include "tumble/body.h"

namespace tumble {

/// A body's state inside a World.
struct Body {
  BodyType type = BodyType::Dynamic;
  Shape shape;
  SupportShape support;  ///< view of `shape` for the narrow-phase

  Real mass = 0.0;         ///< kg; 0 for static and kinematic bodies
  Real invMass = 0.0;      ///< 1/kg
  Vec3 localCenter{0.0};   ///< m, centre of mass in the shape's frame
  Mat3 localInertia{0.0};  ///< kg m^2, about the centre of mass, shape axes
  Mat3 invLocalInertia{0.0};
  Real radius = 0.0;  ///< m, farthest point of the shape from the centre of mass

  Vec3 center{0.0};                   ///< m, world centre of mass
  Quat rotation{1.0, 0.0, 0.0, 0.0};  ///< unit quaternion
  Vec3 linearVelocity{0.0};           ///< m/s
  Vec3 angularVelocity{0.0};          ///< rad/s, world frame
  Vec3 force{0.0};                    ///< N, accumulated until the next step, then cleared
  Vec3 torque{0.0};                   ///< N m, accumulated until the next step, then cleared
  // Beside the force and torque, which the solver's integration reads with `hasOptions` every
  // substep (far behind them, the flag cost that loop a cache line per body); the flags and the
  // float fill one 8-byte slot.
  bool bullet = false;
  /// Any of damping, gravity scale != 1 or a lock: the solver's integration looks at them only
  /// then, so a body without options keeps every bit.
  bool hasOptions = false;
  bool awake = true;
  bool isSensor = false;
  float hitEventSpeed = 0.0f;  ///< m/s; +infinity: no hit events
  // Beside `awake` (the narrow phase reads both for every pair: World::idAt).
  bool alive = false;
  uint32_t generation = 0;  ///< of the slot: bumped each time a body in it is destroyed

  Real friction = 0.5;
  Real restitution = 0.0;
  Real rollingResistance = 0.0;  ///< dimensionless, >= 0
  Real linearDamping = 0.0;      ///< 1/s, >= 0
  Real angularDamping = 0.0;     ///< 1/s, >= 0
  Real gravityScale = 1.0;
  /// Per world axis: 1 where the body may move (turn), 0 where it is locked.
  Vec3 linearFree{1.0};
  Vec3 angularFree{1.0};
  Real sleepTime = 0.0;  ///< s spent under the sleep thresholds
  /// While asleep: the sleeping island, named by its lowest body index (its first member);
  /// -1 when awake. The members are linked in index order through sleepNext (-1 ends the list).
  int sleepIsland = -1;
  int sleepNext = -1;
  int proxy = -1;  ///< broad-phase proxy
  uint64_t userData = 0;
  BodyFilter filter;  ///< contacts, sensors and queries (shouldCollide)

  /// The shape's frame: x_world = rotation * x_local + origin. With the centre of mass at the
  /// shape's origin (+0 in every component: a sphere, a symmetric hull) the origin is the centre
  /// itself: rotation * (+0) is +0 for any finite rotation (each product with a zero is a zero,
  /// +0 plus a zero is +0) and x - (+0) is x, so the same bits without the rotation.
  Transform transform() const {
    if (detail::isPositiveZero(localCenter)) return {center, rotation};
    return {center - rotation * localCenter, rotation};
  }
  /// Inverse inertia in world axes (1/(kg m^2)).
  /// Locked rotation axes (angularFree) zero its rows and columns.
  Mat3 invInertiaWorld() const {
    const Mat3 r = glm::mat3_cast(rotation);
    Mat3 m = r * invLocalInertia * glm::transpose(r);
    if (angularFree != Vec3(1.0))
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m[i][j] *= angularFree[i] * angularFree[j];
    return m;
  }
  bool translationLocked() const { return linearFree != Vec3(1.0); }
  /// Velocity of the material point at world position `p` (m/s).
  Vec3 velocityAt(const Vec3& p) const {
    return linearVelocity + glm::cross(angularVelocity, p - center);
  }
  bool isDynamic() const { return type == BodyType::Dynamic; }
};

}  // namespace tumble
