// Snapshots (snapshot.h): a restored world continues bit for bit; a damaged snapshot is refused
// (naming the offset) and leaves the world as it was, never a crash.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "fp_traps.h"
#include "scene_fixtures.h"
#include "tumble/events.h"
#include "tumble/scene.h"
#include "tumble/shape.h"
#include "tumble/snapshot.h"
#include "tumble/world.h"

using namespace tumble;
using Catch::Matchers::Contains;

namespace {

// Under AddressSanitizer (several times slower) the 2000-body heap runs 100 + 100 steps instead of
// 300 + 300, and each byte behind a good checksum takes one of the three flips (in turn) instead of
// all three; the release build runs them all.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

const std::filesystem::path kScenes =
    std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes";

std::unique_ptr<World> sceneWorld(const std::string& name) {
  auto scene = loadScene(kScenes / (name + ".json"));
  REQUIRE(scene);
  auto world = buildWorld(*scene);
  REQUIRE(world);
  return std::move(*world);
}

void run(World& w, int steps) {
  for (int i = 0; i < steps; ++i) REQUIRE(w.step(w.settings().dt));
}

// Steps `first`, saves, steps `second` more; restores the snapshot into a fresh world (and into
// the stepped one itself) and steps `second`: the hashes must equal the uninterrupted run's.
void checkContinues(World& w, int first, int second) {
  run(w, first);
  const int64_t stepsAtSave = w.stepCount();
  const std::vector<uint8_t> bytes = saveSnapshot(w);
  const uint64_t atSave = w.stateHash();
  run(w, second);
  const uint64_t straight = w.stateHash();

  World fresh;
  REQUIRE(restoreSnapshot(fresh, bytes));
  CHECK(fresh.stateHash() == atSave);
  CHECK(fresh.stepCount() == stepsAtSave);
  CHECK(saveSnapshot(fresh) == bytes);  // nothing lost or added on the way
  run(fresh, second);
  CHECK(fresh.stateHash() == straight);

  REQUIRE(restoreSnapshot(w, bytes));  // back in time, in place
  run(w, second);
  CHECK(w.stateHash() == straight);
}

// A small world with every kind of shape, a joint, a drag, sleeping bodies and free slots.
std::unique_ptr<World> smallWorld() {
  auto w = std::make_unique<World>();
  auto add = [&](Shape shape, Vec3 p, BodyType type = BodyType::Dynamic) {
    BodyDef d;
    d.shape = std::move(shape);
    d.position = p;
    d.type = type;
    auto id = w->createBody(d);
    REQUIRE(id);
    return *id;
  };
  std::vector<std::vector<Real>> heights(4, std::vector<Real>(4, 0.0));
  heights[1][2] = 0.3;
  add(*makeHeightField(heights, 4.0, 4.0), Vec3(-6, 0, -6), BodyType::Static);
  add(*makeMesh({{-3, 0, -3}, {3, 0, -3}, {3, 0, 3}, {-3, 0, 3}}, {{{0, 2, 1}}, {{0, 3, 2}}}),
      Vec3(0, 0.5, 0), BodyType::Static);
  const BodyId box = add(*makeBox(Vec3(0.5)), Vec3(0, 1.2, 0));
  const BodyId ball = add(*makeSphere(0.3), Vec3(1.5, 1.5, 0));
  add(*makeCapsule(0.2, 0.3), Vec3(-1.5, 1.5, 0));
  add(*makeCylinder(0.3, 0.2), Vec3(0, 3, 1));
  const Vec3 corners[] = {{-.3, -.3, -.3}, {.3, -.3, -.3}, {-.3, .3, -.3}, {.3, .3, -.3},
                          {-.3, -.3, .3},  {.3, -.3, .3},  {-.3, .3, .3},  {.3, .3, .3}};
  add(*makeRoundedHull(corners, 0.05), Vec3(1, 3, -1));
  const CompoundChild children[] = {{*makeBox(Vec3(0.2)), {Vec3(-0.4, 0, 0), Quat(1, 0, 0, 0)}},
                                    {*makeSphere(0.25), {Vec3(0.4, 0, 0), Quat(1, 0, 0, 0)}}};
  const BodyId gone = add(*makeCompound(children), Vec3(-1, 4, 1));
  add(*makeCompound(children), Vec3(1, 5, 1));
  {  // body options, a filter, a sensor and hit events
    BodyDef d;
    d.shape = *makeBox(Vec3(0.2));
    d.position = Vec3(-2, 2, -1);
    d.linearDamping = 0.3;
    d.angularDamping = 0.2;
    d.gravityScale = 0.7;
    d.lockRotation[1] = true;
    d.bullet = true;
    d.hitEventSpeed = 0.5;
    d.filter.group = -3;
    REQUIRE(w->createBody(d));
    d.position = Vec3(-2, 3, -1);
    d.bullet = false;
    REQUIRE(w->createBody(d));
    BodyDef s;
    s.type = BodyType::Static;
    s.isSensor = true;
    s.shape = *makeBox(Vec3(2.0, 0.5, 2.0));
    s.position = Vec3(0, 1.0, 0);
    REQUIRE(w->createBody(s));
  }
  {  // compound children with a filter of their own and a sensor child, with a box resting in it
    std::vector<CompoundChild> parts = {
        {*makeBox(Vec3(0.5)), {Vec3(0, 0.5, 0), Quat(1, 0, 0, 0)}},
        {*makeBox(Vec3(1.0)), {Vec3(0, 2.0, 0), Quat(1, 0, 0, 0)}},
        {*makeBox(Vec3(0.1)), {Vec3(0.8, 0.1, 0), Quat(1, 0, 0, 0)}}};
    parts[1].isSensor = true;
    parts[2].filter = BodyFilter{4, ~uint64_t{2}, -5};
    add(*makeCompound(parts), Vec3(4, 0.5, 4), BodyType::Static);
    add(*makeBox(Vec3(0.2)), Vec3(4, 2.3, 4));
  }
  BallJointDef j;
  j.a = box;
  j.b = ball;
  j.anchor = Vec3(0.8, 1.4, 0);
  REQUIRE(w->createJoint(j));
  run(*w, 20);
  w->destroyBody(gone);  // a free slot with a bumped generation
  REQUIRE(w->createDrag(ball, Vec3(1.5, 1.5, 0)));
  run(*w, 5);
  return w;
}

}  // namespace

TEST_CASE("a restored pile, heap and joint scene continue bit for bit", "[snapshot]") {
  for (const char* name :
       {"pile", "heap_boxes_500", "heap_hull20_500", "ragdolls", "terrain", "compound", "shapes",
        "bridge", "sensors", "door", "car", "rope", "cradle"}) {
    INFO(name);
    auto w = sceneWorld(name);
    checkContinues(*w, 300, 300);
  }
}

// Two ball joints between one pair share an entry of the joints' exact groups (joint_solver.cpp,
// partner_), rebuilt each step from the joints' impulses; of two hinges between one pair the
// second is left to the passes (JointTree::setLeavePairLoops).
TEST_CASE("a restored bridge on pairs of ball joints or hinges continues bit for bit",
          "[snapshot]") {
  const bool hinges = GENERATE(false, true);
  INFO((hinges ? "hinges" : "ball joints"));
  auto world = buildWorld(test::bridgeOnPairs(true, hinges));
  REQUIRE(world);
  checkContinues(**world, 300, 300);
}

TEST_CASE("a restored 1000-body heap continues bit for bit", "[snapshot]") {
  for (const char* name : {"heap_boxes_1000", "heap_hull20_1000"}) {
    INFO(name);
    auto w = sceneWorld(name);
    checkContinues(*w, 300, 300);
  }
}

TEST_CASE("a restored 2000-body heap continues bit for bit", "[snapshot]") {
  const int steps = kSanitized ? 100 : 300;
  for (const char* name : {"heap_boxes_2000", "heap_hull20_2000"}) {
    INFO(name);
    auto w = sceneWorld(name);
    checkContinues(*w, steps, steps);
  }
}

TEST_CASE("snapshots keep sleeping bodies, free slots, generations, joints and drags",
          "[snapshot]") {
  auto w = sceneWorld("heap_boxes_500");
  run(*w, 600);  // the heap is at rest by now, most of it asleep
  const std::vector<BodyId> ids = w->bodyIds();
  int asleep = 0;
  for (BodyId id : ids) asleep += w->body(id)->isDynamic() && !w->body(id)->awake;
  CHECK(asleep > 0);
  // Churn: remove every third body, add as many boxes at the top (slots reused, generations up).
  std::mt19937 rng(7);
  const Shape box = *makeBox(Vec3(0.2, 0.1, 0.3));
  for (size_t k = 0; k < ids.size(); k += 3)
    if (w->body(ids[k])->isDynamic()) w->destroyBody(ids[k]);
  for (int k = 0; k < 10; ++k) {
    BodyDef d;
    d.shape = box;
    d.position = Vec3(std::uniform_real_distribution<Real>(-2, 2)(rng), 8.0 + k, 0.0);
    REQUIRE(w->createBody(d));
  }
  checkContinues(*w, 100, 200);

  auto small = smallWorld();
  const BodyId stale = small->idAt(7);
  CHECK_FALSE(stale.valid());  // the destroyed compound's slot
  checkContinues(*small, 10, 60);
  CHECK(small->jointCount() == 1);
}

TEST_CASE("compound children's filters and sensor flags and sensor-child overlaps round-trip",
          "[snapshot]") {
  auto w = smallWorld();
  // The box resting on the compound's solid child is inside its sensor child.
  bool childOverlap = false;
  for (const SensorEvent& e : w->sensorOverlaps())
    childOverlap = childOverlap || e.sensorChild == 1;
  REQUIRE(childOverlap);
  const std::vector<uint8_t> bytes = saveSnapshot(*w);
  World back;
  REQUIRE(restoreSnapshot(back, bytes));
  REQUIRE(back.sensorOverlaps().size() == w->sensorOverlaps().size());
  for (size_t k = 0; k < back.sensorOverlaps().size(); ++k) {
    const SensorEvent &x = back.sensorOverlaps()[k], &y = w->sensorOverlaps()[k];
    CHECK((x.sensor == y.sensor && x.visitor == y.visitor && x.sensorChild == y.sensorChild));
  }
  int flagged = 0;
  for (const BodyId id : w->bodyIds()) {
    const Compound* a = w->body(id)->shape.compound();
    const Compound* b = back.body(id)->shape.compound();
    REQUIRE((a == nullptr) == (b == nullptr));
    if (!a) continue;
    REQUIRE(a->children.size() == b->children.size());
    for (size_t k = 0; k < a->children.size(); ++k) {
      CHECK(a->children[k].isSensor == b->children[k].isSensor);
      CHECK(a->children[k].filter == b->children[k].filter);
    }
    CHECK(a->anySensor == b->anySensor);
    CHECK(a->anyFilter == b->anyFilter);
    CHECK(a->solidFilters == b->solidFilters);
    CHECK(a->solidInherits == b->solidInherits);
    flagged += a->anySensor && a->anyFilter;
  }
  CHECK(flagged == 1);
  // The restored world sees the sensor child's overlap end as the original does.
  w->setTransform(w->bodyIds().back(), Transform{Vec3(8, 2.3, 8), Quat(1, 0, 0, 0)});
  back.setTransform(back.bodyIds().back(), Transform{Vec3(8, 2.3, 8), Quat(1, 0, 0, 0)});
  run(*w, 1), run(back, 1);
  REQUIRE(w->sensorEvents().end.size() == 1);
  CHECK(w->sensorEvents().end[0].sensorChild == 1);
  REQUIRE(back.sensorEvents().end.size() == 1);
  CHECK(back.sensorEvents().end[0].sensorChild == 1);
  CHECK(back.stateHash() == w->stateHash());
}

TEST_CASE("a version 1 snapshot (before compound child flags) is read and saved as the newest",
          "[snapshot]") {
  // The fuzz corpus's whole snapshot of tests/data/events_scene.json was written by version 1
  // (its first byte is the fuzz target's form byte). It restores; saved again it is the newest
  // version, and that restores to the same world.
  const auto file = std::filesystem::path(TUMBLE_SOURCE_DIR) / "tests" / "fuzz" / "corpus" /
                    "snapshot" / "events_scene_whole";
  std::vector<uint8_t> bytes;
  {
    std::FILE* f = std::fopen(file.string().c_str(), "rb");
    REQUIRE(f);
    for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<uint8_t>(c));
    std::fclose(f);
  }
  bytes.erase(bytes.begin());
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  REQUIRE(version == 1);
  World w;
  REQUIRE(restoreSnapshot(w, bytes));
  CHECK(w.bodyCount() > 0);
  const std::vector<uint8_t> again = saveSnapshot(w);
  std::memcpy(&version, again.data() + 8, 4);
  CHECK(version == kSnapshotVersion);
  World back;
  REQUIRE(restoreSnapshot(back, again));
  CHECK(back.stateHash() == w.stateHash());
  CHECK(saveSnapshot(back) == again);
  run(w, 30), run(back, 30);
  CHECK(back.stateHash() == w.stateHash());
}

TEST_CASE("a version 3 snapshot (before spring targets) continues its run bit for bit",
          "[snapshot]") {
  // tests/data/door_v3.tumblesnap: `tumble-cli sim door --steps 40 --save` by a version 3 build
  // (the door scene's right door has a spring, which pulled to 0 then: its target is read as 0).
  // Restored and run 60 steps it ends where the scene run 100 steps from its file ends.
  std::vector<uint8_t> bytes;
  {
    const auto file =
        std::filesystem::path(TUMBLE_SOURCE_DIR) / "tests" / "data" / "door_v3.tumblesnap";
    std::FILE* f = std::fopen(file.string().c_str(), "rb");
    REQUIRE(f);
    for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<uint8_t>(c));
    std::fclose(f);
  }
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  REQUIRE(version == 3);
  World restored;
  REQUIRE(restoreSnapshot(restored, bytes));
  bool sprung = false;
  for (JointId id : restored.jointIds()) {
    const JointView v = *restored.joint(id);
    sprung = sprung || v.spring.enabled;
    CHECK(v.spring.target == 0.0);
  }
  CHECK(sprung);
  auto fresh = sceneWorld("door");
  run(*fresh, 100);
  run(restored, 60);
  CHECK(restored.stateHash() == fresh->stateHash());
}

TEST_CASE("a snapshot file round-trips and a missing file is named", "[snapshot]") {
  auto w = smallWorld();
  const auto dir = std::filesystem::temp_directory_path() / "tumble_snapshot_test";
  std::filesystem::create_directories(dir);
  const auto file = dir / "small.tumblesnap";
  REQUIRE(saveSnapshotFile(*w, file));
  World back;
  REQUIRE(restoreSnapshotFile(back, file));
  CHECK(saveSnapshot(back) == saveSnapshot(*w));
  const auto missing = restoreSnapshotFile(back, dir / "missing.tumblesnap");
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Contains("missing.tumblesnap"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("every truncation and every flipped byte is refused, the world unchanged", "[snapshot]") {
  auto source = smallWorld();
  const std::vector<uint8_t> bytes = saveSnapshot(*source);
  auto target = sceneWorld("pile");
  run(*target, 3);
  const std::vector<uint8_t> before = saveSnapshot(*target);
  for (size_t n = 0; n < bytes.size(); ++n) {
    const auto r = restoreSnapshot(*target, std::span(bytes.data(), n));
    REQUIRE_FALSE(r);
    REQUIRE_THAT(r.error(), Contains("offset"));
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> bad = bytes;
    bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
    const auto r = restoreSnapshot(*target, bad);
    REQUIRE_FALSE(r);  // the checksum (or the header) catches every single flip
    REQUIRE_THAT(r.error(), Contains("offset"));
  }
  CHECK(saveSnapshot(*target) == before);
  // Named problems.
  std::vector<uint8_t> newer = bytes;
  newer[8] = static_cast<uint8_t>(kSnapshotVersion + 1);
  CHECK_THAT(restoreSnapshot(*target, newer).error(), Contains("newer"));
  CHECK_THAT(restoreSnapshot(*target, std::span(bytes.data(), bytes.size() - 1)).error(),
             Contains("truncated"));
}

TEST_CASE("flipped bytes behind a good checksum: refused or a sound world, never a crash",
          "[snapshot]") {
  // The checksum is recomputed after each flip, so the field readers and the cross-reference
  // check see the damage (as a fuzzer would). A world that is accepted must step and save.
  // A flipped double may be finite but absurd (a mass of 1e300): the step then overflows, and
  // the non-finite policy removes the body (nonfinite.h); traps stay off for that.
  test::FpTrapsOff traps;
  auto source = smallWorld();
  const std::vector<uint8_t> bytes = saveSnapshot(*source);
  int refused = 0, accepted = 0;
  const uint8_t flips[] = {0x01, 0x80, 0xff};
  for (size_t i = 32; i < bytes.size(); ++i) {
    for (uint8_t flip : flips) {
      if (kSanitized && flip != flips[i % 3]) continue;
      std::vector<uint8_t> bad = bytes;
      bad[i] ^= flip;
      const uint64_t sum = snapshotChecksum(std::span(bad).subspan(32));
      std::memcpy(bad.data() + 24, &sum, 8);
      World w;
      if (!restoreSnapshot(w, bad)) {
        ++refused;
        continue;
      }
      ++accepted;
      for (int s = 0; s < 3; ++s) REQUIRE(w.step(1.0 / 60.0));
      (void)saveSnapshot(w);
    }
  }
  INFO("refused " << refused << ", accepted " << accepted);
  CHECK(refused > 0);
  CHECK(accepted > 0);  // most doubles take any finite value
}

TEST_CASE("a restored world reports the same events as the uninterrupted one", "[snapshot]") {
  // The sensors scene: sensor overlaps, touch begin/end and hits continue event for event.
  auto w = sceneWorld("sensors");
  run(*w, 40);  // the bodies reach the sensor from step 49 on
  const std::vector<uint8_t> bytes = saveSnapshot(*w);
  auto record = [](World& world, int steps) {
    std::vector<std::array<int, 6>> out;
    for (int i = 0; i < steps; ++i) {
      REQUIRE(world.step(world.settings().dt));
      const ContactEvents& c = world.contactEvents();
      const SensorEvents& s = world.sensorEvents();
      out.push_back({static_cast<int>(c.begin.size()), static_cast<int>(c.end.size()),
                     static_cast<int>(c.hit.size()), static_cast<int>(s.begin.size()),
                     static_cast<int>(s.end.size()),
                     static_cast<int>(world.sensorOverlaps().size())});
    }
    return out;
  };
  const auto straight = record(*w, 300);
  World back;
  REQUIRE(restoreSnapshot(back, bytes));
  const auto restored = record(back, 300);
  CHECK(restored == straight);
  int sensorBegins = 0;
  for (const auto& e : straight) sensorBegins += e[3];
  CHECK(sensorBegins > 0);  // the run had sensor events to compare
}
