#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "tumble/settings.h"

using namespace tumble;

TEST_CASE("every settings key round-trips through its text form", "[settings]") {
  Settings defaults;
  REQUIRE(validate(defaults).ok());
  for (const SettingInfo& info : settingsTable()) {
    Settings s;
    std::string text = settingValue(defaults, info);
    INFO(info.key << " = " << text);
    REQUIRE(setSetting(s, info.key, text).ok());
    CHECK(settingValue(s, info) == text);
  }
}

TEST_CASE("settings reject out-of-range values naming key, value and range", "[settings]") {
  Settings s;
  auto err = setSetting(s, "gjk.max_iterations", "0");
  REQUIRE_FALSE(err);
  CHECK(err.error().find("gjk.max_iterations") != std::string::npos);
  CHECK(err.error().find("'0'") != std::string::npos);
  CHECK(err.error().find("[1, 1000]") != std::string::npos);
  CHECK(s.gjk.maxIterations == Settings{}.gjk.maxIterations);

  CHECK_FALSE(setSetting(s, "dt", "nan").ok());
  CHECK_FALSE(setSetting(s, "dt", "0.01x").ok());
  CHECK_FALSE(setSetting(s, "solver.substeps", "2.5").ok());
  CHECK_FALSE(setSetting(s, "gravity", "0,-9.81").ok());
  CHECK_FALSE(setSetting(s, "crosscheck", "sometimes").ok());
  auto unknown = setSetting(s, "contact.slopp", "0.1");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().find("unknown setting 'contact.slopp'") != std::string::npos);
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
      CHECK(setSettingAssignment(s, std::string(info.key) + "=" + text).ok());
      CHECK(validate(s).ok());
    }
  }
  Settings s;
  REQUIRE(setSettingAssignment(s, "gravity = 1,2,3").ok());
  CHECK(s.gravity == Vec3(1, 2, 3));
  REQUIRE(setSettingAssignment(s, "crosscheck=all").ok());
  CHECK(s.crosscheck == CrossCheckMode::All);
}
