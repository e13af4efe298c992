// Chain scripts (chain_script.h): JSON -> radius, points and folds, every error with its JSON path.
#include "chain_script.h"

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace tumble::cli {
namespace {

// Parse errors carry the JSON path.
struct ParseError {
  std::string message;
};

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep what follows.
std::string jsonMessage(const std::string& what) {
  const auto close = what.find("] ");
  return close == std::string::npos ? what : what.substr(close + 2);
}

// What was found, shortened so that a huge value does not flood the message.
std::string shown(const nlohmann::json& j) {
  std::string text = j.dump();
  return text.size() <= 60 ? text : text.substr(0, 57) + "...";
}

Real number(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number()) throw ParseError{path + ": expected a number, got " + shown(j)};
  const Real x = j.get<Real>();
  if (!std::isfinite(x)) throw ParseError{path + ": expected a finite number, got " + shown(j)};
  return x;
}

Vec3 vec3(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array() || j.size() != 3)
    throw ParseError{path + ": expected [x, y, z], got " + shown(j)};
  return Vec3(number(j[0], path + "[0]"), number(j[1], path + "[1]"), number(j[2], path + "[2]"));
}

ChainScript parseScript(const nlohmann::json& doc) {
  if (!doc.is_object()) throw ParseError{"(root): expected an object, got " + shown(doc)};
  for (const auto& [key, value] : doc.items())
    if (key != "radius" && key != "points" && key != "folds")
      throw ParseError{key + ": unknown key (expected radius, points, folds)"};
  ChainScript s;
  if (!doc.contains("radius")) throw ParseError{"radius: missing (a number > 0)"};
  s.radius = number(doc["radius"], "radius");
  if (!(s.radius > 0.0))
    throw ParseError{"radius: expected a number > 0, got " + shown(doc["radius"])};
  if (!doc.contains("points") || !doc["points"].is_array())
    throw ParseError{"points: expected an array of [x, y, z]"};
  const auto& pts = doc["points"];
  for (size_t k = 0; k < pts.size(); ++k)
    s.points.push_back(vec3(pts[k], "points[" + std::to_string(k) + "]"));
  if (s.points.size() < 3)
    throw ParseError{"points: expected at least 3 points, got " + std::to_string(s.points.size())};
  if (doc.contains("folds")) {
    const auto& folds = doc["folds"];
    if (!folds.is_array()) throw ParseError{"folds: expected an array, got " + shown(folds)};
    const int n = static_cast<int>(s.points.size());
    for (size_t k = 0; k < folds.size(); ++k) {
      const std::string path = "folds[" + std::to_string(k) + "]";
      const auto& f = folds[k];
      if (!f.is_object()) throw ParseError{path + ": expected an object, got " + shown(f)};
      for (const auto& [key, value] : f.items())
        if (key != "joint" && key != "axis" && key != "angle")
          throw ParseError{path + "." + key + ": unknown key (expected joint, axis, angle)"};
      for (const char* key : {"joint", "axis", "angle"})
        if (!f.contains(key)) throw ParseError{path + "." + key + ": missing"};
      ChainFold fold;
      if (!f["joint"].is_number_integer())
        throw ParseError{path + ".joint: expected an integer, got " + shown(f["joint"])};
      const long long joint = f["joint"].is_number_unsigned()
                                  ? static_cast<long long>(std::min<uint64_t>(
                                        f["joint"].get<uint64_t>(), uint64_t{1} << 62))
                                  : f["joint"].get<long long>();
      if (joint < 1 || joint > n - 2)
        throw ParseError{path + ".joint: " + std::to_string(joint) + " is out of range 1.." +
                         std::to_string(n - 2)};
      fold.joint = static_cast<int>(joint);
      fold.axis = vec3(f["axis"], path + ".axis");
      if (!(glm::length(fold.axis) > 0.0))
        throw ParseError{path + ".axis: expected a non-zero vector, got " + shown(f["axis"])};
      fold.angle = number(f["angle"], path + ".angle");
      s.folds.push_back(fold);
    }
  }
  return s;
}

}  // namespace

Expected<ChainScript> parseChainScript(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Expected<ChainScript>::failure("empty file; expected a chain script (a JSON object)");
  try {
    return parseScript(nlohmann::json::parse(text));
  } catch (const nlohmann::json::parse_error& e) {
    return Expected<ChainScript>::failure("invalid JSON: " + jsonMessage(e.what()));
  } catch (const nlohmann::json::exception& e) {  // out_of_range for a number such as 1e999
    return Expected<ChainScript>::failure("invalid JSON: " + jsonMessage(e.what()) +
                                          " (expected a finite number)");
  } catch (const ParseError& e) {
    return Expected<ChainScript>::failure(e.message);
  }
}

}  // namespace tumble::cli
