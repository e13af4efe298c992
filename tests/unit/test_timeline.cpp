// The Timeline (timeline.h): any recorded step is reached again bit for bit, edits become
// keyframes, playing from the past drops the old future, and memory stays within the budget.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

#include "tumble/scene.h"
#include "tumble/shape.h"
#include "tumble/timeline.h"
#include "tumble/world.h"

using namespace tumble;
using Catch::Matchers::Contains;

namespace {

std::unique_ptr<World> sceneWorld(const std::string& name) {
  auto scene =
      loadScene(std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / (name + ".json"));
  REQUIRE(scene);
  auto world = buildWorld(*scene);
  REQUIRE(world);
  return std::move(*world);
}

// The edits made before some steps of the run (the same in every run of the script).
void edit(World& w, int64_t step, const Shape& box) {
  if (step == 40) {
    BodyDef d;
    d.shape = box;
    d.position = Vec3(0.3, 6.0, 0.1);
    REQUIRE(w.createBody(d));
  }
  if (step == 75) w.setLinearVelocity(w.bodyIds()[5], Vec3(0.0, 4.0, 0.0));
  if (step == 76) w.applyLinearImpulse(w.bodyIds()[6], Vec3(1.0, 0.0, 0.0), Vec3(0.0));
  if (step == 130) w.destroyBody(w.bodyIds()[7]);
}

}  // namespace

TEST_CASE("seeking gives every recorded step's state bit for bit, edits included", "[timeline]") {
  const Shape box = *makeBox(Vec3(0.2));
  auto straight = sceneWorld("pile");
  std::vector<uint64_t> hashes{straight->stateHash()};
  for (int64_t s = 0; s < 200; ++s) {
    edit(*straight, s, box);
    REQUIRE(straight->step(straight->settings().dt));
    hashes.push_back(straight->stateHash());
  }
  auto w = sceneWorld("pile");
  Timeline timeline({.budgetBytes = size_t{1} << 30, .keyframeInterval = 25});
  for (int64_t s = 0; s < 200; ++s) {
    edit(*w, s, box);
    REQUIRE(w->step(w->settings().dt));
    timeline.record(*w, w->settings().dt);
  }
  CHECK(timeline.firstStep() == 1);
  CHECK(timeline.lastStep() == 200);
  // Keyframes: the first step, the steps with an edit before them (41, 76, 77, 131), and 25
  // steps after the last keyframe: 1, 26, 41, 66, 76, 77, 102, 127, 131, 156, 181.
  CHECK(timeline.keyframeCount() == 11);
  for (int64_t s :
       {1, 2, 24, 26, 40, 41, 42, 75, 76, 77, 78, 100, 130, 131, 132, 199, 200, 150, 3}) {
    INFO("step " << s);
    REQUIRE(timeline.seek(*w, s));
    CHECK(w->stepCount() == s);
    CHECK(w->stateHash() == hashes[static_cast<size_t>(s)]);
    CHECK(*timeline.hashAt(s) == hashes[static_cast<size_t>(s)]);
  }
  // Outside the recording: refused, naming the range.
  const auto before = timeline.seek(*w, 0);
  REQUIRE_FALSE(before);
  CHECK_THAT(before.error(), Contains("recorded: 1 to 200"));
  REQUIRE_FALSE(timeline.seek(*w, 201));

  // Play on from step 60 without edits: the same future as the straight run until its edit at 75.
  REQUIRE(timeline.seek(*w, 60));
  for (int64_t s = 60; s < 75; ++s) {
    REQUIRE(w->step(w->settings().dt));
    timeline.record(*w, w->settings().dt);
    CHECK(w->stateHash() == hashes[static_cast<size_t>(s + 1)]);
  }
  CHECK(timeline.lastStep() == 75);  // the old future after 60 was dropped when 61 was recorded
  // A different future: an edit, then the steps from it are what is recorded.
  w->applyLinearImpulse(w->bodyIds()[3], Vec3(0.0, 5.0, 0.0), Vec3(0.0));
  REQUIRE(w->step(w->settings().dt));
  timeline.record(*w, w->settings().dt);
  const uint64_t other = w->stateHash();
  CHECK(other != hashes[76]);
  REQUIRE(timeline.seek(*w, 70));
  REQUIRE(timeline.seek(*w, 76));
  CHECK(w->stateHash() == other);
}

TEST_CASE("the timeline stays within its memory budget over 10 minutes of churn", "[timeline]") {
  // 40 boxes on the ground; every simulated second one is removed and one dropped (an edit, so a
  // keyframe), for 10 minutes (36,000 steps). The keyframes' bytes never pass the budget, and the
  // oldest step still recorded can be sought.
  World w;
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = *makeBox(Vec3(20.0, 0.5, 20.0));
  ground.position = Vec3(0.0, -0.5, 0.0);
  REQUIRE(w.createBody(ground));
  const Shape box = *makeBox(Vec3(0.25));
  std::mt19937 rng(11);
  auto drop = [&] {
    BodyDef d;
    d.shape = box;
    d.position = Vec3(std::uniform_real_distribution<Real>(-5, 5)(rng), 3.0,
                      std::uniform_real_distribution<Real>(-5, 5)(rng));
    REQUIRE(w.createBody(d));
  };
  for (int k = 0; k < 40; ++k) drop();
  const size_t budget = size_t{1} << 20;
  Timeline timeline({.budgetBytes = budget, .keyframeInterval = 30});
  const Real dt = 1.0 / 60.0;
  size_t most = 0, snapshot = 0;
  for (int s = 0; s < 36000; ++s) {
    if (s % 60 == 59) {
      const std::vector<BodyId> ids = w.bodyIds();
      w.destroyBody(ids[1 + static_cast<size_t>(rng() % (ids.size() - 1))]);
      drop();
    }
    REQUIRE(w.step(dt));
    timeline.record(w, dt);
    most = std::max(most, timeline.bytes());
    if (s == 0) snapshot = timeline.bytes();
  }
  INFO("one keyframe " << snapshot << " bytes; most held " << most << " of " << budget);
  CHECK(most <= budget);
  CHECK(timeline.lastStep() - timeline.firstStep() > 300);  // several seconds still held
  const uint64_t end = w.stateHash();
  REQUIRE(timeline.seek(w, timeline.firstStep()));
  REQUIRE(timeline.seek(w, timeline.lastStep()));
  CHECK(w.stateHash() == end);
}
