#include "sample.h"
#include "sample_gjk_viewer.h"
#include "samples.h"

namespace tumble::demo {

std::span<const SampleEntry> sampleTable() {
  // Sorted by category (the order of kSampleCategories), then by name; one line per scene.
  static const SampleEntry kScenes[] = {
      {"heap_boxes_1000", "assets/scenes/heap_boxes_1000.json: 1000 boxes heaped (benchmark)"},
      {"heap_boxes_2000", "assets/scenes/heap_boxes_2000.json: 2000 boxes heaped (benchmark)"},
      {"heap_boxes_500", "assets/scenes/heap_boxes_500.json: 500 boxes heaped (benchmark)"},
      {"heap_hull20_1000", "assets/scenes/heap_hull20_1000.json: 1000 20-point hulls (benchmark)"},
      {"heap_hull20_2000", "assets/scenes/heap_hull20_2000.json: 2000 20-point hulls (benchmark)"},
      {"heap_hull20_500", "assets/scenes/heap_hull20_500.json: 500 20-point hulls (benchmark)"},
      {"incline", "assets/scenes/incline.json: boxes on 30 degree slopes, one holds, one slides"},
      {"pile", "assets/scenes/pile.json: 300 mixed hulls dropped into an open box"},
      {"pyramid", "assets/scenes/pyramid.json: a pyramid of 210 boxes"},
      {"tower", "assets/scenes/tower.json: 20 boxes stacked on the ground"},
      {"gjk", "GJK/LP viewer: A - B, GJK's simplex step by step, EPA, the LP verdict beside",
       makeGjkViewerSample, "geometry"},
      {"showcase", "static hulls from assets/shapes and a random hull, built by the engine",
       makeShowcaseSample, "geometry"},
      {"chain", "a chain of capsules folded at its joints, never passing through itself",
       makeChainSample, "chain"},
  };
  return kScenes;
}

std::unique_ptr<Sample> makeSample(const SampleEntry& entry) {
  return entry.make ? entry.make() : makeFileSample(entry.name);
}

const SampleEntry* findSample(std::string_view name) {
  for (const SampleEntry& e : sampleTable())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tumble::demo
