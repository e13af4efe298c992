// The World's API contract: step(dt) with a changing dt, settings validated when set, checked
// handles (a stale BodyId or DragId never reaches another body), and determinism with slot reuse.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "tumble/scene.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

std::unique_ptr<World> heap(int boxes, uint64_t seed) {
  auto w = std::make_unique<World>();
  addGround(*w, 30.0);
  std::vector<BodyDef> defs;
  appendHeap(defs, false, boxes, seed);
  for (const BodyDef& d : defs) REQUIRE(w->createBody(d));
  return w;
}

bool sameBits(const BodyView& a, const BodyView& b) {
  return std::memcmp(&a.position, &b.position, sizeof a.position) == 0 &&
         std::memcmp(&a.rotation, &b.rotation, sizeof a.rotation) == 0 &&
         std::memcmp(&a.linearVelocity, &b.linearVelocity, sizeof a.linearVelocity) == 0 &&
         std::memcmp(&a.angularVelocity, &b.angularVelocity, sizeof a.angularVelocity) == 0 &&
         a.awake == b.awake && a.userData == b.userData;
}

}  // namespace

TEST_CASE("a sleeping heap stays asleep while dt alternates between 1/60 and 1/50", "[api][step]") {
  auto w = heap(60, 3);
  int steps = 0;
  while (w->stats().awakeBodies > 0 || steps == 0) {
    REQUIRE(w->step(1.0 / 60.0));
    REQUIRE(++steps < 1200);
  }
  const uint64_t rest = w->stateHash();
  for (int i = 0; i < 240; ++i) {
    REQUIRE(w->step(i % 2 ? 1.0 / 50.0 : 1.0 / 60.0));
    REQUIRE(w->stats().awakeBodies == 0);
  }
  CHECK(w->stateHash() == rest);
}

TEST_CASE("a resting box carries its weight times each step's dt while dt changes", "[api][step]") {
  // Warm starting survives a change of dt: the manifold's normal impulse over one step is the
  // box's weight times that step's length, step after step (to 0.5%).
  World w;
  addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 0.5, 0.0));  // 1000 kg
  editSettings(w, [](Settings& s) { s.sleep.enabled = false; });
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(1.0 / 60.0));
  const Real weight = w.body(box)->mass * 9.81;
  for (int i = 0; i < 60; ++i) {
    const Real dt = i % 3 == 0 ? 1.0 / 50.0 : (i % 3 == 1 ? 1.0 / 60.0 : 1.0 / 90.0);
    REQUIRE(w.step(dt));
    REQUIRE(w.manifolds().size() == 1);
    const Manifold& m = w.manifolds()[0];
    Real impulse = 0.0;
    for (int k = 0; k < m.pointCount; ++k) impulse += m.points[k].normalImpulse;
    INFO("step " << i << " dt " << dt);
    CHECK_THAT(impulse, WithinRel(weight * dt, 0.005));
  }
}

TEST_CASE("step refuses a dt out of range and changes nothing, dt = 0 does nothing",
          "[api][step]") {
  World w;
  addGround(w);
  addBox(w, Vec3(0.0, 2.0, 0.0));
  const uint64_t before = w.stateHash();
  for (const Real dt : {-1.0 / 60.0, 0.2, 1e-6, std::nan("")}) {
    const Expected<void> r = w.step(dt);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error(), Contains("dt") && Contains("[1e-05, 0.1]"));
  }
  REQUIRE(w.step(0.0));
  CHECK(w.stateHash() == before);
  CHECK(w.stepCount() == 0);
}

TEST_CASE("settings are validated when set: a bad value is refused whole, naming the key",
          "[api][settings]") {
  World w;
  Settings s = w.settings();
  s.contact.slop = 0.007;
  s.gjk.maxIterations = 0;  // out of range
  const Expected<void> r = w.setSettings(s);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error(), Contains("gjk.max_iterations"));
  CHECK(w.settings().contact.slop == Settings{}.contact.slop);  // nothing taken
  const Expected<void> key = w.setSetting("contact.slop", "2");
  REQUIRE_FALSE(key);
  CHECK_THAT(key.error(), Contains("contact.slop") && Contains("[0, 0.1]"));
  REQUIRE(w.setSetting("contact.slop", "0.007"));
  CHECK(w.settings().contact.slop == 0.007);
  // World::create refuses what the constructor would have to replace by the defaults.
  Settings bad;
  bad.solver.substeps = 0;
  const auto made = World::create(bad);
  REQUIRE_FALSE(made);
  CHECK_THAT(made.error(), Contains("solver.substeps"));
}

TEST_CASE("a settings change other than dt wakes a sleeping world, equal settings do not",
          "[api][settings]") {
  auto w = heap(20, 5);
  for (int i = 0; i < 1200 && (w->stats().awakeBodies > 0 || i == 0); ++i)
    REQUIRE(w->step(1.0 / 60.0));
  REQUIRE(w->stats().awakeBodies == 0);
  Settings same = w->settings();
  same.dt = 1.0 / 30.0;  // the World does not read dt
  REQUIRE(w->setSettings(same));
  REQUIRE(w->step(1.0 / 60.0));
  CHECK(w->stats().awakeBodies == 0);
  REQUIRE(w->setSetting("sleep.linear", "0.04"));
  REQUIRE(w->step(1.0 / 60.0));
  CHECK(w->stats().awakeBodies == 20);
}

TEST_CASE("a stale BodyId is refused by every setter and reader, the body in its slot is untouched",
          "[api][handles]") {
  // Two identical worlds; in one, a body is destroyed and its slot reused, and every call with the
  // stale id is made. The new body must end exactly where its twin (no stale calls) ends.
  auto build = [](bool staleCalls) {
    auto w = std::make_unique<World>();
    addGround(*w);
    const BodyId old = addBox(*w, Vec3(0.0, 3.0, 0.0));
    w->destroyBody(old);
    const BodyId fresh = addBox(*w, Vec3(0.3, 1.0, 0.1));
    REQUIRE(fresh.index == old.index);            // the slot is reused ...
    REQUIRE(fresh.generation != old.generation);  // ... with the next generation
    REQUIRE_FALSE(w->isAlive(old));
    REQUIRE(w->isAlive(fresh));
    if (staleCalls) {
      CountAsserts asserts;
      const BodyView before = *w->body(fresh);
      w->setTransform(old, Transform{Vec3(5.0), Quat(1, 0, 0, 0)});
      w->setLinearVelocity(old, Vec3(9.0));
      w->setAngularVelocity(old, Vec3(9.0));
      w->applyForce(old, Vec3(1e6), Vec3(0.0));
      w->applyTorque(old, Vec3(1e6));
      w->applyLinearImpulse(old, Vec3(1e6), Vec3(0.0));
      w->wake(old);
      w->setUserData(old, 42);
      w->destroyBody(old);
      CHECK(asserts.count() == 9);
      CHECK_THAT(asserts.last(), Contains("destroyBody") && Contains("not alive"));
      const Expected<BodyView> read = w->body(old);
      REQUIRE_FALSE(read);
      CHECK_THAT(read.error(), Contains("not alive"));
      const Expected<DragId> drag = w->createDrag(old, Vec3(0.3, 1.0, 0.1));
      REQUIRE_FALSE(drag);
      CHECK_THAT(drag.error(), Contains("not alive"));
      CHECK(w->isAlive(fresh));
      CHECK(sameBits(*w->body(fresh), before));
    }
    for (int i = 0; i < 60; ++i) REQUIRE(w->step(1.0 / 60.0));
    return w->stateHash();
  };
  CHECK(build(true) == build(false));
}

TEST_CASE("a stale DragId is refused, the drag in its slot keeps its target", "[api][handles]") {
  auto build = [](bool staleCalls) {
    auto w = std::make_unique<World>();
    addGround(*w);
    const BodyId box = addBox(*w, Vec3(0.0, 0.5, 0.0));
    const Expected<DragId> first = w->createDrag(box, Vec3(0.0, 1.0, 0.0));
    REQUIRE(first);
    w->destroyDrag(*first);
    const Expected<DragId> second = w->createDrag(box, Vec3(0.0, 1.0, 0.0));
    REQUIRE(second);
    REQUIRE(second->index == first->index);
    REQUIRE_FALSE(w->isAlive(*first));
    w->setDragTarget(*second, Vec3(0.0, 2.0, 0.0));
    if (staleCalls) {
      CountAsserts asserts;
      w->setDragTarget(*first, Vec3(4.0, 4.0, 4.0));
      w->destroyDrag(*first);
      CHECK(asserts.count() == 2);
      CHECK(w->isAlive(*second));
    }
    for (int i = 0; i < 60; ++i) REQUIRE(w->step(1.0 / 60.0));
    // Destroying the body ends its drags: the id goes stale.
    w->destroyBody(box);
    CHECK_FALSE(w->isAlive(*second));
    return w->stateHash();
  };
  CHECK(build(true) == build(false));
}

TEST_CASE("a world that destroys and recreates bodies reproduces its hash", "[api][determinism]") {
  // Slot reuse: every 15 steps three bodies go (chosen by a fixed rule) and three new ones take
  // their slots. Two runs must give the same bits, and the slots must be reused (no growth).
  auto run = [] {
    auto w = heap(80, 9);
    const int slots = static_cast<int>(w->bodyIds().back().index) + 1;
    std::vector<uint64_t> hashes;
    uint64_t pick = 12345;
    for (int step = 1; step <= 300; ++step) {
      REQUIRE(w->step(1.0 / 60.0));
      if (step % 15 != 0) continue;
      std::vector<BodyId> ids = w->bodyIds();
      for (int k = 0; k < 3; ++k) {
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        const size_t i = 1 + (pick >> 33) % (ids.size() - 1);  // never the ground (slot 0)
        w->destroyBody(ids[i]);
        ids.erase(ids.begin() + static_cast<long>(i));
      }
      for (int k = 0; k < 3; ++k) {
        const BodyId id = addBox(*w, Vec3(0.4 * k - 0.4, 6.0 + k, 0.2 * k));
        REQUIRE(id.index < slots);
      }
      hashes.push_back(w->stateHash());
    }
    hashes.push_back(w->stateHash());
    return hashes;
  };
  const std::vector<uint64_t> a = run(), b = run();
  REQUIRE(a.size() == 21);
  CHECK(a == b);
}
