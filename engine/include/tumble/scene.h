#pragma once
/// Scene files (assets/scenes/*.json): settings, bodies and generators, loaded into a World.
///
/// Schema (every key optional unless marked; unknown keys and wrong types are errors that name the
/// JSON path, e.g. `bodies[3].positon: unknown key`):
/// ```
/// { "name": "pile", "description": "text",
///   "settings": { "<settings key>": value, ... },      // numbers, integers, true/false,
///                                                      // [x,y,z] for gravity, "off|sample|all"
///   "shapes": { "<name>": [[x,y,z], ...], ... },        // inline shapes, override assets/shapes
///   "bodies": [ { "shape": "box" | [[x,y,z], ...],      // required: a name or inline points
///                 "scale": s | [sx,sy,sz],              // multiplies the shape's points (1)
///                 "position": [x,y,z], "orientation": [w,x,y,z], (normalised; identity)
///                 "linear_velocity": [x,y,z], "angular_velocity": [x,y,z],
///                 "type": "dynamic" | "static" | "kinematic", "static": true (same as type),
///                 "density": kg/m^3 (1000), "mass": kg (overrides density),
///                 "friction": 0.5, "restitution": 0 } ],
///   "generators": [ { "type": "tower" | "pyramid" | "grid" | "pile" | "heap", ... } ] }
/// ```
/// Generators (all take "friction", "restitution", "density", "mass"; the order of bodies is the
/// generator's loop order, so ids are stable):
/// - tower:   "shape", "scale", "count" (boxes stacked), "origin" [x,y,z] of the bottom face
///            centre, "gap" (m between bodies, 0).
/// - pyramid: "shape", "scale", "count" (base width), "origin", "spacing" (x pitch, 1.05 * size).
/// - grid:    "shape", "scale", "count" [nx,ny,nz], "origin" (first centre), "spacing" [x,y,z].
/// - pile:    "shapes" [names], "count", "seed", "origin" (centre of the bottom layer),
///            "area" [x,z] (m), "spacing" (layer pitch and cell size, m), "scale" [min,max].
///            Bodies on a jittered grid, layer by layer, random shape and orientation.
/// - heap:    the benchmark heap of issue 4: "kind" "boxes" (1 m cubes) or "hull20" (20 random
///            points on a sphere of radius 0.5, a different hull per body), "count", "seed":
///            layers of 10 x 10 on a 1.5 m grid, odd layers shifted 0.75 m in x and z, jitter
///            +-0.1 m, layer k at height 1 + 1.5 k, random orientations; mass 1 kg.

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

/// Adds the benchmark heap of issue 4 (see the `heap` generator) to `out`, and the ground.
void appendHeap(std::vector<BodyDef>& out, bool hull20, int count, uint64_t seed);

}  // namespace tumble
