#include "scene.h"
#include "scene_gjk_viewer.h"
#include "scenes.h"

namespace tumble::demo {

std::span<const SceneEntry> sceneTable() {
  // Sorted by name; one line per scene.
  static const SceneEntry kScenes[] = {
      {"chain", "a chain of capsules folded at its joints, never passing through itself",
       makeChainScene},
      {"gjk", "GJK/LP viewer: A - B, GJK's simplex step by step, EPA, the LP verdict beside",
       makeGjkViewerScene},
      {"incline", "assets/scenes/incline.json: boxes on 30 degree slopes, one holds, one slides"},
      {"pile", "assets/scenes/pile.json: 300 mixed hulls dropped into an open box"},
      {"pyramid", "assets/scenes/pyramid.json: a pyramid of 210 boxes"},
      {"showcase", "static hulls from assets/shapes and a random hull, built by the engine",
       makeShowcaseScene},
      {"tower", "assets/scenes/tower.json: 20 boxes stacked on the ground"},
  };
  return kScenes;
}

std::unique_ptr<Scene> makeScene(const SceneEntry& entry) {
  return entry.make ? entry.make() : makeFileScene(entry.name);
}

const SceneEntry* findScene(std::string_view name) {
  for (const SceneEntry& e : sceneTable())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tumble::demo
