#pragma once
/// Joints: constraints between two bodies (or a body and the static world), solved in the same
/// substeps and iterations as the contacts (docs/ARCHITECTURE.md, "Joints"). A joint is made from
/// a plain definition per kind, collected in the variant JointDef; anchors and axes are given in
/// world coordinates at creation and kept in each body's frame from then on.

#include <cstdint>
#include <limits>
#include <optional>
#include <variant>

#include "tumble/body.h"
#include "tumble/math.h"

namespace tumble {

/// The kinds of joints.
enum class JointType { Ball, Hinge, Slider, Distance, Fixed, SwingTwist };

/// "ball", "hinge", "slider", "distance", "fixed" or "swing_twist" (the scene-file names).
const char* toString(JointType type);

/// Fields every joint has. `b` (or `a`) left invalid means the static world; not both.
struct JointBase {
  BodyId a;                       ///< first body; invalid: the static world
  BodyId b;                       ///< second body; invalid: the static world
  bool collideConnected = false;  ///< whether a and b still collide with each other
  /// N, > 0: the joint is removed after a step whose reaction force exceeded this.
  Real breakForce = std::numeric_limits<Real>::infinity();
};

/// A motor driving a joint's free coordinate at a target speed with a bounded effort.
struct JointMotor {
  bool enabled = false;
  Real speed = 0.0;      ///< rad/s (hinge) or m/s (slider)
  Real maxEffort = 0.0;  ///< N m (hinge) or N (slider), >= 0
};

/// Lower and upper bound of a joint's free coordinate (rad or m), lower <= upper.
struct JointLimits {
  bool enabled = false;
  Real lower = 0.0;
  Real upper = 0.0;
};

/// A spring pulling a joint's free coordinate to `target` (hinge, slider) or a distance joint to
/// its rest length. Soft constraint (Catto, "Soft Constraints", GDC 2011). Moving the target
/// between steps (World::setJointSpring) drives the joint to a position, as a servo.
struct JointSpring {
  bool enabled = false;
  Real hertz = 0.0;         ///< Hz, > 0 when enabled
  Real dampingRatio = 0.0;  ///< >= 0
  /// The coordinate the spring pulls to: a hinge's angle (rad, [-pi, pi]; the spring takes the
  /// shorter way round), a slider's translation (m, within 1e+09). A distance joint's spring
  /// pulls to its rest length: 0 there.
  Real target = 0.0;
};

/// Three translations locked at a common anchor point; rotation free.
struct BallJointDef : JointBase {
  Vec3 anchor{0.0};  ///< m, world
};

/// A ball joint that also keeps `axis` of both bodies aligned: one rotation about the axis. The
/// angle is measured from the pose at creation (0), positive by the right-hand rule about the
/// axis for b relative to a.
struct HingeJointDef : JointBase {
  Vec3 anchor{0.0};          ///< m, world
  Vec3 axis{0.0, 0.0, 1.0};  ///< world, non-zero (normalised on creation)
  JointLimits limits;        ///< rad
  JointMotor motor;          ///< rad/s, N m
  JointSpring spring;        ///< to angle 0
};

/// Translation along `axis` only; rotation locked. The translation is b's anchor minus a's along
/// the axis, 0 at creation.
struct SliderJointDef : JointBase {
  Vec3 anchor{0.0};          ///< m, world
  Vec3 axis{1.0, 0.0, 0.0};  ///< world, non-zero (normalised on creation)
  JointLimits limits;        ///< m
  JointMotor motor;          ///< m/s, N
  JointSpring spring;        ///< to translation 0
};

/// Keeps the distance between two anchors within [minLength, maxLength]: a rod when they are
/// equal, a rope with minLength 0. An absent bound is the anchors' distance at creation (so the
/// default is a rod). With a spring, the spring pulls to the distance at creation (clamped to the
/// bounds), and the bounds still hold.
struct DistanceJointDef : JointBase {
  Vec3 anchorA{0.0};              ///< m, world, on a
  Vec3 anchorB{0.0};              ///< m, world, on b
  std::optional<Real> minLength;  ///< m, >= 0
  std::optional<Real> maxLength;  ///< m, >= minLength
  JointSpring spring;
};

/// Locks the relative pose of the two bodies as it is at creation, anchored at their centres'
/// average weighted by inverse mass (at the lighter body: a soft row gives by its lighter body's
/// lever arm; at the one movable body's centre when the other is the world, static or kinematic).
struct FixedJointDef : JointBase {};

/// A ball joint with a cone limit on the swing of `axis` (the angle between the bodies' copies
/// of it) and limits on the twist about it (ragdoll shoulders and hips).
struct SwingTwistJointDef : JointBase {
  Vec3 anchor{0.0};          ///< m, world
  Vec3 axis{1.0, 0.0, 0.0};  ///< world, non-zero: the twist axis
  Real swing = 0.5;          ///< rad, cone half-angle, [0, pi]
  Real twistLower = -0.5;    ///< rad, [-pi, pi]
  Real twistUpper = 0.5;     ///< rad, >= twistLower
  /// N m, [0, 1e12]: the most torque the joint spends resisting relative rotation (dry friction
  /// in all three directions, as a hinge's motor at speed 0); 0: turns freely within the limits.
  Real friction = 0.0;
};

/// A definition of any kind; World::createJoint validates it and names the bad field.
using JointDef = std::variant<BallJointDef, HingeJointDef, SliderJointDef, DistanceJointDef,
                              FixedJointDef, SwingTwistJointDef>;

/// A handle to a joint. A destroyed (or broken) joint's slot is reused with the next generation.
struct JointId {
  int index = -1;
  uint32_t generation = 0;
  bool valid() const { return index >= 0; }
  friend bool operator==(JointId, JointId) = default;
};

/// A joint as World::joint() shows it (a copy).
struct JointView {
  JointId id;
  JointType type = JointType::Ball;
  BodyId a, b;  ///< invalid: the static world
  bool collideConnected = false;
  Real breakForce = std::numeric_limits<Real>::infinity();
  Vec3 anchorA{0.0};  ///< m, world, where the anchor on a is now
  Vec3 anchorB{0.0};  ///< m, world, where the anchor on b is now
  Vec3 axis{0.0};     ///< world, on a (hinge, slider, swing-twist); zero otherwise
  /// The free coordinate: hinge angle and swing-twist twist (rad), slider translation or
  /// distance (m); 0 for ball and fixed.
  Real position = 0.0;
  Vec3 reactionForce{0.0};   ///< N, on b at its anchor, over the last step
  Vec3 reactionTorque{0.0};  ///< N m, on b, over the last step (angular rows, limits, motor)
  JointMotor motor;
  JointLimits limits;
  JointSpring spring;
};

}  // namespace tumble
