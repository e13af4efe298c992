#include "script.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

namespace tumble::demo {
namespace {

bool isNumber(const std::string& s) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Expected<std::vector<ScriptAction>> parseScript(const std::string& text,
                                                const std::string& origin) {
  using E = Expected<std::vector<ScriptAction>>;
  // verb -> (least, most) argument count, and whether every argument is a number.
  static const std::map<std::string, std::pair<std::pair<int, int>, bool>> kVerbs = {
      {"set", {{2, 2}, false}},      {"reset", {{1, 1}, false}},
      {"key", {{1, 1}, false}},      {"click", {{2, 2}, true}},
      {"drag", {{4, 5}, true}},      {"preset-save", {{1, 1}, false}},
      {"mousedown", {{2, 2}, true}}, {"mousemove", {{2, 3}, true}},
      {"mouseup", {{0, 0}, false}},  {"preset-load", {{1, 1}, false}},
      {"scene", {{1, 1}, false}},    {"screenshot", {{1, 1}, false}},
      {"quit", {{0, 0}, false}},
  };
  std::vector<ScriptAction> actions;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string frame;
    if (!(words >> frame)) continue;
    const std::string where = origin + ":" + std::to_string(number) + ": ";
    ScriptAction a;
    a.line = number;
    const auto [end, ec] = std::from_chars(frame.data(), frame.data() + frame.size(), a.frame);
    if (ec != std::errc() || end != frame.data() + frame.size() || a.frame < 0)
      return E::failure(where + "expected a frame number >= 0 first, got '" + frame + "'");
    if (!(words >> a.verb)) return E::failure(where + "expected an action after the frame");
    const auto verb = kVerbs.find(a.verb);
    if (verb == kVerbs.end()) {
      std::string known;
      for (const auto& [name, spec] : kVerbs) known += (known.empty() ? "" : ", ") + name;
      return E::failure(where + "unknown action '" + a.verb + "'; known: " + known);
    }
    for (std::string w; words >> w;) a.args.push_back(w);
    const auto [least, most] = verb->second.first;
    const int n = static_cast<int>(a.args.size());
    if (n < least || n > most)
      return E::failure(where + a.verb + " takes " + std::to_string(least) +
                        (most > least ? " to " + std::to_string(most) : "") + " arguments, got " +
                        std::to_string(n));
    if (verb->second.second)
      for (const std::string& w : a.args)
        if (!isNumber(w))
          return E::failure(where + a.verb + ": expected a number, got '" + w + "'");
    actions.push_back(std::move(a));
  }
  std::stable_sort(actions.begin(), actions.end(),
                   [](const ScriptAction& x, const ScriptAction& y) { return x.frame < y.frame; });
  return actions;
}

Expected<std::vector<ScriptAction>> loadScript(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Expected<std::vector<ScriptAction>>::failure("cannot read script '" + file + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parseScript(text.str(), file);
}

}  // namespace tumble::demo
