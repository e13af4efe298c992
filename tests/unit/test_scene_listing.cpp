// The demo's list of scene files (demo/app/scene_listing.cpp, free of SDL and GL): assets/scenes
// read as a folder, sorted by name, each file with its own `description`, and a file that does
// not parse listed with its problem instead of being dropped.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../../demo/app/scene_listing.h"

using namespace tumble::demo;
namespace fs = std::filesystem;

namespace {

fs::path freshFolder(const std::string& name) {
  const fs::path dir = fs::path(TUMBLE_BINARY_DIR) / "test_scene_listing" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("sceneDescription: the object's description on one line, or the problem",
          "[scene_listing]") {
  std::string problem = "stale";
  CHECK(sceneDescription(R"({"name": "x", "description": "Boxes.", "bodies": []})", problem) ==
        "Boxes.");
  CHECK(problem.empty());
  CHECK(sceneDescription("{\"description\": \"two\\nlines\\tand a tab\"}", problem) ==
        "two lines and a tab");
  // No description, or not a string: empty, and not a problem (the loader judges the rest).
  CHECK(sceneDescription(R"({"bodies": []})", problem).empty());
  CHECK(problem.empty());
  CHECK(sceneDescription(R"({"description": 3})", problem).empty());
  CHECK(problem.empty());

  CHECK(sceneDescription(R"({"description": "cut short", "bodies": [)", problem).empty());
  CHECK(problem == "invalid JSON");
  CHECK(sceneDescription(" \n", problem).empty());
  CHECK(problem == "empty file");
  CHECK(sceneDescription("[1, 2]", problem).empty());
  CHECK(problem == "not a JSON object");
}

TEST_CASE("listSceneFiles: *.json files sorted by name with their descriptions",
          "[scene_listing]") {
  const fs::path dir = freshFolder("mixed");
  write(dir / "tower.json", R"({"description": "A tower."})");
  write(dir / "heap_500.json", R"({"description": "Five hundred."})");
  write(dir / "heap_1000.json", R"({"description": "A thousand."})");
  write(dir / "broken.json", R"({"bodies": [)");
  write(dir / "notes.txt", "not a scene");
  fs::create_directories(dir / "folder.json");  // a folder named like a scene is no scene

  const std::vector<SceneFileInfo> files = listSceneFiles(dir);
  REQUIRE(files.size() == 4);
  // Byte order: "heap_1000" < "heap_500", as the browser has always shown them.
  CHECK(files[0].name == "broken");
  CHECK(files[0].description.empty());
  CHECK(files[0].problem == "invalid JSON");
  CHECK(files[1].name == "heap_1000");
  CHECK(files[1].description == "A thousand.");
  CHECK(files[2].name == "heap_500");
  CHECK(files[2].description == "Five hundred.");
  CHECK(files[3].name == "tower");
  CHECK(files[3].description == "A tower.");
  CHECK(files[3].problem.empty());

  CHECK(listSceneFiles(dir / "no_such_folder").empty());
}

TEST_CASE("listSceneFiles: the committed assets/scenes", "[scene_listing]") {
  const std::vector<SceneFileInfo> files =
      listSceneFiles(fs::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes");
  std::vector<std::string> names;
  for (const SceneFileInfo& f : files) {
    names.push_back(f.name);
    CHECK(f.problem.empty());
    CHECK_FALSE(f.description.empty());
  }
  CHECK(names == std::vector<std::string>{"bridge",
                                          "car",
                                          "compound",
                                          "cradle",
                                          "door",
                                          "heap_boxes_1000",
                                          "heap_boxes_2000",
                                          "heap_boxes_500",
                                          "heap_hull20_1000",
                                          "heap_hull20_2000",
                                          "heap_hull20_500",
                                          "incline",
                                          "joint_grid",
                                          "large_pyramid",
                                          "level",
                                          "loops",
                                          "many_pyramids",
                                          "mass_ratio",
                                          "pendulum",
                                          "pile",
                                          "pyramid",
                                          "ragdolls",
                                          "rope",
                                          "sensors",
                                          "shapes",
                                          "terrain",
                                          "tower"});
  REQUIRE(names.size() > 19);
  CHECK(files[19].description ==
        "A few hundred mixed convex bodies, hulls, true spheres and capsules, dropped into an open "
        "box (the default scene). Rolling resistance 0.05, so that the round ones come to rest "
        "too.");
}
