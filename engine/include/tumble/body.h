#pragma once
/// Rigid bodies: the handle (BodyId), the definition a body is made from (BodyDef) and the
/// read-only view World::body() returns (BodyView).

#include <cstdint>
#include <limits>
#include <memory>

#include "tumble/filter.h"
#include "tumble/math.h"
#include "tumble/shape.h"

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
  /// The shape in body-local coordinates (required; a shared_ptr<const ConvexHull> converts).
  /// Shapes share their geometry between bodies.
  Shape shape;
  Vec3 position{0.0};                    ///< m, world position of the shape's local origin
  Quat orientation{1.0, 0.0, 0.0, 0.0};  ///< normalised on creation; must not be zero
  Vec3 linearVelocity{0.0};              ///< m/s, of the centre of mass
  Vec3 angularVelocity{0.0};             ///< rad/s, world frame
  Real density = 1000.0;                 ///< kg/m^3, > 0 for dynamic bodies
  Real friction = 0.5;                   ///< Coulomb coefficient, [0, 10]
  Real restitution = 0.0;                ///< [0, 1]
  /// Dimensionless, >= 0 and finite (Box2D v3's shape option): a contact resists rolling, and
  /// spinning about its normal, with a torque of at most rollingResistance * rolling radius *
  /// normal force (the spin also meets the twist friction, whichever is larger). The rolling radius
  /// is a sphere's or capsule's radius and 0 for a hull (which does not roll), so a hull body's
  /// motion does not depend on it. 0 (the default) costs nothing.
  Real rollingResistance = 0.0;
  /// 1/s, >= 0 and finite. Each substep of length h scales the velocity the body enters it with
  /// by 1 / (1 + h c) before gravity and forces are added (Box2D v3's form): a free body's speed
  /// falls as (1 + h c)^-n over n substeps, about exp(-c t). 0 (the default) costs nothing.
  Real linearDamping = 0.0;
  Real angularDamping = 0.0;  ///< 1/s, >= 0 and finite: linearDamping's law on the spin
  /// Multiplies the world's gravity for this body (any finite value: 0 floats, -1 rises).
  Real gravityScale = 1.0;
  /// World axes x, y, z along which the centre of mass does not move: the velocity's component
  /// stays exactly 0 through contacts, joints, drags and integration (the contact rows see a zero
  /// inverse mass along the axis, Jolt's allowed DOFs). Dynamic bodies only.
  bool lockTranslation[3] = {false, false, false};
  /// World axes about which the body does not turn: the inverse inertia's rows and columns for
  /// them are zero, so the angular velocity's component stays exactly 0. Dynamic bodies only.
  bool lockRotation[3] = {false, false, false};
  /// Continuous collision against moving bodies: after each step the body is swept from its pose
  /// at the step's start to its new one against every non-bullet body's new pose, and stopped
  /// where it first touches (its velocity kept, for the next step's contact). Speculative
  /// contacts alone cover fast bodies against static ones. Dynamic bodies only.
  bool bullet = false;
  bool awake = true;      ///< a dynamic body may start asleep
  uint64_t userData = 0;  ///< opaque to the engine
  /// Category, mask and group: which pairs make contacts, which bodies a sensor sees, which
  /// bodies queries accept (shouldCollide; World::setFilter changes it).
  BodyFilter filter;
  /// A sensor makes no contacts (it pushes nothing and nothing pushes it) and reports the bodies
  /// it overlaps as sensor events (World::sensorEvents). A sensor may be static, kinematic or
  /// dynamic (then it falls through everything).
  bool isSensor = false;
  /// m/s, >= 0 (not NaN): a contact of this body reports a hit event (World::contactEvents) when
  /// the approach speed of one of its points exceeds this or the other body's threshold.
  /// +infinity (the default): no hit events from this body.
  Real hitEventSpeed = std::numeric_limits<Real>::infinity();
};

/// A body as World::body() shows it: a copy of its state when read, so it never dangles and never
/// lets a caller edit the body behind the World's back (change a body through World's setters).
struct BodyView {
  BodyId id;
  BodyType type = BodyType::Dynamic;
  Shape shape;                        ///< body-local, geometry shared
  Vec3 position{0.0};                 ///< m, world position of the shape's local origin
  Quat rotation{1.0, 0.0, 0.0, 0.0};  ///< unit quaternion, shape frame to world
  Vec3 centerOfMass{0.0};             ///< m, world
  Vec3 localCenterOfMass{0.0};        ///< m, in the shape's frame
  Vec3 linearVelocity{0.0};           ///< m/s, of the centre of mass
  Vec3 angularVelocity{0.0};          ///< rad/s, world frame
  Real mass = 0.0;                    ///< kg; 0 for static and kinematic bodies
  Mat3 localInertia{0.0};             ///< kg m^2, about the centre of mass in the shape's axes
  Real radius = 0.0;                  ///< m, farthest point of the shape from the centre of mass
  Real friction = 0.5;
  Real restitution = 0.0;
  Real rollingResistance = 0.0;                     ///< dimensionless (BodyDef::rollingResistance)
  Real linearDamping = 0.0;                         ///< 1/s (BodyDef::linearDamping)
  Real angularDamping = 0.0;                        ///< 1/s (BodyDef::angularDamping)
  Real gravityScale = 1.0;                          ///< BodyDef::gravityScale
  bool lockTranslation[3] = {false, false, false};  ///< world x, y, z (BodyDef::lockTranslation)
  bool lockRotation[3] = {false, false, false};     ///< world x, y, z (BodyDef::lockRotation)
  bool bullet = false;                              ///< BodyDef::bullet
  bool awake = true;                                ///< false while asleep (static bodies: false)
  uint64_t userData = 0;
  BodyFilter filter;         ///< as given in BodyDef::filter or World::setFilter
  bool isSensor = false;     ///< BodyDef::isSensor
  Real hitEventSpeed = 0.0;  ///< m/s, BodyDef::hitEventSpeed

  /// The shape's frame: x_world = rotation * x_local + position.
  Transform transform() const { return {position, rotation}; }
  /// Velocity of the material point at world position `p` (m/s).
  Vec3 velocityAt(const Vec3& p) const {
    return linearVelocity + glm::cross(angularVelocity, p - centerOfMass);
  }
  bool isDynamic() const { return type == BodyType::Dynamic; }
};

}  // namespace tumble
