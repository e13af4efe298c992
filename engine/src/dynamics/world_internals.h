#pragma once
// Internal: a World's body state, for tests of the narrow phase and solver that need the engine's
// own Body (the API shows bodies only as BodyView).
#include "tumble/world.h"

namespace tumble {

struct WorldInternals {
  static const Body& body(const World& w, BodyId id) { return w.bodies_[id.index]; }
  /// Every body slot, as the solver takes them.
  static const std::vector<Body>& bodies(const World& w) { return w.bodies_; }
  /// Runs the bullet sweep (World::sweepBullets) as if the step had begun with `bullet`'s centre
  /// at `start` (and every other bullet where it is now) and the solver had moved it to where it
  /// is: the sweep's geometry without a scene that tunnels.
  static void sweepFrom(World& w, BodyId bullet, const Vec3& start) {
    w.bulletStart_.resize(w.bodies_.size());
    for (size_t i = 0; i < w.bodies_.size(); ++i) w.bulletStart_[i] = w.bodies_[i].center;
    w.bulletStart_[bullet.index] = start;
    w.sweepBullets();
  }
};

}  // namespace tumble
