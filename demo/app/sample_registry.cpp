#include <algorithm>

#include "sample.h"
#include "sample_gjk_viewer.h"
#include "samples.h"
#include "scene_listing.h"

namespace tumble::demo {
namespace {

int categoryRank(std::string_view category) {
  const auto it = std::find(std::begin(kSampleCategories), std::end(kSampleCategories), category);
  return static_cast<int>(it - std::begin(kSampleCategories));
}

}  // namespace

std::span<const SampleEntry> classSamples() {
  // One line per sample class; the scene files (dynamics) are listed from assets/scenes.
  static const SampleEntry kSamples[] = {
      {"gjk",
       "GJK/LP viewer: A - B, GJK's simplex step by step, EPA, the LP verdict beside",
       makeGjkViewerSample,
       "geometry",
       {}},
      {"showcase",
       "static hulls from assets/shapes and a random hull, built by the engine",
       makeShowcaseSample,
       "geometry",
       {}},
      {"chain",
       "a chain of capsules folded at its joints, never passing through itself",
       makeChainSample,
       "chain",
       {}},
      {"character",
       "a character mover: stairs, 30 and 60 degree slopes, moving platforms, boxes to push",
       makeCharacterSample,
       "dynamics",
       {}},
      {"valley",
       "a 256 x 256 height field and a crater mesh built in code; compound tables, dumbbells",
       makeValleySample,
       "dynamics",
       {}},
  };
  return kSamples;
}

std::vector<SampleEntry> listSamples(const std::filesystem::path& assets) {
  std::vector<SampleEntry> out;
  for (SceneFileInfo& f : listSceneFiles(assets / "scenes")) {
    SampleEntry e;
    e.name = std::move(f.name);
    e.description = std::move(f.description);
    e.problem = std::move(f.problem);
    out.push_back(std::move(e));
  }
  out.insert(out.end(), classSamples().begin(), classSamples().end());
  std::stable_sort(out.begin(), out.end(), [](const SampleEntry& a, const SampleEntry& b) {
    const int ra = categoryRank(a.category), rb = categoryRank(b.category);
    return ra != rb ? ra < rb : a.name < b.name;
  });
  return out;
}

std::unique_ptr<Sample> makeSample(const SampleEntry& entry) {
  return entry.make ? entry.make() : makeFileSample(entry.name);
}

const SampleEntry* findSample(std::span<const SampleEntry> samples, std::string_view name) {
  for (const SampleEntry& e : samples)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace tumble::demo
