// tumble-cli chain FILE: folds a chain script and prints one JSON line per fold, in the chain
// format (DESIGN.md, "Chain scripts"; tumble/chain.h).
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

#include "commands.h"
#include "tumble/chain.h"
#include "tumble/settings.h"

namespace tumble::cli {
namespace {

constexpr const char* kHelp =
    "usage: tumble-cli chain [--set key=value]... FILE|-\n"
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
    "max_substeps), substeps, and contact [i, j] when blocked.\n"
    "Exit status: 0, 1 for a usage error, 2 for a bad file (the message names the JSON path)\n"
    "or a chain that already intersects itself (the message names the two segments).\n"
    "\noptions:\n"
    "  --set key=value   change a setting (chain.tolerance, chain.max_substeps)\n"
    "  --help            print this help\n";

int usage(const std::string& message) {
  std::fprintf(stderr, "chain: %s\n%s", message.c_str(), kHelp);
  return 1;
}

struct Fold {
  int joint = 0;
  Vec3 axis{0.0};
  Real angle = 0.0;
};

struct Script {
  Real radius = 0.0;
  std::vector<Vec3> points;
  std::vector<Fold> folds;
};

// Parse errors carry the JSON path.
struct ParseError {
  std::string message;
};

Real number(const nlohmann::json& j, const std::string& path) {
  if (!j.is_number()) throw ParseError{path + ": expected a number, got " + j.dump()};
  const Real x = j.get<Real>();
  if (!std::isfinite(x)) throw ParseError{path + ": expected a finite number"};
  return x;
}

Vec3 vec3(const nlohmann::json& j, const std::string& path) {
  if (!j.is_array() || j.size() != 3)
    throw ParseError{path + ": expected [x, y, z], got " + j.dump()};
  return Vec3(number(j[0], path + "[0]"), number(j[1], path + "[1]"), number(j[2], path + "[2]"));
}

Script parseScript(const nlohmann::json& doc) {
  if (!doc.is_object()) throw ParseError{"(root): expected an object"};
  for (const auto& [key, value] : doc.items())
    if (key != "radius" && key != "points" && key != "folds")
      throw ParseError{key + ": unknown key (expected radius, points, folds)"};
  Script s;
  if (!doc.contains("radius")) throw ParseError{"radius: missing"};
  s.radius = number(doc["radius"], "radius");
  if (!(s.radius > 0.0))
    throw ParseError{"radius: expected a number > 0, got " + doc["radius"].dump()};
  if (!doc.contains("points") || !doc["points"].is_array())
    throw ParseError{"points: expected an array of [x, y, z]"};
  const auto& pts = doc["points"];
  for (size_t k = 0; k < pts.size(); ++k)
    s.points.push_back(vec3(pts[k], "points[" + std::to_string(k) + "]"));
  if (s.points.size() < 3)
    throw ParseError{"points: expected at least 3 points, got " + std::to_string(s.points.size())};
  if (doc.contains("folds")) {
    const auto& folds = doc["folds"];
    if (!folds.is_array()) throw ParseError{"folds: expected an array"};
    const int n = static_cast<int>(s.points.size());
    for (size_t k = 0; k < folds.size(); ++k) {
      const std::string path = "folds[" + std::to_string(k) + "]";
      const auto& f = folds[k];
      if (!f.is_object()) throw ParseError{path + ": expected an object"};
      for (const auto& [key, value] : f.items())
        if (key != "joint" && key != "axis" && key != "angle")
          throw ParseError{path + "." + key + ": unknown key (expected joint, axis, angle)"};
      for (const char* key : {"joint", "axis", "angle"})
        if (!f.contains(key)) throw ParseError{path + "." + key + ": missing"};
      Fold fold;
      if (!f["joint"].is_number_integer())
        throw ParseError{path + ".joint: expected an integer, got " + f["joint"].dump()};
      const long long joint = f["joint"].get<long long>();
      if (joint < 1 || joint > n - 2)
        throw ParseError{path + ".joint: " + std::to_string(joint) + " is out of range 1.." +
                         std::to_string(n - 2)};
      fold.joint = static_cast<int>(joint);
      fold.axis = vec3(f["axis"], path + ".axis");
      if (!(glm::length(fold.axis) > 0.0)) throw ParseError{path + ".axis: zero vector"};
      fold.angle = number(f["angle"], path + ".angle");
      s.folds.push_back(fold);
    }
  }
  return s;
}

nlohmann::json pointsJson(const std::vector<Vec3>& points) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& p : points) arr.push_back({p.x, p.y, p.z});
  return arr;
}

int run(std::istream& in, const std::string& name, const Settings& settings) {
  Script script;
  try {
    nlohmann::json doc = nlohmann::json::parse(in);
    script = parseScript(doc);
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "chain: %s: invalid JSON: %s\n", name.c_str(), e.what());
    return 2;
  } catch (const ParseError& e) {
    std::fprintf(stderr, "chain: %s: %s\n", name.c_str(), e.message.c_str());
    return 2;
  }
  auto chain = Chain::create(script.points, script.radius, settings.chain);
  if (!chain) {
    std::fprintf(stderr, "chain: %s: %s\n", name.c_str(), chain.error().c_str());
    return 2;
  }
  for (size_t k = 0; k < script.folds.size(); ++k) {
    const Fold& f = script.folds[k];
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
  Settings settings;
  std::string file;
  bool haveFile = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
    if (arg == "--set" || arg.rfind("--set=", 0) == 0) {
      std::string assignment;
      if (arg == "--set") {
        if (i + 1 >= args.size()) return usage("--set needs key=value");
        assignment = args[++i];
      } else {
        assignment = arg.substr(6);
      }
      if (auto err = setSettingAssignment(settings, assignment)) {
        std::fprintf(stderr, "chain: --set %s: %s\n", assignment.c_str(), err->c_str());
        return 1;
      }
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') return usage("unknown option '" + arg + "'");
    if (haveFile) return usage("one FILE expected, got '" + file + "' and '" + arg + "'");
    file = arg;
    haveFile = true;
  }
  if (!haveFile) return usage("missing FILE (use '-' for stdin)");
  if (file == "-") return run(std::cin, "-", settings);
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "chain: cannot open %s: %s\n", file.c_str(), std::strerror(errno));
    return 2;
  }
  return run(in, file, settings);
}

}  // namespace tumble::cli
