#pragma once
/// Scene files (assets/scenes/*.json): settings, bodies and generators, loaded into a World.
/// The schema and the generators (tower, pyramid, grid, pile, heap) are README's section "Scene
/// files"; the loader's rules are docs/ARCHITECTURE.md, "Scene files". Every key is optional
/// unless marked; unknown keys and wrong types are errors that name the JSON path
/// (`bodies[3].positon: unknown key`). Bodies come in file order, then each generator's in its
/// loop order, so body ids are stable. A body's `shape` is a name (the scene's `shapes`, then the
/// shapes directory), inline points (their convex hull) or an object with one key naming the kind:
/// `{"sphere": {"radius": r}}`, `{"capsule": {"radius": r, "half_height": h}}` (axis y),
/// `{"compound": [{"shape": s, "position": p, "orientation": q}, ...]}` (convex children),
/// `{"mesh": {"file": "f.obj"}}` or `{"mesh": {"vertices": [...], "triangles": [...]}}` and
/// `{"heightfield": {"heights": [[...], ...], "spacing": [dx, dz]}}` or
/// `{"heightfield": {"file": "f.png", "spacing": [dx, dz], "height_scale": s}}` (static bodies
/// only); entries of `shapes` are points or such objects. A shape object takes a uniform `scale`
/// only. Mesh and height-field files are read from the meshes and heightfields directories.

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

/// A joint of a scene: its definition with the bodies given by their index in Scene::bodies
/// (-1: the static world); buildWorld fills the definition's body ids.
struct SceneJoint {
  JointDef def;
  int a = -1;
  int b = -1;
};

/// A scene ready to build: settings, body definitions (shapes shared between equal bodies) and
/// joints (README, "Scene files": the top-level "joints" array).
struct Scene {
  std::string name;
  std::string description;
  Settings settings;
  std::vector<BodyDef> bodies;
  std::vector<SceneJoint> joints;
};

/// Where a scene's files are read from (an assets directory's shapes, meshes and heightfields).
struct SceneDirs {
  std::filesystem::path shapes;        ///< named shapes: `<shapes>/<name>.json`
  std::filesystem::path meshes;        ///< a mesh's relative "file" (OBJ)
  std::filesystem::path heightfields;  ///< a height field's relative "file" (PNG)
};

/// The directories beside `shapesDir` (assets/shapes): its parent's meshes and heightfields.
SceneDirs sceneDirsBeside(const std::filesystem::path& shapesDir);

/// Parses scene JSON. `origin` names the text in messages; `dirs` is where named shapes, mesh
/// files and height-field images are read from. Errors read `<origin>: <json path>: <what was
/// expected>`.
Expected<Scene> parseScene(std::string_view text, const std::string& origin, const SceneDirs& dirs);

/// parseScene with named shapes from `shapesDir` (assets/shapes) and files from the folders beside
/// it (sceneDirsBeside).
Expected<Scene> parseScene(std::string_view text, const std::string& origin,
                           const std::filesystem::path& shapesDir);

/// Reads a scene file. Shapes come from `shapesDir` and files from the folders beside it
/// (sceneDirsBeside); when `shapesDir` is empty, each folder (shapes, meshes, heightfields) is the
/// one beside the scene (`<file dir>/../shapes`), else the first assets directory that has it (as
/// findSceneFile looks).
Expected<Scene> loadScene(const std::filesystem::path& file,
                          const std::filesystem::path& shapesDir = {});

/// Finds a scene given as a path or a bare name (`pile` -> `assets/scenes/pile.json`), searching
/// the current directory, $TUMBLE_ASSETS and the parents of the current directory. Fails naming
/// the places it looked.
Expected<std::filesystem::path> findSceneFile(std::string_view nameOrPath);

/// Creates a World with the scene's settings, bodies (in file order) and joints (in file order).
/// A joint the World rejects fails naming it (`joints[2]: JointDef.axis: ...`).
Expected<std::unique_ptr<World>> buildWorld(const Scene& scene);

/// Adds the benchmark heap of issue 4 (the `heap` generator of README, "Scene files") to `out`,
/// and the ground.
void appendHeap(std::vector<BodyDef>& out, bool hull20, int count, uint64_t seed);

}  // namespace tumble
