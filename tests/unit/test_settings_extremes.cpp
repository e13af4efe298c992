// Extreme settings: every settings key at its minimum and at its maximum, one at a time, on the
// pile scene for 300 steps: no error, no non-finite state, no hang (a cap may make results coarse,
// never invalid). One test case per key, so CTest runs them side by side and a slow key shows.
//
// Size: optimised builds (the sanitizer preset included: worst key about 10 s under ASan) run 300
// steps on the pile's walls and first 60 bodies (the bottom layers: they land and pile up within
// the run); Debug builds 60 steps (about 20x slower per step). TUMBLE_EXTREME_STEPS and
// TUMBLE_EXTREME_BODIES override both (0 bodies: the whole pile of 300).
#include <catch2/catch.hpp>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "tumble/scene.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

namespace {

long envOr(const char* name, long fallback) {
  if (const char* env = std::getenv(name)) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && n >= 0) return n;
  }
  return fallback;
}

long steps() {
#if defined(NDEBUG)
  return envOr("TUMBLE_EXTREME_STEPS", 300);
#else
  return envOr("TUMBLE_EXTREME_STEPS", 60);
#endif
}

size_t dynamicBodies() {
  return static_cast<size_t>(envOr("TUMBLE_EXTREME_BODIES", 60));
}

std::string text(Real v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// The key's extreme as text for setSetting: its minimum (low) or maximum.
std::string extreme(const SettingInfo& info, bool low) {
  switch (info.kind) {
    case SettingKind::Boolean:
      return low ? "false" : "true";
    case SettingKind::CrossCheck:
      return low ? "off" : "all";
    case SettingKind::Vector: {
      const std::string v = text(low ? info.min : info.max);
      return v + "," + v + "," + v;
    }
    case SettingKind::Number:
    case SettingKind::Integer:
      break;
  }
  return text(low ? info.min : info.max);
}

void runExtreme(const std::string& key, bool low) {
  const SettingInfo* info = findSetting(key);
  REQUIRE(info != nullptr);
  auto scene =
      loadScene(std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / "pile.json");
  REQUIRE(scene);
  size_t statics = 0;
  while (statics < scene->bodies.size() && scene->bodies[statics].type == BodyType::Static)
    ++statics;
  if (const size_t keep = dynamicBodies(); keep > 0 && statics + keep < scene->bodies.size())
    scene->bodies.resize(statics + keep);
  // The LP keys act only when the cross-check runs.
  if (key.rfind("lp.", 0) == 0) REQUIRE(setSetting(scene->settings, "crosscheck", "all"));
  if (key == "crosscheck.sample_rate") REQUIRE(setSetting(scene->settings, "crosscheck", "sample"));
  const std::string value = extreme(*info, low);
  INFO(key << " = " << value);
  REQUIRE(setSetting(scene->settings, key, value));
  auto world = buildWorld(*scene);
  REQUIRE(world);
  World& w = **world;
  const int bodies = w.bodyCount();
  const long n = steps();
  long failedAt = -1;
  for (long i = 0; i < n && failedAt < 0; ++i)
    if (!w.step(w.settings().dt) || !allFinite(w)) failedAt = i;
  CHECK(failedAt == -1);
  CHECK(w.nonFiniteEvents().empty());
  CHECK(w.bodyCount() == bodies);
  CHECK(allFinite(w));
}

}  // namespace

#define TUMBLE_EXTREME_CASE(KEY)                                                   \
  TEST_CASE("extreme settings: " KEY " at its minimum and maximum", "[extreme]") { \
    SECTION("minimum") {                                                           \
      runExtreme(KEY, true);                                                       \
    }                                                                              \
    SECTION("maximum") {                                                           \
      runExtreme(KEY, false);                                                      \
    }                                                                              \
  }

TUMBLE_EXTREME_CASE("gravity")
TUMBLE_EXTREME_CASE("dt")
TUMBLE_EXTREME_CASE("threads")
TUMBLE_EXTREME_CASE("solver.substeps")
TUMBLE_EXTREME_CASE("solver.velocity_iterations")
TUMBLE_EXTREME_CASE("solver.position_iterations")
TUMBLE_EXTREME_CASE("solver.warm_starting")
TUMBLE_EXTREME_CASE("contact.slop")
TUMBLE_EXTREME_CASE("contact.baumgarte")
TUMBLE_EXTREME_CASE("contact.hertz")
TUMBLE_EXTREME_CASE("contact.damping_ratio")
TUMBLE_EXTREME_CASE("contact.push_velocity")
TUMBLE_EXTREME_CASE("contact.speculative_margin")
TUMBLE_EXTREME_CASE("contact.recycle_distance")
TUMBLE_EXTREME_CASE("contact.restitution_threshold")
TUMBLE_EXTREME_CASE("contact.exact_ratio")
TUMBLE_EXTREME_CASE("gjk.tolerance")
TUMBLE_EXTREME_CASE("gjk.max_iterations")
TUMBLE_EXTREME_CASE("epa.tolerance")
TUMBLE_EXTREME_CASE("epa.max_iterations")
TUMBLE_EXTREME_CASE("lp.epsilon")
TUMBLE_EXTREME_CASE("lp.max_pivots")
TUMBLE_EXTREME_CASE("crosscheck")
TUMBLE_EXTREME_CASE("crosscheck.sample_rate")
TUMBLE_EXTREME_CASE("broadphase.aabb_margin")
TUMBLE_EXTREME_CASE("sleep.enabled")
TUMBLE_EXTREME_CASE("sleep.linear")
TUMBLE_EXTREME_CASE("sleep.angular")
TUMBLE_EXTREME_CASE("sleep.time")
TUMBLE_EXTREME_CASE("chain.tolerance")
TUMBLE_EXTREME_CASE("chain.max_substeps")

TEST_CASE("the extreme sweep names every settings key", "[extreme]") {
  std::set<std::string> listed = {"gravity",
                                  "dt",
                                  "threads",
                                  "solver.substeps",
                                  "solver.velocity_iterations",
                                  "solver.position_iterations",
                                  "solver.warm_starting",
                                  "contact.slop",
                                  "contact.baumgarte",
                                  "contact.hertz",
                                  "contact.damping_ratio",
                                  "contact.push_velocity",
                                  "contact.speculative_margin",
                                  "contact.recycle_distance",
                                  "contact.restitution_threshold",
                                  "contact.exact_ratio",
                                  "gjk.tolerance",
                                  "gjk.max_iterations",
                                  "epa.tolerance",
                                  "epa.max_iterations",
                                  "lp.epsilon",
                                  "lp.max_pivots",
                                  "crosscheck",
                                  "crosscheck.sample_rate",
                                  "broadphase.aabb_margin",
                                  "sleep.enabled",
                                  "sleep.linear",
                                  "sleep.angular",
                                  "sleep.time",
                                  "chain.tolerance",
                                  "chain.max_substeps"};
  std::set<std::string> table;
  for (const SettingInfo& info : settingsTable()) table.insert(std::string(info.key));
  CHECK(listed == table);  // a new key needs a TUMBLE_EXTREME_CASE line above
}
