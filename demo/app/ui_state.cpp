#include "ui_state.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "tumble/atomic_file.h"

namespace tumble::demo {
namespace {

using Json = nlohmann::json;

std::string readAll(const std::filesystem::path& file, bool& ok) {
  std::ifstream in(file, std::ios::binary);
  ok = static_cast<bool>(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text setSetting accepts for a JSON value of the key's kind; nullopt on a wrong type.
std::optional<std::string> settingText(const SettingInfo& info, const Json& v) {
  auto number = [](const Json& n) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", n.get<double>());
    return std::string(buffer);
  };
  switch (info.kind) {
    case SettingKind::Number:
    case SettingKind::Integer:
      if (!v.is_number()) return std::nullopt;
      return v.is_number_integer() ? std::to_string(v.get<long long>()) : number(v);
    case SettingKind::Boolean:
      if (!v.is_boolean()) return std::nullopt;
      return v.get<bool>() ? "true" : "false";
    case SettingKind::Vector:
      if (!v.is_array() || v.size() != 3) return std::nullopt;
      for (const Json& c : v)
        if (!c.is_number()) return std::nullopt;
      return number(v[0]) + "," + number(v[1]) + "," + number(v[2]);
    case SettingKind::CrossCheck:
      if (!v.is_string()) return std::nullopt;
      return v.get<std::string>();
  }
  return std::nullopt;
}

const char* expectedType(SettingKind kind) {
  switch (kind) {
    case SettingKind::Number:
      return "a number";
    case SettingKind::Integer:
      return "an integer";
    case SettingKind::Boolean:
      return "true or false";
    case SettingKind::Vector:
      return "an array of 3 numbers";
    case SettingKind::CrossCheck:
      return "\"off\", \"sample\" or \"all\"";
  }
  return "a value";
}

}  // namespace

std::optional<std::filesystem::path> configDirectory(const std::string& override) {
  if (!override.empty()) return std::filesystem::path(override);
  if (const char* dir = std::getenv("TUMBLE_CONFIG_DIR"); dir && *dir)
    return std::filesystem::path(dir);
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "tumble";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".config" / "tumble";
  return std::nullopt;
}

Expected<void> writeFileAtomically(const std::filesystem::path& file, const std::string& text) {
  // A missing folder is made here; one that cannot be made shows up as writeFileAtomic's
  // "cannot create a temporary file in <folder>: <reason>".
  std::error_code ec;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
  return writeFileAtomic(file, text);
}

Expected<UiState> loadUiState(const std::filesystem::path& file) {
  UiState s;
  bool ok = false;
  const std::string text = readAll(file, ok);
  if (!ok) return s;  // first run
  const Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Expected<UiState>::failure(file.string() + ": not a JSON object");
  try {
    s.lastScene = j.value("last_scene", s.lastScene);
    s.fontScale = j.value("font_scale", s.fontScale);
    s.vsync = j.value("vsync", s.vsync);
    s.showStats = j.value("show_stats", s.showStats);
    s.showHelp = j.value("show_help", s.showHelp);
    s.spawnShape = j.value("spawn_shape", s.spawnShape);
    if (j.contains("debug")) {
      const Json& d = j.at("debug");
      DebugToggles& t = s.debug;
      for (auto [key, field] :
           std::initializer_list<std::pair<const char*, bool*>>{{"faces", &t.faces},
                                                                {"edges", &t.edges},
                                                                {"aabbs", &t.aabbs},
                                                                {"tree", &t.tree},
                                                                {"contacts", &t.contacts},
                                                                {"normals", &t.normals},
                                                                {"impulses", &t.impulses},
                                                                {"islands", &t.islands},
                                                                {"sleep", &t.sleep},
                                                                {"centers", &t.centers},
                                                                {"velocities", &t.velocities},
                                                                {"crosscheck", &t.crosscheck},
                                                                {"joints", &t.joints},
                                                                {"shape_trees", &t.shapeTrees}})
        *field = d.value(key, *field);
      t.shapeTreeDepth =
          std::clamp(d.value("shape_tree_depth", t.shapeTreeDepth), 0, kMaxShapeTreeDepth);
    }
  } catch (const Json::exception& e) {
    return Expected<UiState>::failure(file.string() + ": " + e.what());
  }
  if (!(s.fontScale >= 0.5f && s.fontScale <= 3.0f)) s.fontScale = 1.0f;
  return s;
}

Expected<void> saveUiState(const std::filesystem::path& file, const UiState& s) {
  const DebugToggles& t = s.debug;
  const Json j = {{"last_scene", s.lastScene},
                  {"font_scale", s.fontScale},
                  {"vsync", s.vsync},
                  {"show_stats", s.showStats},
                  {"show_help", s.showHelp},
                  {"spawn_shape", s.spawnShape},
                  {"debug",
                   {{"faces", t.faces},
                    {"edges", t.edges},
                    {"aabbs", t.aabbs},
                    {"tree", t.tree},
                    {"contacts", t.contacts},
                    {"normals", t.normals},
                    {"impulses", t.impulses},
                    {"islands", t.islands},
                    {"sleep", t.sleep},
                    {"centers", t.centers},
                    {"velocities", t.velocities},
                    {"crosscheck", t.crosscheck},
                    {"joints", t.joints},
                    {"shape_trees", t.shapeTrees},
                    {"shape_tree_depth", t.shapeTreeDepth}}}};
  return writeFileAtomically(file, j.dump(2) + "\n");
}

std::string settingJsonValue(const Settings& settings, const SettingInfo& info) {
  const std::string text = settingValue(settings, info);
  switch (info.kind) {
    case SettingKind::Number:
    case SettingKind::Integer:
    case SettingKind::Boolean:
      return text;
    case SettingKind::Vector:
      return "[" + text + "]";
    case SettingKind::CrossCheck:
      return "\"" + text + "\"";
  }
  return "null";
}

std::string presetJson(const Settings& settings) {
  std::string out = "{\n  \"tumble_preset\": 1,\n  \"settings\": {\n";
  bool first = true;
  for (const SettingInfo& info : settingsTable()) {
    out += first ? "" : ",\n";
    first = false;
    out += "    \"" + std::string(info.key) + "\": " + settingJsonValue(settings, info);
  }
  return out + "\n  }\n}\n";
}

Expected<Settings> applyPresetText(const std::string& text, const Settings& base,
                                   const std::string& origin) {
  using E = Expected<Settings>;
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return E::failure(origin + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) return E::failure(origin + ": expected a JSON object");
  for (const auto& [key, value] : j.items()) {
    if (key != "tumble_preset" && key != "settings")
      return E::failure(origin + ": " + key + ": unknown key (expected tumble_preset, settings)");
  }
  if (!j.contains("settings") || !j.at("settings").is_object())
    return E::failure(origin + ": settings: expected an object of key: value");
  Settings s = base;
  for (const auto& [key, value] : j.at("settings").items()) {
    const SettingInfo* info = findSetting(key);
    if (!info) return E::failure(origin + ": settings." + key + ": unknown setting");
    const auto textValue = settingText(*info, value);
    if (!textValue)
      return E::failure(origin + ": settings." + key + ": expected " + expectedType(info->kind) +
                        ", got " + value.dump());
    if (auto error = setSetting(s, key, *textValue); !error)
      return E::failure(origin + ": settings." + key + ": " + error.error());
  }
  if (auto error = validate(s); !error) return E::failure(origin + ": " + error.error());
  return s;
}

Expected<void> savePreset(const std::filesystem::path& file, const Settings& settings) {
  return writeFileAtomically(file, presetJson(settings));
}

Expected<Settings> loadPreset(const std::filesystem::path& file, const Settings& base) {
  bool ok = false;
  const std::string text = readAll(file, ok);
  if (!ok) return Expected<Settings>::failure("cannot read preset '" + file.string() + "'");
  return applyPresetText(text, base, file.string());
}

}  // namespace tumble::demo
