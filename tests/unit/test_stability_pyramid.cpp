// The base-20 pyramid (210 boxes) stands for 10 s and falls asleep (issue 4).
#include <catch2/catch.hpp>

#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

namespace {

std::vector<BodyId> buildPyramid(World& w, int base) {
  std::vector<BodyId> ids;
  for (int row = 0; row < base; ++row)
    for (int i = 0; i < base - row; ++i)
      ids.push_back(addBox(w, Vec3((i - 0.5 * (base - row - 1)) * 1.05, 0.5 + row * 1.0, 0.0)));
  return ids;
}

}  // namespace

static void standsFor10s(bool sleeping) {
  {
    World w{Settings{}};
    editSettings(w, [&](Settings& s_) { s_.sleep.enabled = sleeping; });
    addGround(w, 40.0);
    const auto ids = buildPyramid(w, 20);
    const Vec3 start = w.body(ids.back())->centerOfMass;
    for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
    const Vec3 top0 = w.body(ids.back())->centerOfMass;
    CHECK(glm::length(top0 - start) < 20 * w.settings().contact.slop);
    for (int i = 0; i < 600; ++i) REQUIRE(w.step(w.settings().dt));
    INFO("sleeping " << sleeping);
    CHECK(glm::length(w.body(ids.back())->centerOfMass - top0) < 0.01);
    if (sleeping) CHECK(w.stats().awakeBodies == 0);
    CHECK(allFinite(w));
  }
}

TEST_CASE("a base-20 pyramid stands for 10 s with sleeping off", "[stability]") {
  standsFor10s(false);
}

TEST_CASE("a base-20 pyramid stands and falls asleep with sleeping on", "[stability]") {
  standsFor10s(true);
}
