#pragma once
// The panel's "Joints" section for any world with hinges, sliders or distance joints: each
// joint's motor, limits and spring as widgets that call World::setJointMotor, setJointLimits and
// setJointSpring between steps.
#include <string>

#include "tumble/world.h"

namespace tumble::demo {

/// Draws the section (nothing when the world has no joint with a motor, limits or a spring).
/// A setter's refusal is stored in `error` and shown until the next change succeeds.
void drawJointsPanel(World& world, std::string& error);

}  // namespace tumble::demo
