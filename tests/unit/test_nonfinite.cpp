// Numeric safety (nonfinite.h): a body given a non-finite state through the public API is removed
// and reported before the value reaches its neighbours.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "fp_traps.h"
#include "tumble/task.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
constexpr Real kInf = std::numeric_limits<Real>::infinity();

// Three boxes side by side on the ground, touching: the middle one is the one poisoned.
struct Row {
  World w{Settings{}};
  BodyId ground, left, middle, right;
  Row() {
    ground = addGround(w);
    left = addBox(w, Vec3(-1.0, 0.5, 0.0));
    middle = addBox(w, Vec3(0.0, 0.5, 0.0));
    right = addBox(w, Vec3(1.0, 0.5, 0.0));
    for (int i = 0; i < 30; ++i) REQUIRE(w.step(w.settings().dt));
  }
};

}  // namespace

TEST_CASE("a NaN velocity removes the body and names it, its step and the quantity",
          "[nonfinite]") {
  Row row;
  REQUIRE(row.w.nonFiniteEvents().empty());
  row.w.setLinearVelocity(row.middle, Vec3(0.0, kNaN, 0.0));
  const int64_t step = row.w.stepCount();
  for (int i = 0; i < 60; ++i) REQUIRE(row.w.step(row.w.settings().dt));

  REQUIRE(row.w.nonFiniteEvents().size() == 1);
  const NonFiniteEvent& e = row.w.nonFiniteEvents().front();
  CHECK(e.body == row.middle);
  CHECK(e.step == step);
  CHECK(std::string(e.quantity) == "linear_velocity");
  CHECK_FALSE(row.w.isAlive(row.middle));
  CHECK(row.w.bodyCount() == 3);
  CHECK(allFinite(row.w));
  // The neighbours that touched it are still there and at rest on the ground.
  for (BodyId id : {row.left, row.right}) {
    REQUIRE(row.w.isAlive(id));
    const BodyView b = *row.w.body(id);
    CHECK(std::abs(b.centerOfMass.y - 0.5) < 0.05);
    CHECK(glm::length(b.linearVelocity) < 0.5);
  }
}

TEST_CASE("infinite spin, force and torque are caught the same way", "[nonfinite]") {
  Row row;
  row.w.setAngularVelocity(row.left, Vec3(kInf, 0.0, 0.0));
  {
    FpTrapsOff traps;  // the torque of an infinite force is computed (0 * inf) on purpose
    row.w.applyForce(row.middle, Vec3(0.0, 0.0, kInf), row.w.body(row.middle)->centerOfMass);
  }
  row.w.applyTorque(row.right, Vec3(kNaN, 0.0, 0.0));
  REQUIRE(row.w.step(row.w.settings().dt));
  const auto& events = row.w.nonFiniteEvents();
  REQUIRE(events.size() == 3);
  CHECK(events[0].body == row.left);
  CHECK(std::string(events[0].quantity) == "angular_velocity");
  CHECK(events[1].body == row.middle);
  CHECK(std::string(events[1].quantity) == "force");  // checked before the torque
  CHECK(events[2].body == row.right);
  CHECK(std::string(events[2].quantity) == "torque");
  CHECK(row.w.bodyCount() == 1);  // the ground
  for (int i = 0; i < 10; ++i) REQUIRE(row.w.step(row.w.settings().dt));
  CHECK(allFinite(row.w));
}

TEST_CASE("a finite world reports nothing and keeps every body", "[nonfinite]") {
  Row row;
  for (int i = 0; i < 30; ++i) REQUIRE(row.w.step(row.w.settings().dt));
  CHECK(row.w.nonFiniteEvents().empty());
  CHECK(row.w.bodyCount() == 4);
  Body b;
  b.alive = true;
  CHECK(firstNonFinite(b) == nullptr);
  b.rotation.x = kNaN;
  CHECK(std::string(firstNonFinite(b)) == "orientation");
  b.center.z = -kInf;
  CHECK(std::string(firstNonFinite(b)) == "position");
}

TEST_CASE(
    "the end-of-step scan on threads finds the same bodies, in index order, and clears every "
    "force",
    "[nonfinite]") {
  // 5000 bodies (5 chunks of the threaded scan): some dead, some with forces, four not finite in
  // three chunks (one of them dead: not reported), the last one in the final chunk.
  std::vector<Body> bodies(5000);
  for (size_t i = 0; i < bodies.size(); ++i) {
    bodies[i].alive = i % 7 != 3;
    bodies[i].force = Vec3(static_cast<Real>(i), 1.0, 2.0);
    bodies[i].torque = Vec3(0.0, static_cast<Real>(i), 3.0);
  }
  bodies[1100].linearVelocity.y = kNaN;
  bodies[1101].center.x = kInf;
  bodies[3].angularVelocity.z = kNaN;  // dead (3 % 7 == 3): not reported
  bodies[3002].rotation.w = kNaN;
  bodies[4999].linearVelocity.x = -kInf;
  std::vector<Body> serialBodies = bodies;
  std::vector<NonFiniteEvent> serialEvents;
  const std::vector<int> serial = clearForcesFindNonFinite(serialBodies, 7, serialEvents);
  REQUIRE(serial == std::vector<int>{1100, 1101, 3002, 4999});
  for (int threads : {3, 8}) {
    INFO(threads << " threads");
    ThreadPool pool(threads);
    std::vector<Body> threaded = bodies;
    std::vector<NonFiniteEvent> events;
    CHECK(clearForcesFindNonFinite(threaded, 7, events, &pool) == serial);
    REQUIRE(events.size() == serialEvents.size());
    for (size_t k = 0; k < events.size(); ++k) {
      CHECK(events[k].body == serialEvents[k].body);
      CHECK(events[k].step == 7);
      CHECK(std::string(events[k].quantity) == serialEvents[k].quantity);
    }
    bool cleared = true;
    for (const Body& b : threaded)
      cleared = cleared && b.force == Vec3(0.0) && b.torque == Vec3(0.0);
    CHECK(cleared);
    // A finite world: nothing found.
    std::vector<Body> fine(5000);
    for (Body& b : fine) b.alive = true;
    CHECK(clearForcesFindNonFinite(fine, 8, events, &pool).empty());
    CHECK(events.size() == serialEvents.size());
  }
}
