#pragma once
// Factories of the demo scenes, one per scene file; the table is in scene_registry.cpp.
#include <memory>
#include <string_view>

#include "scene.h"

namespace tumble::demo {

/// A foldable chain of capsules (tumble/chain.h); scene_chain.cpp.
std::unique_ptr<Scene> makeChainScene();

/// The scene file assets/scenes/<name>.json, built and stepped by the engine's World; mouse
/// grabbing, dropping bodies.
std::unique_ptr<Scene> makeFileScene(std::string_view name);

/// Static convex hulls (shape files and a seeded random cloud) on the ground.
std::unique_ptr<Scene> makeShowcaseScene();

}  // namespace tumble::demo
