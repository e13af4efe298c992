#pragma once
// Subcommands of tumble-cli. Each takes the arguments after its name and returns the exit status:
// 0 success, 1 a usage error, 2 bad input (the message names the file, line or value).
#include <span>
#include <string>

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
/// `tumble-cli settings`: lists every settings key (unit, range, default).
int runSettings(Args args);
/// `tumble-cli sim SCENE`: runs a scene headless.
int runSim(Args args);

/// The subcommands, sorted by name.
std::span<const Command> commands();

}  // namespace tumble::cli
