// tumble-cli settings: every settings key with its unit, valid range, default and meaning (from
// tumble::settingsTable(), so the list can never drift from the engine's).
#include <cstdio>
#include <string>

#include "commands.h"
#include "tumble/settings.h"

namespace tumble::cli {
namespace {

constexpr const char* kHelp =
    "usage: tumble-cli settings [--set key=value]... [--markdown]\n"
    "Prints every settings key: its value (the default, or as changed by --set), unit, valid\n"
    "range and meaning, one line each; --markdown prints a Markdown table instead.\n"
    "Exit status: 0, 1 for a usage error, 2 for a bad --set.\n";

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
  Settings settings;
  bool markdown = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    } else if (args[i] == "--markdown") {
      markdown = true;
    } else if (args[i] == "--set" && i + 1 < args.size()) {
      if (auto err = setSettingAssignment(settings, args[++i]); !err) {
        std::fprintf(stderr, "settings: --set %s: %s\n", args[i].c_str(), err.error().c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "settings: unexpected argument '%s'\n%s", args[i].c_str(), kHelp);
      return 1;
    }
  }
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

}  // namespace tumble::cli
