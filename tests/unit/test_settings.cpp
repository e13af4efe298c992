#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "tumble/settings.h"

using namespace tumble;

TEST_CASE("every settings key round-trips through its text form", "[settings]") {
  Settings defaults;
  REQUIRE_FALSE(validate(defaults).has_value());
  for (const SettingInfo& info : settingsTable()) {
    Settings s;
    std::string text = settingValue(defaults, info);
    INFO(info.key << " = " << text);
    REQUIRE_FALSE(setSetting(s, info.key, text).has_value());
    CHECK(settingValue(s, info) == text);
  }
}

TEST_CASE("settings reject out-of-range values naming key, value and range", "[settings]") {
  Settings s;
  auto err = setSetting(s, "gjk.max_iterations", "0");
  REQUIRE(err.has_value());
  CHECK(err->find("gjk.max_iterations") != std::string::npos);
  CHECK(err->find("'0'") != std::string::npos);
  CHECK(err->find("[1, 1000]") != std::string::npos);
  CHECK(s.gjk.maxIterations == Settings{}.gjk.maxIterations);

  CHECK(setSetting(s, "dt", "nan").has_value());
  CHECK(setSetting(s, "dt", "0.01x").has_value());
  CHECK(setSetting(s, "solver.substeps", "2.5").has_value());
  CHECK(setSetting(s, "gravity", "0,-9.81").has_value());
  CHECK(setSetting(s, "crosscheck", "sometimes").has_value());
  auto unknown = setSetting(s, "contact.slopp", "0.1");
  REQUIRE(unknown.has_value());
  CHECK(unknown->find("unknown setting 'contact.slopp'") != std::string::npos);
}

TEST_CASE("settings accept values at both ends of every range", "[settings]") {
  for (const SettingInfo& info : settingsTable()) {
    if (info.kind == SettingKind::Boolean || info.kind == SettingKind::CrossCheck) continue;
    for (Real v : {info.min, info.max}) {
      Settings s;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      std::string text = buf;
      if (info.kind == SettingKind::Vector) text = text + "," + text + "," + text;
      if (info.kind == SettingKind::Integer) text = std::to_string(static_cast<long long>(v));
      INFO(info.key << " = " << text);
      CHECK_FALSE(setSettingAssignment(s, std::string(info.key) + "=" + text).has_value());
      CHECK_FALSE(validate(s).has_value());
    }
  }
  Settings s;
  REQUIRE_FALSE(setSettingAssignment(s, "gravity = 1,2,3").has_value());
  CHECK(s.gravity == Vec3(1, 2, 3));
  REQUIRE_FALSE(setSettingAssignment(s, "crosscheck=all").has_value());
  CHECK(s.crosscheck == CrossCheckMode::All);
}
