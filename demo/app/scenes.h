#pragma once
// Factories of the demo scenes, one per scene file; the table is in scene_registry.cpp.
#include <memory>

#include "scene.h"

namespace tumble::demo {

/// Hulls dropped onto a ground slab, simulated by the engine's World; mouse grabbing.
std::unique_ptr<Scene> makePileScene();

/// Static convex hulls (shape files and a seeded random cloud) on the ground.
std::unique_ptr<Scene> makeShowcaseScene();

}  // namespace tumble::demo
