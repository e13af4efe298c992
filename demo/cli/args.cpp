// The argument parser of tumble-cli's subcommands (args.h).
#include "args.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace tumble::cli {
namespace {

constexpr Flag kHelpFlag{.name = "--help", .help = "print this help"};
constexpr size_t kUsageWidth = 80;

const Flag* findFlag(const CommandSpec& spec, std::string_view name) {
  for (const Flag& f : spec.flags)
    if (f.name == name) return &f;
  return name == kHelpFlag.name ? &kHelpFlag : nullptr;
}

// The caller asked for a flag its spec does not declare, or of the wrong kind: a bug in tumble-cli.
[[noreturn]] void misuse(const CommandSpec* spec, std::string_view flag, const char* what) {
  std::fprintf(stderr, "tumble-cli: internal error: '%.*s' %s '%.*s'\n",
               spec ? static_cast<int>(spec->name.size()) : 0, spec ? spec->name.data() : "", what,
               static_cast<int>(flag.size()), flag.data());
  std::abort();
}

const Flag& declared(const CommandSpec* spec, std::string_view name) {
  const Flag* f = spec ? findFlag(*spec, name) : nullptr;
  if (!f) misuse(spec, name, "declares no flag");
  return *f;
}

// The whole text as a decimal integer: digits after an optional sign ('-' for signed types),
// no spaces.
template <class T>
std::optional<T> parseInteger(std::string_view text) {
  if (text.size() > 1 && text[0] == '+' && text[1] >= '0' && text[1] <= '9') text.remove_prefix(1);
  T n{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return n;
}

std::string expectedText(const Flag& f) {
  if (f.kind == ValueKind::Unsigned) return "an integer >= 0";
  return "an integer in [" + std::to_string(f.min) + ", " + std::to_string(f.max) + "]";
}

Expected<void> checkValue(const Flag& f, const std::string& value) {
  bool good = true;
  if (f.kind == ValueKind::Integer) {
    const auto n = parseInteger<std::int64_t>(value);
    good = n && *n >= f.min && *n <= f.max;
  } else if (f.kind == ValueKind::Unsigned) {
    good = parseInteger<std::uint64_t>(value).has_value();
  }
  if (good) return ok();
  return Expected<void>::failure(std::string(f.name) + ": expected " + expectedText(f) + ", got '" +
                                 value + "'");
}

std::string knownFlags(const CommandSpec& spec) {
  std::string names;
  for (const Flag& f : spec.flags) names += std::string(f.name) + ", ";
  return names + std::string(kHelpFlag.name);
}

std::string positionalNames(const CommandSpec& spec) {
  std::string names;
  for (const Positional& p : spec.positionals) {
    if (!names.empty()) names += ' ';
    names += p.required ? std::string(p.name) : "[" + std::string(p.name) + "]";
  }
  return names;
}

std::string flagLabel(const Flag& f) {
  std::string label(f.name);
  if (f.kind != ValueKind::None) label += " " + std::string(f.metavar);
  if (&f == &kHelpFlag) label += ", -h";
  return label;
}

std::string flagNote(const Flag& f) {
  std::string note;
  if (f.kind == ValueKind::Integer || f.kind == ValueKind::Unsigned) note = expectedText(f);
  if (!f.defaultValue.empty())
    note += (note.empty() ? "default " : "; default ") + std::string(f.defaultValue);
  return note.empty() ? note : " (" + note + ")";
}

// "  LABEL   help (note)", the note closing the help's first line and the help's continuation
// lines indented to its column.
void appendRow(std::string& out, const std::string& label, std::string_view help,
               const std::string& note, size_t column) {
  std::string row = "  " + label;
  row.append(column > row.size() ? column - row.size() : 1, ' ');
  const size_t firstEnd = std::min(help.find('\n'), help.size());
  row += std::string(help.substr(0, firstEnd)) + note;
  for (char c : help.substr(firstEnd)) {
    row += c;
    if (c == '\n') row.append(column, ' ');
  }
  out += row + "\n";
}

void appendParagraph(std::string& out, std::string_view text) {
  if (text.empty()) return;
  out += text;
  if (text.back() != '\n') out += '\n';
}

}  // namespace

bool ParsedArgs::has(std::string_view flag) const {
  declared(spec, flag);
  return given.find(flag) != given.end();
}

std::optional<std::string> ParsedArgs::value(std::string_view flag) const {
  const Flag& f = declared(spec, flag);
  if (auto it = given.find(flag); it != given.end()) return it->second.back();
  if (!f.defaultValue.empty()) return std::string(f.defaultValue);
  return std::nullopt;
}

std::vector<std::string> ParsedArgs::values(std::string_view flag) const {
  declared(spec, flag);
  if (auto it = given.find(flag); it != given.end()) return it->second;
  return {};
}

std::optional<std::int64_t> ParsedArgs::integer(std::string_view flag) const {
  if (declared(spec, flag).kind != ValueKind::Integer) misuse(spec, flag, "has no Integer flag");
  const auto text = value(flag);
  return text ? parseInteger<std::int64_t>(*text) : std::nullopt;
}

std::optional<std::uint64_t> ParsedArgs::unsignedInteger(std::string_view flag) const {
  if (declared(spec, flag).kind != ValueKind::Unsigned) misuse(spec, flag, "has no Unsigned flag");
  const auto text = value(flag);
  return text ? parseInteger<std::uint64_t>(*text) : std::nullopt;
}

Expected<ParsedArgs> parseArgs(const CommandSpec& spec, std::span<const std::string> args) {
  using Failure = Expected<ParsedArgs>;
  ParsedArgs out;
  out.spec = &spec;
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (optionsEnded || arg == "-" || arg.empty() || arg[0] != '-') {
      if (out.positionals.size() == spec.positionals.size()) {
        std::string message =
            "unexpected argument '" + arg + "'; '" + std::string(spec.name) + "' takes ";
        if (spec.positionals.empty()) return Failure::failure(message + "no arguments");
        message += positionalNames(spec) + ", already given";
        for (const std::string& p : out.positionals) message += " '" + p + "'";
        return Failure::failure(message);
      }
      out.positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      optionsEnded = true;
      continue;
    }
    if (arg == "-h") {
      out.help = true;
      return out;
    }
    const size_t eq = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
    const std::string name = arg.substr(0, eq);
    const Flag* flag = findFlag(spec, name);
    if (!flag)
      return Failure::failure("unknown option '" + name + "' for '" + std::string(spec.name) +
                              "' (known: " + knownFlags(spec) + ")");
    std::string value;
    if (flag->kind == ValueKind::None) {
      if (eq != std::string::npos)
        return Failure::failure(name + " takes no value, got '" + arg + "'");
    } else if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Failure::failure(name + " needs a value (" + std::string(flag->metavar) + ")");
    }
    if (flag == &kHelpFlag) {
      out.help = true;
      return out;
    }
    if (auto check = checkValue(*flag, value); !check) return Failure::failure(check.error());
    std::vector<std::string>& values = out.given[name];
    if (!flag->repeated) values.clear();
    values.push_back(std::move(value));
  }
  for (size_t k = out.positionals.size(); k < spec.positionals.size(); ++k)
    if (spec.positionals[k].required)
      return Failure::failure("missing " + std::string(spec.positionals[k].name));
  return out;
}

std::string helpText(const CommandSpec& spec) {
  std::vector<std::string> items;
  for (const Positional& p : spec.positionals)
    items.push_back(p.required ? std::string(p.name) : "[" + std::string(p.name) + "]");
  for (const Flag& f : spec.flags)
    items.push_back("[" + flagLabel(f) + "]" + (f.repeated ? "..." : ""));
  std::string out = "usage: tumble-cli " + std::string(spec.name);
  const size_t indent = out.size() + 1;
  size_t lineStart = 0;
  for (const std::string& item : items) {
    if (out.size() - lineStart + 1 + item.size() > kUsageWidth && out.size() - lineStart > indent) {
      out += '\n';
      lineStart = out.size();
      out.append(indent - 1, ' ');
    }
    out += " " + item;
  }
  out += '\n';
  appendParagraph(out, spec.description);

  size_t column = flagLabel(kHelpFlag).size();
  for (const Positional& p : spec.positionals) column = std::max(column, p.name.size());
  for (const Flag& f : spec.flags) column = std::max(column, flagLabel(f).size());
  column += 5;  // two spaces before the label, at least three after it
  if (!spec.positionals.empty()) {
    out += "\narguments:\n";
    for (const Positional& p : spec.positionals)
      appendRow(out, std::string(p.name), p.help, "", column);
  }
  out += "\noptions:\n";
  for (const Flag& f : spec.flags) appendRow(out, flagLabel(f), f.help, flagNote(f), column);
  appendRow(out, flagLabel(kHelpFlag), kHelpFlag.help, "", column);
  if (!spec.epilogue.empty()) out += '\n';
  appendParagraph(out, spec.epilogue);
  return out;
}

std::optional<int> earlyExit(const CommandSpec& spec, const Expected<ParsedArgs>& parsed) {
  if (parsed && parsed->help) {
    std::fputs(helpText(spec).c_str(), stdout);
    return 0;
  }
  if (parsed) return std::nullopt;
  std::fprintf(stderr, "%.*s: %s\n%s", static_cast<int>(spec.name.size()), spec.name.data(),
               parsed.error().c_str(), helpText(spec).c_str());
  return 1;
}

}  // namespace tumble::cli
