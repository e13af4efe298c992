#pragma once
/// Numeric safety: what the World does with a body whose state is not finite.
///
/// At the end of every step, and at the start of one after any call that counted an edit, each live
/// body's position, orientation, linear and angular velocity, force and torque are tested. A body
/// with any non-finite value is removed from the world at once, with its contacts, drags and
/// broad-phase proxy, and reported as a NonFiniteEvent in World::nonFiniteEvents()
/// (docs/ARCHITECTURE.md, "Non-finite states").

#include <cstdint>
#include <vector>

#include "tumble/detail/body_state.h"
#include "tumble/task.h"

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

/// findNonFinite in the same pass that sets every body's force and torque to zero (the end of a
/// step: one walk over the bodies instead of two). With `tasks` the walk runs in parallel chunks;
/// the events and indices are the same, in index order.
std::vector<int> clearForcesFindNonFinite(std::vector<Body>& bodies, int64_t step,
                                          std::vector<NonFiniteEvent>& events,
                                          TaskSystem* tasks = nullptr);

}  // namespace tumble
