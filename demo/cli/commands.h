#pragma once
// Subcommands of tumble-cli. Each takes the arguments after its name and returns the exit status:
// 0 success, 1 a usage error, 2 bad input (the message names the file, line or value). Each
// declares its command line once, for the parser of args.h.
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "args.h"
#include "tumble/result.h"
#include "tumble/scene.h"
#include "tumble/settings.h"
#include "tumble/world.h"

namespace tumble::cli {

using Args = std::span<const std::string>;

struct Command {
  const char* name;
  const char* summary;
  int (*run)(Args args);
};

/// `tumble-cli chain FILE`: a chain script (docs/ARCHITECTURE.md, "Chain scripts").
int runChain(Args args);
/// `tumble-cli collide FILE|-`: collision queries (docs/ARCHITECTURE.md, "Collision queries").
int runCollide(Args args);
/// `tumble-cli query SCENE FILE|-`: ray, shape-cast and overlap queries after N steps.
int runQuery(Args args);
/// `tumble-cli settings`: lists every settings key (unit, range, default).
int runSettings(Args args);
/// `tumble-cli sim SCENE`: runs a scene headless.
int runSim(Args args);

/// `--set key=value`, taken by every subcommand: `help` names the keys that matter to it.
constexpr Flag settingFlag(std::string_view help) {
  return {.name = "--set",
          .metavar = "key=value",
          .kind = ValueKind::String,
          .repeated = true,
          .help = help};
}

/// Applies the --set assignments of `args` to `settings`, in order; fails on the first bad one
/// with "--set key=value: " and why (the key, value and range).
Expected<void> applySettingFlags(const ParsedArgs& args, Settings& settings);

/// A scene file found (findSceneFile), loaded, with the --set flags of `args` applied to its
/// settings, and its world built: what `sim` and `query` start from.
struct LoadedScene {
  std::filesystem::path file;
  Scene scene;
  std::unique_ptr<World> world;
};

/// Loads `sceneArg` for `command`; on failure prints "command: why" (naming the file, line or
/// value) to stderr and returns nothing: the caller exits 2.
std::optional<LoadedScene> loadSceneWorld(const char* command, const std::string& sceneArg,
                                          const ParsedArgs& args);

/// The subcommands, sorted by name.
std::span<const Command> commands();

}  // namespace tumble::cli
