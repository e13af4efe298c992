#pragma once
/// Numeric safety: what the World does with a body whose state is not finite.
///
/// Policy. At the start and at the end of every World::step, each live body's position,
/// orientation, linear and angular velocity, force and torque are tested with std::isfinite. A body
/// with any non-finite value is removed from the world at once (World::destroyBody: its contacts,
/// drags and broad-phase proxy go with it), before the value can reach a neighbour through a
/// contact or the broad-phase tree, and an event naming the body, the step and the quantity is kept
/// in World::nonFiniteEvents(). A value injected through the public API (setLinearVelocity(NaN))
/// is caught at the start of the next step; one the solver makes is caught at the end of its step.
/// Removal, not freezing: a non-finite pose has no place to freeze the body at.

#include <cstdint>
#include <vector>

#include "tumble/detail/body_state.h"

namespace tumble {

/// One body found non-finite and removed.
struct NonFiniteEvent {
  BodyId body;                ///< the removed body
  int64_t step = 0;           ///< World::stepCount() when it was found (the step being taken)
  const char* quantity = "";  ///< "position", "orientation", "linear_velocity",
                              ///< "angular_velocity", "force" or "torque": the first non-finite one
};

/// The first non-finite quantity of `b` (names as in NonFiniteEvent), or nullptr when all are
/// finite.
const char* firstNonFinite(const Body& b);

/// Appends an event for every live body of `bodies` with a non-finite state and returns their
/// indices (empty, without allocating, when every body is finite). The caller removes them.
std::vector<int> findNonFinite(const std::vector<Body>& bodies, int64_t step,
                               std::vector<NonFiniteEvent>& events);

}  // namespace tumble
