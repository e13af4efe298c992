// tumble-cli settings: every settings key with its unit, valid range, default and meaning (from
// tumble::settingsTable(), so the list can never drift from the engine's).
#include <cstdio>
#include <string>

#include "commands.h"
#include "tumble/settings.h"

namespace tumble::cli {
namespace {

constexpr Flag kFlags[] = {
    settingFlag("show this value instead of the default (any settings key)"),
    {.name = "--markdown", .help = "print a Markdown table instead (README's)"},
};

constexpr CommandSpec kSpec{
    .name = "settings",
    .flags = kFlags,
    .description =
        "Prints every settings key: its value (the default, or as changed by --set), "
        "unit, valid\nrange and meaning, one line each.\n",
    .epilogue = "Exit status: 0, 1 for a usage error, 2 for a bad --set.\n",
};

// The range as people read it: "[min, max]" for numbers; booleans and modes have their words.
std::string rangeText(const SettingInfo& info) {
  switch (info.kind) {
    case SettingKind::Boolean:
      return "true, false";
    case SettingKind::CrossCheck:
      return "off, sample, all";
    case SettingKind::Integer: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "[%.0f, %.0f]", info.min, info.max);
      return buf;
    }
    case SettingKind::Vector:
    case SettingKind::Number:
      break;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%g, %g]%s", info.min, info.max,
                info.kind == SettingKind::Vector ? " each" : "");
  return buf;
}

}  // namespace

int runSettings(Args args) {
  const auto parsed = parseArgs(kSpec, args);
  if (auto status = earlyExit(kSpec, parsed)) return *status;
  Settings settings;
  if (auto set = applySettingFlags(*parsed, settings); !set) {
    std::fprintf(stderr, "settings: %s\n", set.error().c_str());
    return 2;
  }
  const bool markdown = parsed->has("--markdown");
  if (markdown) std::puts("| key | default | unit | range | meaning |\n|---|---|---|---|---|");
  for (const SettingInfo& info : settingsTable()) {
    const std::string value = settingValue(settings, info);
    const std::string unit = info.unit.empty() ? "-" : std::string(info.unit);
    const std::string range = rangeText(info);
    if (markdown) {
      std::printf("| `%.*s` | `%s` | %s | %s | %.*s |\n", static_cast<int>(info.key.size()),
                  info.key.data(), value.c_str(), unit.c_str(), range.c_str(),
                  static_cast<int>(info.description.size()), info.description.data());
    } else {
      std::printf("%-30.*s %-14s %-8s %-22s %.*s\n", static_cast<int>(info.key.size()),
                  info.key.data(), value.c_str(), unit.c_str(), range.c_str(),
                  static_cast<int>(info.description.size()), info.description.data());
    }
  }
  return 0;
}

std::optional<LoadedScene> loadSceneWorld(const char* command, const std::string& sceneArg,
                                          const ParsedArgs& args) {
  auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "%s: %s\n", command, why.c_str());
    return std::nullopt;
  };
  auto file = findSceneFile(sceneArg);
  if (!file) return fail(file.error());
  auto scene = loadScene(*file);
  if (!scene) return fail(scene.error());
  if (auto set = applySettingFlags(args, scene->settings); !set) return fail(set.error());
  auto world = buildWorld(*scene);
  if (!world) return fail(file->string() + ": " + world.error());
  return LoadedScene{std::move(*file), std::move(*scene), std::move(*world)};
}

}  // namespace tumble::cli
