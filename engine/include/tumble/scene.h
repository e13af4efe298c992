#pragma once
/// Scene files (assets/scenes/*.json): settings, bodies and generators, loaded into a World.
/// The schema and the generators (tower, pyramid, grid, pile, heap) are README's section "Scene
/// files"; the loader's rules are docs/ARCHITECTURE.md, "Scene files". Every key is optional
/// unless marked; unknown keys and wrong types are errors that name the JSON path
/// (`bodies[3].positon: unknown key`). Bodies come in file order, then each generator's in its
/// loop order, so body ids are stable. A body's `shape` is a name (the scene's `shapes`, then the
/// shapes directory), inline points (their convex hull) or an object with one key naming the kind:
/// `{"sphere": {"radius": r}}`, `{"capsule": {"radius": r, "half_height": h}}` (axis y); entries
/// of `shapes` are points or such objects. A sphere or capsule takes a uniform `scale` only.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tumble/body.h"
#include "tumble/result.h"
#include "tumble/settings.h"
#include "tumble/world.h"

namespace tumble {

/// A scene ready to build: settings and body definitions (shapes shared between equal bodies).
struct Scene {
  std::string name;
  std::string description;
  Settings settings;
  std::vector<BodyDef> bodies;
};

/// Parses scene JSON. `origin` names the text in messages; `shapesDir` is where named shapes are
/// read from (assets/shapes). Errors read `<origin>: <json path>: <what was expected>`.
Expected<Scene> parseScene(std::string_view text, const std::string& origin,
                           const std::filesystem::path& shapesDir);

/// Reads a scene file. Shapes come from `shapesDir`, or when empty from `<file dir>/../shapes`.
Expected<Scene> loadScene(const std::filesystem::path& file,
                          const std::filesystem::path& shapesDir = {});

/// Finds a scene given as a path or a bare name (`pile` -> `assets/scenes/pile.json`), searching
/// the current directory, $TUMBLE_ASSETS and the parents of the current directory. Fails naming
/// the places it looked.
Expected<std::filesystem::path> findSceneFile(std::string_view nameOrPath);

/// Creates a World with the scene's settings and bodies (bodies in file order).
Expected<std::unique_ptr<World>> buildWorld(const Scene& scene);

/// Adds the benchmark heap of issue 4 (the `heap` generator of README, "Scene files") to `out`,
/// and the ground.
void appendHeap(std::vector<BodyDef>& out, bool hull20, int count, uint64_t seed);

}  // namespace tumble
