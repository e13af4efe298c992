// tumble-cli: runs the engine headless (collision queries, chain scripts, scenes) and prints JSON.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"

namespace tumble::cli {

// Each subcommand lives in its own file (cli_<name>.cpp), is declared in commands.h and adds one
// line here, sorted by name.
std::span<const Command> commands() {
  static const Command kCommands[] = {
      {"chain", "fold a chain of capsules that never passes through itself (JSON)", runChain},
      {"collide", "GJK/EPA and the LP test on pairs (JSON Lines)", runCollide},
      {"query", "ray, shape-cast and overlap queries on a scene (JSON Lines)", runQuery},
      {"settings", "list every settings key: default, unit, range, meaning", runSettings},
      {"sim", "run a scene headless and report its state (JSON)", runSim},
  };
  return kCommands;
}

Expected<void> applySettingFlags(const ParsedArgs& args, Settings& settings) {
  for (const std::string& assignment : args.values("--set"))
    if (auto set = setSettingAssignment(settings, assignment); !set)
      return Expected<void>::failure("--set " + assignment + ": " + set.error());
  return ok();
}

}  // namespace tumble::cli

namespace {

void printUsage(std::FILE* out) {
  std::fprintf(out,
               "usage: tumble-cli <command> [options]\n"
               "Runs the Tumble physics engine headless and prints JSON.\n\ncommands:\n");
  for (const auto& c : tumble::cli::commands())
    std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n'tumble-cli <command> --help' describes a command.\n");
}

std::string knownCommands() {
  std::string names;
  for (const auto& c : tumble::cli::commands())
    names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names.empty() ? "(none yet)" : names;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    printUsage(stderr);
    return 1;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    printUsage(stdout);
    return 0;
  }
  for (const auto& c : tumble::cli::commands())
    if (args[0] == c.name) return c.run(tumble::cli::Args(args).subspan(1));
  std::fprintf(stderr, "tumble-cli: unknown command '%s'; known commands: %s\n", args[0].c_str(),
               knownCommands().c_str());
  return 1;
}
