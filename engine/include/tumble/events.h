#pragma once
/// Contact and sensor events of a step, read after World::step as arrays (Box2D v3's
/// b2World_GetContactEvents and b2World_GetSensorEvents), and the contact filter callback.
/// docs/ARCHITECTURE.md, "Events and filtering" has the rules; README's "Events" the examples.

#include <functional>
#include <vector>

#include "tumble/body.h"
#include "tumble/math.h"

namespace tumble {

/// A pair of bodies started touching: one of its manifolds has a point with separation <= 0
/// (overlapping or exactly touching) as the step's narrow phase found it; speculative points
/// (separation > 0) do not count, but for a hit: a pair whose speculative contact the solver
/// pushed for a ContactHitEvent begins in that step if it had not (a hit never comes before its
/// pair's begin), at the hit's point and normal. a.index < b.index.
struct ContactBeginEvent {
  BodyId a;
  BodyId b;
  Vec3 point{0.0};   ///< m, world: the first touching point (midway between the surfaces)
  Vec3 normal{0.0};  ///< unit, from a towards b
};

/// A pair stopped touching: its points all separated, its broad-phase pair ended, its filter or
/// the contact filter now rejects it, or one of the bodies was destroyed (then the id is no
/// longer alive). a.index < b.index.
struct ContactEndEvent {
  BodyId a;
  BodyId b;
};

/// A point of a contact met with an approach speed above the smaller of the two bodies'
/// BodyDef::hitEventSpeed (so either body may ask for them) and the solver pushed it (normal
/// impulse > 0). One per manifold and step at most: its fastest point. a.index < b.index.
struct ContactHitEvent {
  BodyId a;
  BodyId b;
  Vec3 point{0.0};           ///< m, world, before the step's solver moved the bodies
  Vec3 normal{0.0};          ///< unit, from a towards b
  Real approachSpeed = 0.0;  ///< m/s, > 0: the relative normal velocity before the solver
};

/// The contact events of the last step (World::contactEvents), each array sorted by (a, b).
/// Events from World calls between steps (destroyBody) come with the next step's.
struct ContactEvents {
  std::vector<ContactBeginEvent> begin;
  std::vector<ContactEndEvent> end;
  std::vector<ContactHitEvent> hit;
  bool empty() const { return begin.empty() && end.empty() && hit.empty(); }
};

/// A sensor started or stopped overlapping a visitor (a non-sensor body that is not static). The
/// sensor is a sensor body (BodyDef::isSensor; sensorChild -1) or a sensor child of a compound
/// (CompoundChild::isSensor; sensorChild its index, `sensor` its body). A visitor is reported
/// once per sensor, whichever of its pieces overlap; its own sensor children do not count.
struct SensorEvent {
  BodyId sensor;
  BodyId visitor;
  int sensorChild = -1;  ///< the sensor compound child's index; -1 for a sensor body
};

/// The sensor events of the last step (World::sensorEvents), each sorted by (sensor, sensorChild,
/// visitor).
struct SensorEvents {
  std::vector<SensorEvent> begin;
  std::vector<SensorEvent> end;
  bool empty() const { return begin.empty() && end.empty(); }
};

/// A user's say on each pair of bodies that may make contacts (after joints and the bodies'
/// filters): false keeps the pair from touching. Called during step(), once per step for each
/// such broad-phase pair (sleeping ones too), in order of (a.index, b.index) with a.index <
/// b.index. It must not call into the World and must answer the same for the same pair until
/// its answers are meant to change.
using ContactFilter = std::function<bool(BodyId a, BodyId b)>;

}  // namespace tumble
