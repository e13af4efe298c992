// The demo's remembered state and settings presets (demo/app/ui_state.cpp, free of SDL and GL):
// a save followed by a load gives back every field, and a save that cannot be done leaves no
// temporary file and says which file and why (the files go through writeFileAtomic).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../../demo/app/ui_state.h"

using namespace tumble;
using namespace tumble::demo;
namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

// A fresh, empty folder under the build tree.
fs::path freshFolder(const std::string& name) {
  const fs::path dir = fs::path(TUMBLE_BINARY_DIR) / "test_ui_state" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> namesIn(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Every field away from its default.
UiState changedState() {
  UiState s;
  s.lastScene = "chain";
  s.fontScale = 1.75f;
  s.vsync = false;
  s.showStats = true;
  s.showHelp = true;
  s.spawnShape = "tetrahedron";
  DebugToggles& t = s.debug;
  for (bool* b : {&t.faces, &t.edges, &t.aabbs, &t.tree, &t.contacts, &t.normals, &t.impulses,
                  &t.islands, &t.sleep, &t.centers, &t.velocities, &t.crosscheck, &t.joints})
    *b = !*b;
  return s;
}

}  // namespace

TEST_CASE("ui state: save then load gives back every field, in a folder made on the way",
          "[ui_state]") {
  const fs::path dir = freshFolder("round_trip");
  const fs::path file = dir / "config" / "tumble" / "state.json";  // folders do not exist yet
  const UiState saved = changedState();
  REQUIRE(saveUiState(file, saved));
  CHECK(namesIn(file.parent_path()) == std::vector<std::string>{"state.json"});

  auto loaded = loadUiState(file);
  REQUIRE(loaded.ok());
  CHECK(loaded->lastScene == saved.lastScene);
  CHECK(loaded->fontScale == Approx(saved.fontScale));
  CHECK(loaded->vsync == saved.vsync);
  CHECK(loaded->showStats == saved.showStats);
  CHECK(loaded->showHelp == saved.showHelp);
  CHECK(loaded->spawnShape == saved.spawnShape);
  const DebugToggles &a = loaded->debug, &b = saved.debug;
  CHECK(std::vector<bool>{a.faces, a.edges, a.aabbs, a.tree, a.contacts, a.normals, a.impulses,
                          a.islands, a.sleep, a.centers, a.velocities, a.crosscheck, a.joints} ==
        std::vector<bool>{b.faces, b.edges, b.aabbs, b.tree, b.contacts, b.normals, b.impulses,
                          b.islands, b.sleep, b.centers, b.velocities, b.crosscheck, b.joints});

  // A second save replaces the file whole; a missing file loads as the defaults (first run).
  REQUIRE(saveUiState(file, UiState{}));
  CHECK(loadUiState(file)->lastScene.empty());
  CHECK(namesIn(file.parent_path()) == std::vector<std::string>{"state.json"});
  auto none = loadUiState(dir / "missing.json");
  REQUIRE(none.ok());
  CHECK(none->fontScale == Approx(1.0f));
}

TEST_CASE("ui state: a folder that cannot be made is an error naming the file, nothing is left",
          "[ui_state]") {
  // The config folder's parent is a regular file: neither the folder nor a temporary file in it
  // can be created (whoever runs the test, root included).
  const fs::path dir = freshFolder("not_a_folder");
  std::ofstream(dir / "blocker") << "a file, not a folder\n";
  const fs::path file = dir / "blocker" / "tumble" / "state.json";
  const auto error = saveUiState(file, changedState());
  REQUIRE_FALSE(error);
  CHECK_THAT(error.error(), Contains(file.string()) &&
                                Contains("cannot create a temporary file in") &&
                                Contains("Not a directory"));
  CHECK(namesIn(dir) == std::vector<std::string>{"blocker"});
  CHECK(read(dir / "blocker") == "a file, not a folder\n");
}

TEST_CASE("ui state: a target that cannot be replaced keeps no temporary file beside it",
          "[ui_state]") {
  // state.json is a folder with a file in it: the temporary file is written, the rename over the
  // folder fails, and the temporary file must be gone again.
  const fs::path dir = freshFolder("target_is_folder");
  fs::create_directories(dir / "state.json");
  std::ofstream(dir / "state.json" / "keep") << "kept\n";
  const auto error = saveUiState(dir / "state.json", changedState());
  REQUIRE_FALSE(error);
  CHECK_THAT(error.error(), Contains((dir / "state.json").string()) &&
                                Contains("cannot replace the file") &&
                                Contains("the old file is unchanged"));
  CHECK(namesIn(dir) == std::vector<std::string>{"state.json"});
  CHECK(read(dir / "state.json" / "keep") == "kept\n");
}

TEST_CASE("presets: save then load gives back the settings, a bad folder is named", "[ui_state]") {
  const fs::path dir = freshFolder("preset");
  Settings changed;
  REQUIRE(setSetting(changed, "solver.velocity_iterations", "17"));
  REQUIRE(setSetting(changed, "crosscheck", "sample"));
  REQUIRE(setSetting(changed, "gravity", "0,-3.5,1"));
  REQUIRE(savePreset(dir / "round.json", changed));
  CHECK(namesIn(dir) == std::vector<std::string>{"round.json"});
  auto loaded = loadPreset(dir / "round.json", Settings{});
  REQUIRE(loaded.ok());
  CHECK(presetJson(*loaded) == presetJson(changed));
  CHECK(presetJson(*loaded) != presetJson(Settings{}));

  std::ofstream(dir / "blocker") << "x\n";
  const auto error = savePreset(dir / "blocker" / "p.json", changed);
  REQUIRE_FALSE(error);
  CHECK_THAT(error.error(), Contains("p.json") && Contains("Not a directory"));
  CHECK(namesIn(dir) == std::vector<std::string>{"blocker", "round.json"});
}
