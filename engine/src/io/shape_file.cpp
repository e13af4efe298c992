#include "tumble/shape_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "geometry/fp_hold.h"

namespace tumble {
namespace {

using Json = nlohmann::json;

std::string describe(const Json& value) {
  std::string type = value.type_name();
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return type + " " + text;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep what follows.
std::string parseMessage(const std::string& what) {
  auto close = what.find("] ");
  return close == std::string::npos ? what : what.substr(close + 2);
}

}  // namespace

Expected<ShapeDef> parseShapeText(std::string_view text, const std::string& origin,
                                  std::string_view expectedName) {
  using Result = Expected<ShapeDef>;
  auto fail = [&](const std::string& message) { return Result::failure(origin + ": " + message); };
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return fail("empty file; expected a shape {\"name\": ..., \"points\": [[x, y, z], ...]}");
  Json doc;
  try {
    detail::FloatingPointHold fpHold;  // "1e999" overflows to inf inside the parser
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {  // parse_error, or out_of_range for "1e999"
    return fail(parseMessage(e.what()));
  }
  if (!doc.is_object()) return fail("expected an object at the top level, got " + describe(doc));
  for (const auto& [key, value] : doc.items()) {
    if (key != "name" && key != "points" && key != "source") {
      return fail(key + ": unknown key (expected name, points, source)");
    }
  }
  if (doc.contains("source") && !doc["source"].is_string()) {
    return fail("source: expected a string, got " + describe(doc["source"]));
  }

  ShapeDef shape;
  if (!doc.contains("name")) return fail("name: missing (expected a string)");
  const Json& name = doc["name"];
  if (!name.is_string()) return fail("name: expected a string, got " + describe(name));
  shape.name = name.get<std::string>();
  if (shape.name.empty()) return fail("name: expected a non-empty string");
  if (!expectedName.empty() && shape.name != expectedName) {
    return fail("name: \"" + shape.name + "\" does not match the file name \"" +
                std::string(expectedName) + "\"");
  }

  if (!doc.contains("points")) return fail("points: missing (expected an array of [x, y, z])");
  const Json& points = doc["points"];
  if (!points.is_array()) {
    return fail("points: expected an array of [x, y, z], got " + describe(points));
  }
  if (points.empty()) return fail("points: expected at least one point, got an empty array");
  shape.points.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const std::string where = "points[" + std::to_string(i) + "]";
    const Json& p = points[i];
    if (!p.is_array() || p.size() != 3) {
      return fail(where + ": expected an array of 3 numbers, got " + describe(p));
    }
    Vec3 v(0.0);
    for (size_t k = 0; k < 3; ++k) {
      const std::string at = where + "[" + std::to_string(k) + "]";
      if (!p[k].is_number()) return fail(at + ": expected a number, got " + describe(p[k]));
      v[static_cast<int>(k)] = p[k].get<double>();
      if (!isFinite(v[static_cast<int>(k)])) {
        return fail(at + ": expected a finite number, got " + p[k].dump());
      }
    }
    shape.points.push_back(v);
  }
  return shape;
}

Expected<ShapeDef> loadShapeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Expected<ShapeDef>::failure(path.string() + ": cannot open shape file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Expected<ShapeDef>::failure(path.string() + ": read error");
  return parseShapeText(text.str(), path.string(), path.stem().string());
}

Expected<std::vector<ShapeDef>> loadShapeLibrary(const std::filesystem::path& directory) {
  using Result = Expected<std::vector<ShapeDef>>;
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec)) {
    return Result::failure(directory.string() + ": not a directory of shape files");
  }
  std::vector<std::filesystem::path> files;
  std::filesystem::directory_iterator it(directory, ec);
  if (ec) return Result::failure(directory.string() + ": " + ec.message());
  for (const auto& entry : it) {
    if (entry.path().extension() == ".json" && entry.is_regular_file(ec)) {
      files.push_back(entry.path());
    }
  }
  // Directory order is file-system dependent: read in path order, then sort by name.
  std::sort(files.begin(), files.end());
  std::vector<ShapeDef> shapes;
  for (const auto& file : files) {
    auto shape = loadShapeFile(file);
    if (!shape) return Result::failure(shape.error());
    shapes.push_back(std::move(*shape));
  }
  std::sort(shapes.begin(), shapes.end(),
            [](const ShapeDef& a, const ShapeDef& b) { return a.name < b.name; });
  return shapes;
}

const ShapeDef* findShape(std::span<const ShapeDef> library, std::string_view name) {
  auto it = std::find_if(library.begin(), library.end(),
                         [&](const ShapeDef& s) { return s.name == name; });
  return it != library.end() ? &*it : nullptr;
}

}  // namespace tumble
