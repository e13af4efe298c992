// tumble-cli collide FILE|-: GJK/EPA and the LP test on each pair of a JSON Lines file, in the
// collide format (docs/ARCHITECTURE.md, "Collision queries"; tumble/collide_format.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "commands.h"
#include "tumble/collide_format.h"
#include "tumble/crosscheck.h"
#include "tumble/settings.h"

namespace tumble::cli {
namespace {

constexpr Positional kPositionals[] = {
    {.name = "FILE|-", .help = "the queries, one JSON object a line ('-': read them from stdin)"},
};

constexpr Flag kFlags[] = {
    settingFlag("change a setting (gjk.tolerance, gjk.max_iterations, epa.tolerance,\n"
                "epa.max_iterations, lp.epsilon, lp.max_pivots, ...)"),
};

constexpr CommandSpec kSpec{
    .name = "collide",
    .positionals = kPositionals,
    .flags = kFlags,
    .description =
        "Answers collision queries: one JSON object per input line (FILE, or stdin for '-'),\n"
        "  {\"id\": \"p1\", \"a\": [[x,y,z], ...], \"b\": [[x,y,z], ...]}\n"
        "each set being the convex hull of its world-space points (1 or more). Prints one\n"
        "line per input line, in order:\n"
        "  {\"id\": \"p1\", \"gjk\": {\"intersect\": true, \"depth\": 0.12, \"iterations\": 7,\n"
        "   \"status\": \"ok\"}, \"lp\": {\"intersect\": true, \"objective\": 0.0, \"pivots\": 5,\n"
        "   \"status\": \"ok\"}, \"agree\": true}\n"
        "'distance' replaces 'depth' when separated; status is ok, max_iterations, max_pivots\n"
        "or, for the LP, uncertified (no certificate for its verdict: it may be wrong);\n"
        "agree is true when the verdicts match or the distance/depth is inside the\n"
        "tolerance band. A bad line prints {\"line\": N, \"error\": \"...\"} and\n"
        "'collide: line N: ...' on stderr; the key 'truth' is ignored, other unknown keys\n"
        "are errors.\n",
    .epilogue =
        "Exit status: 0, 1 for a usage error, 2 if a line was bad or FILE cannot be read.\n",
};

int runStream(std::istream& in, const Settings& settings) {
  bool bad = false;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string out;
    if (line.find_first_not_of(" \t") == std::string::npos) {
      out = formatCollideError(number, "empty line: expected a JSON object");
      std::fprintf(stderr, "collide: line %ld: empty line: expected a JSON object\n", number);
      bad = true;
    } else if (auto q = parseCollideQuery(line); !q) {
      out = formatCollideError(number, q.error());
      std::fprintf(stderr, "collide: line %ld: %s\n", number, q.error().c_str());
      bad = true;
    } else {
      out = formatCollideResult(q->id, crossCheck(q->a, q->b, settings));
    }
    std::fputs(out.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  return bad ? 2 : 0;
}

}  // namespace

int runCollide(Args args) {
  const auto parsed = parseArgs(kSpec, args);
  if (auto status = earlyExit(kSpec, parsed)) return *status;
  Settings settings;
  if (auto set = applySettingFlags(*parsed, settings); !set) {
    std::fprintf(stderr, "collide: %s\n", set.error().c_str());
    return 2;  // bad input, as sim (README: exit status)
  }
  const std::string& file = parsed->positionals[0];
  if (file == "-") return runStream(std::cin, settings);
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "collide: cannot open %s: %s\n", file.c_str(), std::strerror(errno));
    return 2;
  }
  return runStream(in, settings);
}

}  // namespace tumble::cli
