#pragma once
// Factories of the demo scenes, one per sample file; the table is in sample_registry.cpp.
#include <memory>
#include <string_view>

#include "sample.h"

namespace tumble::demo {

/// A character mover (tumble::Character) walking a level of stairs, slopes, moving platforms and
/// boxes; sample_character.cpp.
std::unique_ptr<Sample> makeCharacterSample();

/// A foldable chain of capsules (tumble/chain.h); sample_chain.cpp.
std::unique_ptr<Sample> makeChainSample();

/// The scene file assets/scenes/<name>.json, built and stepped by the engine's World; mouse
/// grabbing, dropping bodies. The scene files the demo drives get their own class (car:
/// makeCarSample).
std::unique_ptr<Sample> makeFileSample(std::string_view name);

/// assets/scenes/car.json driven from the keyboard: Up/Down set the wheels' motor speed,
/// Left/Right steer the front wheels; the camera follows the car; sample_car.cpp.
std::unique_ptr<Sample> makeCarSample();

/// Static convex hulls (shape files and a seeded random cloud) on the ground.
std::unique_ptr<Sample> makeShowcaseSample();

/// A height field and a static triangle mesh built in code, with compounds, balls and boxes
/// dropped on them; sample_valley.cpp.
std::unique_ptr<Sample> makeValleySample();

}  // namespace tumble::demo
