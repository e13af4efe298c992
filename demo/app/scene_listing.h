#pragma once
// The scene files the demo lists: assets/scenes/*.json by name, each with its own `description`
// (free of SDL and GL, so a unit test checks it). Only the description is read here; the engine
// loads the whole file when the scene is chosen, and a file it refuses shows that error then.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tumble::demo {

/// One scene file: its name (the file name without .json), the `description` of its JSON object
/// on one line (empty when it has none), and why the file could not be read when it could not
/// (then it is still listed).
struct SceneFileInfo {
  std::string name;
  std::string description;
  std::string problem;
};

/// The description of scene file text: the `description` string of the JSON object with line
/// breaks and tabs turned into spaces; empty when there is none or it is not a string. Sets
/// `problem` (and returns empty) when the text is not a JSON object.
std::string sceneDescription(std::string_view text, std::string& problem);

/// The regular *.json files of `dir`, sorted by name (byte order). Empty when `dir` cannot be read.
std::vector<SceneFileInfo> listSceneFiles(const std::filesystem::path& dir);

}  // namespace tumble::demo
