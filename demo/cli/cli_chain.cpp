// tumble-cli chain FILE: folds a chain script and prints one JSON line per fold, in the chain
// format (docs/ARCHITECTURE.md, "Chain scripts"; tumble/chain.h).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chain_script.h"
#include "commands.h"
#include "tumble/chain.h"
#include "tumble/settings.h"

namespace tumble::cli {
namespace {

constexpr Positional kPositionals[] = {
    {.name = "FILE|-", .help = "the chain script ('-': read it from stdin)"},
};

constexpr Flag kFlags[] = {
    settingFlag("change a setting (chain.tolerance, chain.max_substeps)"),
};

constexpr CommandSpec kSpec{
    .name = "chain",
    .positionals = kPositionals,
    .flags = kFlags,
    .description =
        "Folds a polygonal chain of capsules that can never pass through itself. FILE is\n"
        "  {\"radius\": r, \"points\": [[x,y,z], ...],\n"
        "   \"folds\": [{\"joint\": i, \"axis\": [x,y,z], \"angle\": a}, ...]}\n"
        "A fold turns points i+1..n-1 (1 <= i <= n-2) about the line through points[i] with\n"
        "direction axis, right-handed, continuously from 0 to a radians, stopping at the first\n"
        "contact. One line per fold:\n"
        "  {\"fold\": k, \"requested\": a, \"applied\": b, \"blocked\": false, \"min_gap\": g,\n"
        "   \"points\": [[x,y,z], ...]}\n"
        "min_gap: least distance between segments i, j with |i-j| >= 2, minus 2r, after the fold\n"
        "(null when the chain has no such pair). Extra keys per line: status (completed, blocked,\n"
        "max_substeps), substeps, and contact [i, j] when blocked.\n",
    .epilogue =
        "Exit status: 0, 1 for a usage error, 2 for a bad file (the message names the JSON path)\n"
        "or a chain that already intersects itself (the message names the two segments).\n",
};

nlohmann::json pointsJson(const std::vector<Vec3>& points) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& p : points) arr.push_back({p.x, p.y, p.z});
  return arr;
}

int run(std::istream& in, const std::string& name, const Settings& settings) {
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    std::fprintf(stderr, "chain: %s: read error\n", name.c_str());
    return 2;
  }
  auto parsed = parseChainScript(text.str());
  if (!parsed) {
    std::fprintf(stderr, "chain: %s: %s\n", name.c_str(), parsed.error().c_str());
    return 2;
  }
  const ChainScript& script = *parsed;
  auto chain = Chain::create(script.points, script.radius, settings.chain);
  if (!chain) {
    std::fprintf(stderr, "chain: %s: %s\n", name.c_str(), chain.error().c_str());
    return 2;
  }
  for (size_t k = 0; k < script.folds.size(); ++k) {
    const ChainFold& f = script.folds[k];
    auto r = chain->fold(f.joint, f.axis, f.angle, settings.chain);
    if (!r) {
      std::fprintf(stderr, "chain: %s: folds[%zu]: %s\n", name.c_str(), k, r.error().c_str());
      return 2;
    }
    nlohmann::ordered_json line;
    line["fold"] = k;
    line["requested"] = r->requested;
    line["applied"] = r->applied;
    line["blocked"] = r->blocked;
    if (r->minGap)
      line["min_gap"] = *r->minGap;
    else
      line["min_gap"] = nullptr;
    line["points"] = pointsJson(chain->points());
    line["status"] = toString(r->status);
    line["substeps"] = r->substeps;
    if (r->contact) line["contact"] = {r->contact->i, r->contact->j};
    std::fputs(line.dump().c_str(), stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace

int runChain(Args args) {
  const auto parsed = parseArgs(kSpec, args);
  if (auto status = earlyExit(kSpec, parsed)) return *status;
  Settings settings;
  if (auto set = applySettingFlags(*parsed, settings); !set) {
    std::fprintf(stderr, "chain: %s\n", set.error().c_str());
    return 2;  // bad input, as sim (README: exit status)
  }
  const std::string& file = parsed->positionals[0];
  if (file == "-") return run(std::cin, "-", settings);
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "chain: cannot open %s: %s\n", file.c_str(), std::strerror(errno));
    return 2;
  }
  return run(in, file, settings);
}

}  // namespace tumble::cli
