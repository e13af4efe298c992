#include "scene.h"
#include "scenes.h"

namespace tumble::demo {

std::span<const SceneEntry> sceneTable() {
  // Sorted by name; one line per scene.
  static const SceneEntry kScenes[] = {
      {"pile", "30 hulls dropped onto the ground, simulated by the World; grab them with the mouse",
       makePileScene},
      {"showcase", "static hulls from assets/shapes and a random hull, built by the engine",
       makeShowcaseScene},
  };
  return kScenes;
}

const SceneEntry* findScene(std::string_view name) {
  for (const SceneEntry& e : sceneTable())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tumble::demo
