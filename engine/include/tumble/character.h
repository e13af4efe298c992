#pragma once
/// A character mover: a kinematic capsule moved by cast-and-slide through the world's queries
/// (World::castShape, castRayClosest), not a body (Jolt's CharacterVirtual, Box3D's mover). It
/// slides along walls, walks up slopes below a maximum angle and not steeper ones, climbs steps up
/// to a step height, sticks to the ground going down, rides the body it stands on (moving
/// platforms) and pushes dynamic bodies it runs into with a bounded force. Every displacement it
/// makes is a shape cast, so it never tunnels. Deterministic: the same world, settings and inputs
/// give the same bits.
///
/// Gravity is left to the caller (as Jolt's CharacterVirtual): pass the velocity you want,
/// vertical part included (a jump, a fall), and read groundState() after the update to decide the
/// next one. A typical frame: world.step(dt); character.update(world, desired, dt). Calling update
/// after the step lets the mover carry the character by the pose change its ground body just made.
/// The world does not see the character: bodies never collide with it, only its pushes move them.

#include <vector>

#include "tumble/math.h"
#include "tumble/query.h"
#include "tumble/result.h"
#include "tumble/shape.h"

namespace tumble {

class World;

/// A character's shape and how it moves. Lengths in metres, angles in radians.
struct CharacterSettings {
  Real radius = 0.3;      ///< capsule radius, > 0
  Real halfHeight = 0.6;  ///< half the capsule's segment, >= 0 (height 2 (halfHeight + radius))
  /// The steepest walkable ground, in [0, pi/2): steeper surfaces act as walls for walking
  /// (the character does not walk or step up them) and are not ground.
  Real maxSlopeAngle = 0.7853981633974483;
  Real stepHeight = 0.35;  ///< the highest step climbed, and the drop it sticks to going down; >= 0
  /// The gap (contact offset) the mover keeps between the capsule and the world, > 0 and
  /// < radius. Ground is looked for within a few skins below.
  Real skin = 0.01;
  Real mass = 70.0;  ///< kg, > 0: the momentum a push transfers (mass times approach speed)
  /// N, >= 0: the most force the character pushes a dynamic body with (impulse per update at most
  /// maxPushForce * dt). 0: it pushes nothing.
  Real maxPushForce = 500.0;
  int maxIterations = 8;  ///< casts per slide, in [1, 64]
  /// The bodies the character collides with and stands on (its own bodies excluded, e.g. by
  /// category bits or ignore).
  QueryFilter filter;
};

/// Checks every field of `settings`; the error names the field, its value and the range.
Expected<void> validate(const CharacterSettings& settings);

/// Where the character stands after an update.
enum class GroundState {
  OnGround,       ///< on walkable ground (slope <= maxSlopeAngle, or the top of a step's edge)
  OnSteepGround,  ///< touching a surface below that is too steep to stand on
  InAir,          ///< nothing within the ground probe below
};

/// A dynamic body the character ran into during the last update, and the impulse it gave it.
struct CharacterPush {
  BodyId body;
  Vec3 point{0.0};    ///< m, world, on the body
  Vec3 normal{0.0};   ///< unit, from the body towards the character
  Vec3 impulse{0.0};  ///< N s, applied at the point (World::applyLinearImpulse)
};

class Character {
 public:
  /// A character whose capsule is centred at `position` (m, world; the capsule stands upright).
  /// Fails, naming the field, when the settings are out of range or the position is not finite.
  static Expected<Character> create(const CharacterSettings& settings, const Vec3& position);

  /// Moves the character for one frame of `dt` seconds (finite, > 0) with `desiredVelocity`
  /// (m/s, world) relative to its ground: first it is carried by the pose change of the body it
  /// stood on, then it slides along `desiredVelocity * dt`, climbs a step when a wall stops it on
  /// the ground, sticks to the ground below (within stepHeight) unless moving up, pushes the
  /// dynamic bodies it met and finds its ground. Fails (changing nothing) on a non-finite
  /// velocity or a bad dt.
  Expected<void> update(World& world, const Vec3& desiredVelocity, Real dt);

  /// Replaces the settings (validated; the error names the field). The position stays.
  Expected<void> setSettings(const CharacterSettings& settings);
  /// Teleports the character (no cast); forgets its ground until the next update.
  void setPosition(const Vec3& position);

  const CharacterSettings& settings() const { return settings_; }
  const Shape& shape() const { return shape_; }  ///< the capsule, about the local y axis
  Vec3 position() const { return position_; }    ///< m, world: the capsule's centre
  /// m, world: the bottom of the capsule (position - (halfHeight + radius) y).
  Vec3 footPosition() const;
  /// m/s: the displacement of the last update over its dt (carrying included).
  Vec3 velocity() const { return velocity_; }
  GroundState groundState() const { return ground_; }
  bool onGround() const { return ground_ == GroundState::OnGround; }
  Vec3 groundNormal() const { return groundNormal_; }  ///< unit; +y in the air
  Vec3 groundPoint() const { return groundPoint_; }    ///< m, world
  BodyId groundBody() const { return groundBody_; }    ///< invalid in the air
  /// m/s: the ground body's velocity at the ground point (0 in the air or on static ground).
  Vec3 groundVelocity() const { return groundVelocity_; }
  /// The dynamic bodies pushed in the last update, in the order they were met.
  const std::vector<CharacterPush>& pushes() const { return pushes_; }

 private:
  Character(const CharacterSettings& settings, const Shape& shape, const Vec3& position);

  CharacterSettings settings_;
  Shape shape_;
  Vec3 position_{0.0};
  Vec3 velocity_{0.0};
  GroundState ground_ = GroundState::InAir;
  Vec3 groundNormal_{0.0, 1.0, 0.0};
  Vec3 groundPoint_{0.0};
  BodyId groundBody_;
  Vec3 groundVelocity_{0.0};
  Transform groundPose_;  ///< the ground body's pose when the ground was found
  std::vector<CharacterPush> pushes_;
};

}  // namespace tumble
