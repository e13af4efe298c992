#pragma once
// Internal: a World's body state, for tests of the narrow phase and solver that need the engine's
// own Body (the API shows bodies only as BodyView).
#include "tumble/world.h"

namespace tumble {

struct WorldInternals {
  static const Body& body(const World& w, BodyId id) { return w.bodies_[id.index]; }
};

}  // namespace tumble
