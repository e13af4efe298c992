// Ray casts, drag, sleeping and waking, settings changes, the cross-check in the loop, debug draw.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;

TEST_CASE("ray casts return the first body, point and normal", "[world][query]") {
  World w{Settings{}};
  const BodyId ground = addGround(w);
  const BodyId box = addBox(w, Vec3(2.0, 0.5, 0.0));
  const BodyId rotated =
      addBox(w, Vec3(-2.0, 1.0, 0.0), Vec3(0.5), 0.5, 0.0, glm::angleAxis(0.3, Vec3(0, 0, 1)));
  // Straight down onto the box top.
  RayHit hit = w.rayCast(Vec3(2.2, 10.0, 0.1), Vec3(0.0, -20.0, 0.0));
  REQUIRE(hit.hit);
  CHECK(hit.body == box);
  CHECK_THAT(hit.point.y, WithinAbs(1.0, 1e-12));
  CHECK_THAT(hit.fraction, WithinAbs(9.0 / 20.0, 1e-12));
  CHECK_THAT(hit.normal.y, WithinAbs(1.0, 1e-12));
  // Beside the boxes: the ground.
  hit = w.rayCast(Vec3(0.0, 10.0, 5.0), Vec3(0.0, -20.0, 0.0));
  REQUIRE(hit.hit);
  CHECK(hit.body == ground);
  CHECK_THAT(hit.point.y, WithinAbs(0.0, 1e-12));
  // Horizontally into the rotated box's side: the normal is its rotated -x face.
  hit = w.rayCast(Vec3(-10.0, 1.0, 0.0), Vec3(20.0, 0.0, 0.0));
  REQUIRE(hit.hit);
  CHECK(hit.body == rotated);
  const Vec3 expectedNormal = glm::angleAxis(0.3, Vec3(0, 0, 1)) * Vec3(-1, 0, 0);
  CHECK_THAT(glm::dot(hit.normal, expectedNormal), WithinAbs(1.0, 1e-12));
  // The hit point lies on that face's plane.
  CHECK_THAT(glm::dot(hit.point - Vec3(-2.0, 1.0, 0.0), expectedNormal), WithinAbs(0.5, 1e-12));
  // Too short, and pointing away: no hit.
  CHECK_FALSE(w.rayCast(Vec3(2.0, 10.0, 0.0), Vec3(0.0, -5.0, 0.0)).hit);
  CHECK_FALSE(w.rayCast(Vec3(2.0, 10.0, 0.0), Vec3(0.0, 5.0, 0.0)).hit);
}

TEST_CASE("a drag pulls a body's point to the target and lets go", "[world][query]") {
  World w{Settings{}};
  addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 0.5, 0.0));
  for (int i = 0; i < 30; ++i) REQUIRE(w.step(w.settings().dt));
  const Vec3 grab(0.0, 1.0, 0.0);  // top centre
  const Expected<DragId> made = w.createDrag(box, grab);
  REQUIRE(made);
  const DragId drag = *made;
  const Vec3 target(0.0, 3.0, 0.0);
  w.setDragTarget(drag, target);
  for (int i = 0; i < 180; ++i) REQUIRE(w.step(w.settings().dt));
  // The top centre hangs near the target (gravity sags the soft spring a little: mg/k).
  const BodyView b = *w.body(box);
  const Vec3 point = b.transform().apply(Vec3(0.0, 0.5, 0.0));
  CHECK(glm::length(point - target) < 0.05);
  CHECK(glm::length(b.linearVelocity) < 0.05);
  w.destroyDrag(drag);
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK(w.body(box)->centerOfMass.y < 0.6);  // fell back down
  CHECK(allFinite(w));
}

TEST_CASE("islands sleep, and wake on impulse, contact and settings change", "[world][sleep]") {
  World w{Settings{}};
  addGround(w);
  const BodyId a = addBox(w, Vec3(0.0, 0.5, 0.0));
  const BodyId b = addBox(w, Vec3(0.0, 1.5, 0.0));
  const BodyId far = addBox(w, Vec3(5.0, 0.5, 0.0));
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  REQUIRE_FALSE(w.body(a)->awake);
  REQUIRE_FALSE(w.body(b)->awake);
  REQUIRE_FALSE(w.body(far)->awake);
  CHECK(w.stats().awakeBodies == 0);
  // An impulse on the top box wakes its whole island, not the far box.
  w.applyLinearImpulse(b, Vec3(0.0, 1.0, 0.0), w.body(b)->centerOfMass);
  CHECK(w.body(a)->awake);
  CHECK(w.body(b)->awake);
  CHECK_FALSE(w.body(far)->awake);
  for (int i = 0; i < 180; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK_FALSE(w.body(a)->awake);
  // A falling box wakes the far box on contact.
  const BodyId dropped = addBox(w, Vec3(5.0, 2.0, 0.0));
  bool woke = false;
  for (int i = 0; i < 60 && !woke; ++i) {
    REQUIRE(w.step(w.settings().dt));
    woke = w.body(far)->awake;
  }
  CHECK(woke);
  CHECK(w.body(dropped)->awake);
  for (int i = 0; i < 240; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK(w.stats().awakeBodies == 0);
  // A settings change wakes everything at the next step.
  editSettings(w, [&](Settings& s_) { s_.contact.slop = 0.004; });
  REQUIRE(w.step(w.settings().dt));
  CHECK(w.stats().awakeBodies == 4);
  // An invalid setting is refused when set, naming the key, and changes nothing.
  const uint64_t before = w.stateHash();
  Settings bad = w.settings();
  bad.solver.velocityIterations = 0;
  const Expected<void> err = w.setSettings(bad);
  REQUIRE_FALSE(err);
  CHECK_THAT(err.error(), Catch::Matchers::Contains("solver.velocity_iterations"));
  CHECK(w.settings().solver.velocityIterations == Settings{}.solver.velocityIterations);
  CHECK(w.stateHash() == before);
}

TEST_CASE("kinematic bodies move as told and carry what rests on them", "[world]") {
  World w{Settings{}};
  addGround(w);
  BodyDef platform;
  platform.type = BodyType::Kinematic;
  platform.shape = boxHull(Vec3(2.0, 0.25, 2.0));
  platform.position = Vec3(0.0, 2.0, 0.0);
  platform.linearVelocity = Vec3(0.5, 0.0, 0.0);
  const BodyId p = *w.createBody(platform);
  const BodyId rider = addBox(w, Vec3(0.0, 2.75, 0.0), Vec3(0.5), 1.0);
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK_THAT(w.body(p)->centerOfMass.x, WithinAbs(1.0, 1e-9));
  CHECK_THAT(w.body(p)->centerOfMass.y, WithinAbs(2.0, 1e-12));
  CHECK_THAT(w.body(rider)->linearVelocity.x, WithinAbs(0.5, 0.02));
  CHECK(w.body(rider)->awake);
}

TEST_CASE("the LP cross-check runs beside GJK in the loop", "[world][crosscheck]") {
  const std::string log = std::string(TUMBLE_BINARY_DIR) + "/test_world_crosscheck.jsonl";
  std::remove(log.c_str());
  World w{Settings{}};
  editSettings(w, [&](Settings& s_) { s_.crosscheck = CrossCheckMode::All; });
  w.setCrossCheckLog(log);
  addGround(w);
  for (int i = 0; i < 8; ++i)
    addBox(w, Vec3(0.3 * (i % 3), 0.6 + 1.1 * i, 0.2 * (i % 2)), Vec3(0.5), 0.5, 0.0,
           glm::normalize(Quat(1.0, 0.1 * i, 0.05 * i, 0.0)));
  int64_t checked = 0;
  for (int i = 0; i < 120; ++i) {
    REQUIRE(w.step(w.settings().dt));
    checked = w.stats().crosscheckChecked;
  }
  CHECK(checked > 100);
  CHECK(w.stats().crosscheckDisagreed == 0);
  CHECK_FALSE(std::filesystem::exists(log));  // written only on a disagreement
  // Sampling checks a fraction of the pairs.
  World s{Settings{}};
  editSettings(s, [&](Settings& s_) { s_.crosscheck = CrossCheckMode::Sample; });
  editSettings(s, [&](Settings& s_) { s_.crosscheckSampleRate = 0.25; });
  addGround(s);
  for (int i = 0; i < 8; ++i) addBox(s, Vec3(0.0, 0.5 + 1.0 * i, 0.0));
  int64_t pairsSeen = 0;
  for (int i = 0; i < 60; ++i) {
    REQUIRE(s.step(s.settings().dt));
    pairsSeen += s.stats().pairs;
  }
  const Real fraction =
      static_cast<Real>(s.stats().crosscheckChecked) / static_cast<Real>(pairsSeen);
  CHECK(fraction > 0.1);
  CHECK(fraction < 0.4);
}

namespace {
struct CountingDraw : DebugDraw {
  int bodies = 0, sleeping = 0, boxes = 0, contacts = 0, segments = 0;
  void drawBody(const BodyView& b, int) override {
    ++bodies;
    sleeping += b.isDynamic() && !b.awake;
  }
  void drawAabb(const Aabb&, int, const Color&) override { ++boxes; }
  void drawContact(const Vec3&, const Vec3& n, Real, Real) override {
    ++contacts;
    CHECK_THAT(glm::length(n), WithinAbs(1.0, 1e-9));
  }
  void drawSegment(const Vec3&, const Vec3&, const Color&) override { ++segments; }
};
}  // namespace

TEST_CASE("debug draw reports bodies, boxes, contacts and sleep state", "[world][draw]") {
  World w{Settings{}};
  addGround(w);
  addBox(w, Vec3(0.0, 0.5, 0.0));
  addBox(w, Vec3(3.0, 0.5, 0.0));
  REQUIRE(w.step(w.settings().dt));
  CountingDraw d;
  DebugDrawFlags flags;
  flags.aabbs = true;
  flags.treeNodes = true;
  w.debugDraw(d, flags);
  CHECK(d.bodies == 3);
  CHECK(d.boxes == 3 + 2);  // 3 leaves and 2 internal nodes
  CHECK(d.contacts == 8);
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  CountingDraw later;
  w.debugDraw(later);
  CHECK(later.sleeping == 2);
}
