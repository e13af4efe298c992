#pragma once
// The one argument parser of tumble-cli's subcommands: each subcommand declares its flags and
// positional arguments once, in a CommandSpec; parseArgs checks a command line against it and
// helpText writes the subcommand's --help from it.
//
//   constexpr Flag kFlags[] = {{.name = "--steps", .metavar = "N", .kind = ValueKind::Integer,
//                               .min = 0, .max = 100, .defaultValue = "10", .help = "steps"}};
//   constexpr Positional kPositionals[] = {{.name = "SCENE", .help = "a scene"}};
//   constexpr CommandSpec kSpec{.name = "sim", .positionals = kPositionals, .flags = kFlags};
//   const auto parsed = parseArgs(kSpec, args);
//   if (auto status = earlyExit(kSpec, parsed)) return *status;  // --help, or a usage error
//   const long steps = *parsed->integer("--steps");
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tumble/result.h"

namespace tumble::cli {

/// What a flag takes after it: `--flag VALUE` or `--flag=VALUE`.
enum class ValueKind {
  None,      ///< nothing: a switch (`--json`)
  String,    ///< any text, the empty one included (`--dump FILE`)
  Integer,   ///< a decimal integer in [Flag::min, Flag::max] (`--steps N`)
  Unsigned,  ///< a decimal integer in [0, 2^64 - 1] (`--churn SEED`)
};

/// One flag of a subcommand. A flag given twice keeps its last value unless it is `repeated`.
struct Flag {
  std::string_view name = {};     ///< with its dashes: "--steps"
  std::string_view metavar = {};  ///< the value's name in help ("N", "FILE"); empty for a switch
  ValueKind kind = ValueKind::None;
  std::int64_t min = 0;                ///< the least Integer accepted
  std::int64_t max = 0;                ///< the greatest Integer accepted
  bool repeated = false;               ///< may be given more than once, every value kept (`--set`)
  std::string_view defaultValue = {};  ///< the value when not given (empty: none); shown in help
  std::string_view help = {};          ///< one line; a '\n' continues it on an indented line
};

/// One positional argument; they are taken in the order declared.
struct Positional {
  std::string_view name = {};  ///< as in the usage line: "SCENE", "FILE|-"
  std::string_view help = {};  ///< one line for --help; a '\n' continues it on an indented line
  bool required = true;        ///< a required one may not follow an optional one
};

/// A subcommand's command line: what `tumble-cli NAME ...` accepts. Every subcommand also takes
/// `--help` (or `-h`), and `--` ends the options (what follows is positional).
struct CommandSpec {
  std::string_view name = {};                    ///< "sim"
  std::span<const Positional> positionals = {};  ///< in order
  std::span<const Flag> flags = {};              ///< in the order --help lists them
  std::string_view description = {};  ///< --help text between the usage line and the lists
  std::string_view epilogue = {};     ///< --help text after the lists (exit status, notes)
};

/// A command line checked against its CommandSpec: the flags given (each with its values in the
/// order given; a switch has one empty value; a flag that is not `repeated` only its last one)
/// and the positional arguments. The accessors name a flag as declared ("--steps"); naming a
/// flag the spec does not declare, or asking a String flag for an integer, is a bug in the
/// caller: it prints the name and aborts.
struct ParsedArgs {
  const CommandSpec* spec = nullptr;
  bool help = false;  ///< --help or -h was given; parsing stopped there
  std::map<std::string, std::vector<std::string>, std::less<>> given;
  std::vector<std::string> positionals;

  /// Whether the flag was given (a switch: whether it is on).
  bool has(std::string_view flag) const;
  /// The flag's last value, else its declared default, else nullopt.
  std::optional<std::string> value(std::string_view flag) const;
  /// Every value of the flag, in the order given (none if it was not given).
  std::vector<std::string> values(std::string_view flag) const;
  /// value() of an Integer flag as a number.
  std::optional<std::int64_t> integer(std::string_view flag) const;
  /// value() of an Unsigned flag as a number.
  std::optional<std::uint64_t> unsignedInteger(std::string_view flag) const;
};

/// Checks `args` (the words after the subcommand's name) against `spec`. Fails with a message
/// that names the flag or argument and what was expected: "unknown option '--stpes' for 'sim'
/// (known: ...)", "--dump needs a value (FILE)", "--steps: expected an integer in [0, 100], got
/// 'x'", "--json takes no value, got '--json=1'", "missing SCENE", "unexpected argument 'b';
/// 'sim' takes SCENE, already given 'a'". A --help stops the parse: what follows is not checked.
Expected<ParsedArgs> parseArgs(const CommandSpec& spec, std::span<const std::string> args);

/// The subcommand's --help: usage line, description, arguments, options (with each Integer's
/// range and each default), epilogue.
std::string helpText(const CommandSpec& spec);

/// The start of every subcommand: for --help prints helpText to stdout and returns 0; for a
/// failed parse prints "NAME: message" and helpText to stderr and returns 1 (a usage error);
/// otherwise returns nullopt and the subcommand goes on.
std::optional<int> earlyExit(const CommandSpec& spec, const Expected<ParsedArgs>& parsed);

}  // namespace tumble::cli
