#include "tumble/settings.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tumble {
namespace {

using K = SettingKind;

#define TUMBLE_REAL(expr) [](Settings& s) -> Real* { return &s.expr; }, nullptr
#define TUMBLE_INT(expr) nullptr, [](Settings& s) -> int* { return &s.expr; }

const std::array kTable = {
    SettingInfo{"gravity", K::Vector, "m/s^2", "gravity vector (x,y,z)", -1000, 1000,
                TUMBLE_REAL(gravity.x)},
    SettingInfo{"dt", K::Number, "s",
                "fixed time step of scene files, tumble-cli and the demo (a game passes its own to "
                "World::step)",
                1e-5, 0.1, TUMBLE_REAL(dt)},
    SettingInfo{"threads", K::Integer, "",
                "worker threads of a step (1: the calling thread only, 0: every core); the same "
                "result at any count",
                0, 64, TUMBLE_INT(threads)},
    SettingInfo{"solver.substeps", K::Integer, "",
                "solver substeps per step (collision runs once per step)", 1, 64,
                TUMBLE_INT(solver.substeps)},
    SettingInfo{"solver.velocity_iterations", K::Integer, "",
                "solve passes per substep (contacts pushed apart softly)", 1, 500,
                TUMBLE_INT(solver.velocityIterations)},
    SettingInfo{"solver.position_iterations", K::Integer, "",
                "relax passes per substep (no push-out; friction is solved here)", 0, 500,
                TUMBLE_INT(solver.positionIterations)},
    SettingInfo{"solver.warm_starting", K::Boolean, "", "start from last step's impulses", 0, 1,
                nullptr, nullptr},
    SettingInfo{"contact.slop", K::Number, "m",
                "no effect since the soft step (kept so older scene files load)", 0, 0.1,
                TUMBLE_REAL(contact.slop)},
    SettingInfo{"contact.baumgarte", K::Number, "",
                "no effect since the soft step (kept so older scene files load)", 0, 1,
                TUMBLE_REAL(contact.baumgarte)},
    SettingInfo{"contact.hertz", K::Number, "Hz",
                "stiffness of the push-out spring (twice this against static bodies; at most a "
                "quarter of the substep rate)",
                0.1, 1000, TUMBLE_REAL(contact.hertz)},
    SettingInfo{"contact.damping_ratio", K::Number, "", "damping ratio of the push-out spring", 0,
                100, TUMBLE_REAL(contact.dampingRatio)},
    SettingInfo{"contact.push_velocity", K::Number, "m/s", "fastest push-out of a penetration", 0,
                1000, TUMBLE_REAL(contact.pushVelocity)},
    SettingInfo{"contact.speculative_margin", K::Number, "m", "contacts are made this far apart", 0,
                1, TUMBLE_REAL(contact.speculativeMargin)},
    SettingInfo{"contact.recycle_distance", K::Number, "m",
                "a contact's points are kept without the narrow phase while the two bodies moved "
                "less than this relative to each other (and turned less than 10 degrees); 0: never",
                0, 1, TUMBLE_REAL(contact.recycleDistance)},
    SettingInfo{"contact.restitution_threshold", K::Number, "m/s",
                "approach speed below which nothing bounces", 0, 100,
                TUMBLE_REAL(contact.restitutionThreshold)},
    SettingInfo{"contact.exact_ratio", K::Number, "",
                "contacts joined to a contact whose bodies' masses differ by this factor or more "
                "have their normal rows solved together exactly where they form no loop; 0: never",
                0, 1e6, TUMBLE_REAL(contact.exactRatio)},
    SettingInfo{"gjk.tolerance", K::Number, "", "relative progress at which GJK stops", 1e-15, 1e-2,
                TUMBLE_REAL(gjk.tolerance)},
    SettingInfo{"gjk.max_iterations", K::Integer, "", "GJK iteration cap", 1, 1000,
                TUMBLE_INT(gjk.maxIterations)},
    SettingInfo{"epa.tolerance", K::Number, "", "relative gap at which EPA stops", 1e-15, 1e-2,
                TUMBLE_REAL(epa.tolerance)},
    SettingInfo{"epa.max_iterations", K::Integer, "", "EPA iteration cap", 1, 1000,
                TUMBLE_INT(epa.maxIterations)},
    SettingInfo{"lp.epsilon", K::Number, "", "relative zero of the LP test", 1e-15, 1e-2,
                TUMBLE_REAL(lp.epsilon)},
    SettingInfo{"lp.max_pivots", K::Integer, "", "simplex pivot cap", 1, 100000,
                TUMBLE_INT(lp.maxPivots)},
    SettingInfo{"crosscheck", K::CrossCheck, "", "LP beside GJK: off, sample or all", 0, 2, nullptr,
                nullptr},
    SettingInfo{"crosscheck.sample_rate", K::Number, "", "fraction of pairs checked when sampling",
                0, 1, TUMBLE_REAL(crosscheckSampleRate)},
    SettingInfo{"broadphase.aabb_margin", K::Number, "m", "fat AABB margin", 0, 10,
                TUMBLE_REAL(broadphase.aabbMargin)},
    SettingInfo{"sleep.enabled", K::Boolean, "", "let resting islands sleep", 0, 1, nullptr,
                nullptr},
    SettingInfo{"sleep.linear", K::Number, "m/s", "speed under which a body may sleep", 0, 10,
                TUMBLE_REAL(sleep.linear)},
    SettingInfo{"sleep.angular", K::Number, "rad/s", "spin under which a body may sleep", 0, 10,
                TUMBLE_REAL(sleep.angular)},
    SettingInfo{"sleep.time", K::Number, "s", "time at rest before an island sleeps", 0, 60,
                TUMBLE_REAL(sleep.time)},
    SettingInfo{"chain.tolerance", K::Number, "radius", "contact tolerance of a fold", 1e-6, 0.5,
                TUMBLE_REAL(chain.tolerance)},
    SettingInfo{"chain.max_substeps", K::Integer, "", "advancement steps per fold", 10, 10000000,
                TUMBLE_INT(chain.maxSubsteps)},
};

#undef TUMBLE_REAL
#undef TUMBLE_INT

bool* boolField(Settings& s, std::string_view key) {
  if (key == "solver.warm_starting") return &s.solver.warmStarting;
  if (key == "sleep.enabled") return &s.sleep.enabled;
  return nullptr;
}

std::string trim(std::string_view v) {
  size_t b = v.find_first_not_of(" \t");
  size_t e = v.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(v.substr(b, e - b + 1));
}

// strtod accepts "nan" and "inf"; they are parsed so the range check can name them.
bool parseReal(const std::string& text, Real& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// The shortest text that reads back as the same double ("0.01", not "0.010000000000000000208").
std::string formatReal(Real v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string rangeText(const SettingInfo& info) {
  if (info.kind == K::Boolean) return "true or false";
  if (info.kind == K::CrossCheck) return "off, sample or all";
  std::string r = "[" + formatReal(info.min) + ", " + formatReal(info.max) + "]";
  if (info.kind == K::Integer) r += " (an integer)";
  if (info.kind == K::Vector) r = "three numbers x,y,z each in " + r;
  if (!info.unit.empty()) r += " " + std::string(info.unit);
  return r;
}

std::string badValue(const SettingInfo& info, std::string_view value) {
  return "setting '" + std::string(info.key) + "': value '" + std::string(value) +
         "' is out of range; expected " + rangeText(info);
}

bool inRange(const SettingInfo& info, Real v) {
  return std::isfinite(v) && v >= info.min && v <= info.max;
}

}  // namespace

std::span<const SettingInfo> settingsTable() {
  return kTable;
}

const SettingInfo* findSetting(std::string_view key) {
  for (const SettingInfo& info : kTable)
    if (info.key == key) return &info;
  return nullptr;
}

const char* toString(CrossCheckMode mode) {
  switch (mode) {
    case CrossCheckMode::Off:
      return "off";
    case CrossCheckMode::Sample:
      return "sample";
    case CrossCheckMode::All:
      return "all";
  }
  return "off";
}

Expected<void> setSetting(Settings& settings, std::string_view key, std::string_view rawValue) {
  using E = Expected<void>;
  const SettingInfo* info = findSetting(key);
  if (!info) {
    std::string known;
    for (const SettingInfo& i : kTable) known += (known.empty() ? "" : ", ") + std::string(i.key);
    return E::failure("unknown setting '" + std::string(key) + "'; known settings: " + known);
  }
  std::string value = trim(rawValue);
  switch (info->kind) {
    case K::Number: {
      Real v;
      if (!parseReal(value, v) || !inRange(*info, v)) return E::failure(badValue(*info, rawValue));
      *info->real(settings) = v;
      return ok();
    }
    case K::Integer: {
      Real v;
      if (!parseReal(value, v) || !inRange(*info, v) || v != std::floor(v))
        return E::failure(badValue(*info, rawValue));
      *info->integer(settings) = static_cast<int>(v);
      return ok();
    }
    case K::Boolean: {
      bool v;
      if (value == "true" || value == "1" || value == "on")
        v = true;
      else if (value == "false" || value == "0" || value == "off")
        v = false;
      else
        return E::failure(badValue(*info, rawValue));
      *boolField(settings, info->key) = v;
      return ok();
    }
    case K::Vector: {
      Real c[3];
      size_t start = 0;
      for (int i = 0; i < 3; ++i) {
        size_t comma = value.find(',', start);
        if ((i < 2) != (comma != std::string::npos)) return E::failure(badValue(*info, rawValue));
        std::string part = trim(std::string_view(value).substr(start, comma - start));
        if (!parseReal(part, c[i]) || !inRange(*info, c[i]))
          return E::failure(badValue(*info, rawValue));
        start = comma + 1;
      }
      Real* x = info->real(settings);
      x[0] = c[0];
      x[1] = c[1];
      x[2] = c[2];
      return ok();
    }
    case K::CrossCheck: {
      if (value == "off")
        settings.crosscheck = CrossCheckMode::Off;
      else if (value == "sample")
        settings.crosscheck = CrossCheckMode::Sample;
      else if (value == "all")
        settings.crosscheck = CrossCheckMode::All;
      else
        return E::failure(badValue(*info, rawValue));
      return ok();
    }
  }
  return E::failure(badValue(*info, rawValue));
}

Expected<void> setSettingAssignment(Settings& settings, std::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return Expected<void>::failure("expected key=value, got '" + std::string(assignment) + "'");
  return setSetting(settings, trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

std::string settingValue(const Settings& settings, const SettingInfo& info) {
  Settings& s = const_cast<Settings&>(settings);  // accessors are shared with the setters
  switch (info.kind) {
    case K::Number:
      return formatReal(*info.real(s));
    case K::Integer:
      return std::to_string(*info.integer(s));
    case K::Boolean:
      return *boolField(s, info.key) ? "true" : "false";
    case K::Vector: {
      const Real* x = info.real(s);
      return formatReal(x[0]) + "," + formatReal(x[1]) + "," + formatReal(x[2]);
    }
    case K::CrossCheck:
      return toString(settings.crosscheck);
  }
  return {};
}

Expected<void> validate(const Settings& settings) {
  Settings& s = const_cast<Settings&>(settings);
  for (const SettingInfo& info : kTable) {
    bool ok = true;
    switch (info.kind) {
      case K::Number:
        ok = inRange(info, *info.real(s));
        break;
      case K::Integer:
        ok = inRange(info, *info.integer(s));
        break;
      case K::Vector: {
        const Real* x = info.real(s);
        ok = inRange(info, x[0]) && inRange(info, x[1]) && inRange(info, x[2]);
        break;
      }
      case K::Boolean:
      case K::CrossCheck:
        break;
    }
    if (!ok) return Expected<void>::failure(badValue(info, settingValue(settings, info)));
  }
  return tumble::ok();
}

}  // namespace tumble
