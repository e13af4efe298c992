#include "scene_listing.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <system_error>

#include <nlohmann/json.hpp>

namespace tumble::demo {

std::string sceneDescription(std::string_view text, std::string& problem) {
  problem.clear();
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Say where, not the parser's long message: choosing the scene shows the loader's.
    problem =
        text.find_first_not_of(" \t\r\n") == std::string_view::npos ? "empty file" : "invalid JSON";
    return {};
  }
  if (!j.is_object()) {
    problem = "not a JSON object";
    return {};
  }
  const auto it = j.find("description");
  if (it == j.end() || !it->is_string()) return {};
  std::string out = it->get<std::string>();
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  return out;
}

std::vector<SceneFileInfo> listSceneFiles(const std::filesystem::path& dir) {
  std::vector<SceneFileInfo> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::filesystem::path& path = it->path();
    if (path.extension() != ".json" || !it->is_regular_file(ec)) continue;
    SceneFileInfo info;
    info.name = path.stem().string();
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      info.problem = "cannot be read";
    } else {
      const std::string text{std::istreambuf_iterator<char>(in), {}};
      info.description = sceneDescription(text, info.problem);
    }
    out.push_back(std::move(info));
  }
  std::sort(out.begin(), out.end(),
            [](const SceneFileInfo& a, const SceneFileInfo& b) { return a.name < b.name; });
  return out;
}

}  // namespace tumble::demo
