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

/// The subcommands, sorted by name.
std::span<const Command> commands();

}  // namespace tumble::cli
