// Contact events (begin, end, hit), sensors and collision filtering (issue 16): one begin and one
// end per contact episode whatever sleeping does, a sensor counting 100 falling bodies, the filter
// rule checked on every manifold of a heap with random filters, hit speeds against sqrt(2 g h),
// and the same events from two runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <random>

#include "tumble/scene.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// Every event of one step, flattened for counting and comparing.
struct Log {
  int begins = 0, ends = 0, hits = 0, sensorBegins = 0, sensorEnds = 0;
  void add(const World& w) {
    begins += static_cast<int>(w.contactEvents().begin.size());
    ends += static_cast<int>(w.contactEvents().end.size());
    hits += static_cast<int>(w.contactEvents().hit.size());
    sensorBegins += static_cast<int>(w.sensorEvents().begin.size());
    sensorEnds += static_cast<int>(w.sensorEvents().end.size());
  }
};

void stepN(World& w, int n, Log* log = nullptr) {
  for (int i = 0; i < n; ++i) {
    REQUIRE(w.step(w.settings().dt));
    if (log) log->add(w);
  }
}

// The rule written out again (not shouldCollide): groups first, then both bit tests.
bool ruleSaysCollide(const BodyFilter& a, const BodyFilter& b) {
  if (a.group != 0 && a.group == b.group) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

}  // namespace

TEST_CASE("a dropped box begins once, rests, sleeps and wakes without events, ends when lifted") {
  World w;
  const BodyId ground = addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 1.5, 0.0));
  Log log;
  int beginStep = -1;
  for (int i = 0; i < 600 && w.body(box)->awake; ++i) {
    stepN(w, 1, &log);
    if (!w.contactEvents().begin.empty() && beginStep < 0) {
      beginStep = i;
      const ContactBeginEvent& e = w.contactEvents().begin.front();
      CHECK(e.a == ground);
      CHECK(e.b == box);
      CHECK_THAT(e.normal.y, WithinAbs(1.0, 1e-9));
      CHECK_THAT(e.point.y, WithinAbs(0.0, 0.02));
    }
  }
  REQUIRE_FALSE(w.body(box)->awake);  // it fell asleep on the ground
  CHECK(beginStep > 10);              // 1 m of fall first
  CHECK(log.begins == 1);
  CHECK(log.ends == 0);
  stepN(w, 30, &log);  // asleep
  w.wake(box);
  stepN(w, 120, &log);  // woken: settles and sleeps again
  CHECK(log.begins == 1);
  CHECK(log.ends == 0);
  CHECK(log.hits == 0);  // nobody asked for hits

  w.setTransform(box, Transform{Vec3(0.0, 5.0, 0.0), Quat(1, 0, 0, 0)});
  stepN(w, 1, &log);
  REQUIRE(w.contactEvents().end.size() == 1);
  CHECK(w.contactEvents().end[0].a == ground);
  CHECK(w.contactEvents().end[0].b == box);
  stepN(w, 20, &log);  // falling again, not yet down
  CHECK(log.begins == 1);
  CHECK(log.ends == 1);
}

TEST_CASE("destroying a touching body ends its contact with the next step's events") {
  World w;
  const BodyId ground = addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 0.49, 0.0));
  stepN(w, 10);
  REQUIRE(w.contactPairs().size() == 1);
  REQUIRE(w.contactPairs()[0].touching);
  w.destroyBody(box);
  stepN(w, 1);
  REQUIRE(w.contactEvents().end.size() == 1);
  CHECK(w.contactEvents().end[0].a == ground);
  CHECK(w.contactEvents().end[0].b == box);
  stepN(w, 1);
  CHECK(w.contactEvents().empty());
}

TEST_CASE("a sensor counts each of 100 bodies falling through it exactly once") {
  World w;
  BodyDef sensor;
  sensor.type = BodyType::Static;
  sensor.shape = boxHull(Vec3(6.0, 0.25, 6.0));
  sensor.position = Vec3(0.0, 0.0, 0.0);
  sensor.isSensor = true;
  const BodyId sensorId = *w.createBody(sensor);
  // Another sensor crossing the first (sensors do not see sensors) and 100 bodies of three kinds
  // in a 10 x 10 grid, from 2 to 6.5 m up, falling through.
  BodyDef other = sensor;
  other.shape = boxHull(Vec3(0.25, 3.0, 0.25));
  other.position = Vec3(5.9, 0.0, 5.9);
  const BodyId otherSensor = *w.createBody(other);
  std::map<int, int> begins, ends;
  for (int i = 0; i < 100; ++i) {
    BodyDef def;
    def.shape = i % 3 == 0   ? *makeSphere(0.2)
                : i % 3 == 1 ? boxHull(Vec3(0.2))
                             : *makeCapsule(0.15, 0.2);
    def.position = Vec3(-5.0 + (i % 10) * 1.1, 2.0 + 0.05 * i, -5.0 + (i / 10) * 1.1);
    REQUIRE(w.createBody(def));
  }
  for (int step = 0; step < 240; ++step) {
    stepN(w, 1);
    for (const SensorEvent& e : w.sensorEvents().begin) {
      CHECK(e.visitor != otherSensor);
      ++begins[e.visitor.index];
    }
    for (const SensorEvent& e : w.sensorEvents().end) ++ends[e.visitor.index];
    for (const Manifold& m : w.manifolds()) CHECK((m.a != sensorId && m.b != sensorId));
  }
  REQUIRE(begins.size() == 100);
  REQUIRE(ends.size() == 100);
  for (const auto& [body, n] : begins) CHECK(n == 1);
  for (const auto& [body, n] : ends) CHECK(n == 1);
  for (const BodyId id : w.bodyIds())  // nothing held up: every body fell below the sensor
    if (w.body(id)->isDynamic()) CHECK(w.body(id)->position.y < -2.0);
}

TEST_CASE("a dynamic sensor falls through a resting box and the ground, pushing nothing") {
  World w;
  addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 0.5, 0.0));
  stepN(w, 60);
  REQUIRE_FALSE(w.body(box)->awake);
  BodyDef def;
  def.shape = boxHull(Vec3(0.6));
  def.position = Vec3(0.0, 3.0, 0.0);
  def.isSensor = true;
  const BodyId s = *w.createBody(def);
  Log log;
  stepN(w, 120, &log);
  CHECK(w.body(s)->position.y < -5.0);
  CHECK_THAT(w.body(box)->position.y, WithinAbs(0.5, 1e-3));  // not pushed
  CHECK(log.begins == 0);
  CHECK(log.sensorBegins == 1);  // the sleeping box; the static ground is no visitor
  CHECK(log.sensorEnds == 1);
  CHECK(w.sensorOverlaps().empty());
}

TEST_CASE("destroying a visitor or a sensor ends the overlap") {
  World w;
  BodyDef def;
  def.type = BodyType::Kinematic;
  def.shape = boxHull(Vec3(2.0));
  def.isSensor = true;
  const BodyId s = *w.createBody(def);
  const BodyId a = addBox(w, Vec3(0.0, 0.0, 0.0));
  const BodyId b = addBox(w, Vec3(1.0, 0.0, 0.0));
  stepN(w, 1);
  REQUIRE(w.sensorEvents().begin.size() == 2);
  CHECK(w.sensorEvents().begin[0].sensor == s);
  CHECK(w.sensorEvents().begin[0].visitor == a);
  CHECK(w.sensorEvents().begin[1].visitor == b);
  w.destroyBody(a);
  stepN(w, 1);
  REQUIRE(w.sensorEvents().end.size() == 1);
  CHECK(w.sensorEvents().end[0].visitor == a);
  CHECK(w.sensorEvents().begin.empty());
  w.destroyBody(s);
  stepN(w, 1);
  REQUIRE(w.sensorEvents().end.size() == 1);
  CHECK(w.sensorEvents().end[0].visitor == b);
  CHECK(w.sensorOverlaps().empty());
}

TEST_CASE("the filter matrix: bodies touch iff both bit tests pass, groups override") {
  struct Case {
    BodyFilter a, b;
  };
  const uint64_t all = ~uint64_t{0};
  const Case cases[] = {
      {{1, all, 0}, {1, all, 0}},   {{1, 2, 0}, {1, all, 0}},    {{1, all, 0}, {2, 2, 0}},
      {{2, 1, 0}, {1, 2, 0}},       {{2, 4, 0}, {1, 2, 0}},      {{1, 0, 3}, {1, 0, 3}},
      {{1, all, -3}, {1, all, -3}}, {{1, all, -3}, {1, all, 3}}, {{1, 0, -2}, {1, 0, -3}},
      {{4, 8, 0}, {8, 4, 0}},       {{1, all, 5}, {2, 1, 0}},
  };
  int touched = 0, apart = 0;
  for (const Case& c : cases) {
    World w;
    BodyDef ground;
    ground.type = BodyType::Static;
    ground.shape = boxHull(Vec3(5.0, 0.5, 5.0));
    ground.position = Vec3(0.0, -0.5, 0.0);
    ground.filter = c.a;
    REQUIRE(w.createBody(ground));
    BodyDef box;
    box.shape = boxHull(Vec3(0.5));
    box.position = Vec3(0.0, 1.0, 0.0);
    box.filter = c.b;
    const BodyId id = *w.createBody(box);
    Log log;
    stepN(w, 90, &log);
    const bool rule = ruleSaysCollide(c.a, c.b);
    INFO("a {" << c.a.category << ", " << c.a.mask << ", " << c.a.group << "} b {" << c.b.category
               << ", " << c.b.mask << ", " << c.b.group << "}");
    CHECK((log.begins == 1) == rule);
    CHECK((w.body(id)->position.y > 0.4) == rule);  // resting on it, or fallen through
    (rule ? touched : apart)++;
  }
  CHECK(touched >= 4);
  CHECK(apart >= 4);
}

TEST_CASE("a heap with random filters makes no manifold against the rule") {
  std::mt19937_64 rng(16);
  World w;
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = boxHull(Vec3(10.0, 0.5, 10.0));
  ground.position = Vec3(0.0, -0.5, 0.0);
  REQUIRE(w.createBody(ground));
  std::uniform_int_distribution<int> bit(0, 3), group(-2, 2);
  for (int i = 0; i < 200; ++i) {
    BodyDef def;
    def.shape = boxHull(Vec3(0.3));
    def.position = Vec3(-2.0 + (i % 5) * 0.9, 0.5 + 0.7 * (i / 25), -2.0 + ((i / 5) % 5) * 0.9);
    def.filter.category = uint64_t{1} << bit(rng);
    def.filter.mask = (uint64_t{1} << bit(rng)) | (uint64_t{1} << bit(rng)) | 1;  // ground: bit 0
    def.filter.group = group(rng) * (i % 2);  // half have a group
    REQUIRE(w.createBody(def));
  }
  int manifolds = 0, rejectedOverlaps = 0;
  for (int step = 0; step < 240; ++step) {
    stepN(w, 1);
    for (const Manifold& m : w.manifolds()) {
      ++manifolds;
      const bool rule = ruleSaysCollide(w.body(m.a)->filter, w.body(m.b)->filter);
      if (!rule) FAIL("manifold between bodies " << m.a.index << " and " << m.b.index);
    }
    for (const BodyId id : w.bodyIds()) {
      const BodyView b = *w.body(id);
      if (!b.isDynamic() || step % 30 != 29) continue;
      for (const BodyId other : w.overlapShape(b.shape, b.transform()))
        if (other.index > id.index && !ruleSaysCollide(b.filter, w.body(other)->filter))
          ++rejectedOverlaps;
    }
  }
  CHECK(manifolds > 10000);      // plenty of contacts the rule allows
  CHECK(rejectedOverlaps > 20);  // and bodies passing through others the rule keeps apart
}

TEST_CASE("setFilter drops a resting pair (end event) and the contact filter is asked in order") {
  World w;
  const BodyId ground = addGround(w);
  const BodyId a = addBox(w, Vec3(-2.0, 0.49, 0.0));
  const BodyId b = addBox(w, Vec3(2.0, 0.49, 0.0));
  Log log;
  stepN(w, 60, &log);
  REQUIRE(log.begins == 2);
  std::vector<std::pair<int, int>> asked;
  w.setContactFilter([&](BodyId x, BodyId y) {
    asked.emplace_back(x.index, y.index);
    return y != b;
  });  // kept to the end: b falls through
  w.wake(b);
  stepN(w, 1, &log);
  CHECK(std::is_sorted(asked.begin(), asked.end()));
  CHECK(asked.size() == 2);
  REQUIRE(w.contactEvents().end.size() == 1);
  CHECK(w.contactEvents().end[0].b == b);
  asked.clear();
  BodyFilter none;
  none.mask = 0;
  w.setFilter(a, none);  // wakes a; its ground pair ends next step
  stepN(w, 1, &log);
  REQUIRE(w.contactEvents().end.size() == 1);
  CHECK(w.contactEvents().end[0].a == ground);
  CHECK(w.contactEvents().end[0].b == a);
  stepN(w, 60, &log);
  CHECK(w.body(a)->position.y < -1.0);
  CHECK(w.body(b)->position.y < -1.0);
}

// The broad phase keeps no pair that the bodies' filters reject (it never asks the narrow phase
// about them), so a filter that now accepts a pair must have it found although neither body moves.
TEST_CASE("setFilter makes a pair that the old filter kept out of the broad phase") {
  World w;
  editSettings(w, [](Settings& s) { s.gravity = Vec3(0.0); });
  BodyFilter none;
  none.mask = 0;
  const BodyId a = addBox(w, Vec3(0.0, 0.0, 0.0));
  w.setFilter(a, none);
  const BodyId b = addBox(w, Vec3(0.8, 0.0, 0.0));  // 0.2 m into a
  stepN(w, 120);  // a second: both asleep, still overlapping, no pair
  REQUIRE(w.manifolds().empty());
  REQUIRE_FALSE(w.body(a)->awake);
  REQUIRE_FALSE(w.body(b)->awake);
  REQUIRE_THAT(w.body(b)->position.x - w.body(a)->position.x, WithinAbs(0.8, 1e-12));
  w.setFilter(a, BodyFilter{});
  CHECK(w.body(b)->awake);  // its partner's new filter wakes it
  stepN(w, 1);
  CHECK(w.manifolds().size() == 1);
  stepN(w, 120);
  // Pushed apart to touching, momentum kept.
  CHECK(w.body(b)->position.x - w.body(a)->position.x > 0.99);
  CHECK_THAT(w.body(a)->linearVelocity.x + w.body(b)->linearVelocity.x, WithinAbs(0.0, 1e-9));
}

TEST_CASE("a hit event reports the analytic impact speed sqrt(2 g h)") {
  for (const Real h : {0.5, 3.0, 8.0}) {
    World w;
    const BodyId ground = addGround(w);
    BodyDef def;
    def.shape = *makeSphere(0.25);
    def.position = Vec3(0.0, 0.25 + h, 0.0);
    def.hitEventSpeed = 0.5;
    const BodyId ball = *w.createBody(def);
    std::vector<ContactHitEvent> hits;
    for (int i = 0; i < 240; ++i) {
      stepN(w, 1);
      for (const ContactHitEvent& e : w.contactEvents().hit) hits.push_back(e);
    }
    INFO("h = " << h);
    REQUIRE(hits.size() == 1);  // the impact; resting is not a hit
    // The speed is the ball's at the start of the step whose speculative contact stops it (the gap
    // within a step's travel plus the 2 cm margin): it lags by up to two steps of gravity.
    const Real g = -w.settings().gravity.y, dt = w.settings().dt;
    const Real v = std::sqrt(2.0 * g * h);
    CHECK_THAT(hits[0].approachSpeed, WithinAbs(v, 2.0 * g * dt));
    if (h > 2.0) CHECK_THAT(hits[0].approachSpeed, WithinRel(v, 0.03));
    CHECK(hits[0].a == ground);
    CHECK(hits[0].b == ball);
    CHECK_THAT(hits[0].normal.y, WithinAbs(1.0, 1e-9));
    // Found speculatively: up to a step's travel above the ground, midway.
    CHECK_THAT(hits[0].point.y, WithinAbs(0.0, 0.5 * v * dt + 0.01));
  }
  // Above the threshold only: a 0.5 m drop (3.1 m/s) against a threshold of 4 m/s.
  World w;
  addGround(w);
  BodyDef def;
  def.shape = *makeSphere(0.25);
  def.position = Vec3(0.0, 0.75, 0.0);
  def.hitEventSpeed = 4.0;
  REQUIRE(w.createBody(def));
  Log log;
  stepN(w, 120, &log);
  CHECK(log.hits == 0);
  CHECK(log.begins == 1);
}

// Box2D's order: a pair's hit comes with or after its begin, never before. A speculative contact
// that stops a falling body within the step pushes (a hit) a step before the narrow phase first
// measures its points at separation <= 0: its begin then comes with the hit, as the pair's first
// touch, and the next step's measurement keeps it (no second begin).
TEST_CASE("a hit never comes before its pair's begin") {
  World w;
  addGround(w);
  std::vector<BodyId> bodies;
  for (int i = 0; i < 12; ++i) {
    BodyDef def;
    def.shape = i % 3 == 0 ? *makeSphere(0.25) : boxHull(Vec3(0.25));
    def.position = Vec3(1.2 * (i % 4), 0.5 + 0.7 * i, 1.2 * (i / 4));
    def.orientation = glm::normalize(Quat(1.0, 0.1 * i, 0.0, 0.05 * i));
    def.hitEventSpeed = 0.5;
    bodies.push_back(*w.createBody(def));
  }
  std::map<std::pair<int, int>, int> touching;  // pair -> begins less ends so far
  int hits = 0, begins = 0;
  for (int step = 0; step < 300; ++step) {
    stepN(w, 1);
    const ContactEvents& c = w.contactEvents();
    REQUIRE(std::is_sorted(c.begin.begin(), c.begin.end(), [](const auto& x, const auto& y) {
      return std::pair(x.a.index, x.b.index) < std::pair(y.a.index, y.b.index);
    }));
    for (const auto& e : c.begin) ++touching[{e.a.index, e.b.index}], ++begins;
    for (const auto& e : c.hit) {
      INFO("step " << step << ": hit of " << e.a.index << " and " << e.b.index << " at "
                   << e.approachSpeed << " m/s");
      CHECK(touching[{e.a.index, e.b.index}] == 1);
      ++hits;
    }
    for (const auto& e : c.end) --touching[{e.a.index, e.b.index}];
    for (const auto& [pair, n] : touching) {
      INFO("step " << step << ": pair " << pair.first << ", " << pair.second);
      REQUIRE((n == 0 || n == 1));  // one begin per episode, then one end
    }
  }
  CHECK(hits >= 12);  // every body lands faster than 0.5 m/s
  CHECK(begins >= 12);
}

TEST_CASE("events are the same in two runs") {
  auto run = [] {
    World w;
    addGround(w);
    BodyDef sensor;
    sensor.type = BodyType::Static;
    sensor.shape = boxHull(Vec3(1.0, 0.5, 1.0));
    sensor.position = Vec3(0.0, 0.5, 0.0);
    sensor.isSensor = true;
    REQUIRE(w.createBody(sensor));
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<Real> u(-1.5, 1.5);
    for (int i = 0; i < 80; ++i) {
      BodyDef def;
      def.shape = i % 2 ? boxHull(Vec3(0.25)) : *makeSphere(0.25);
      def.position = Vec3(u(rng), 1.0 + 0.3 * i, u(rng));
      def.hitEventSpeed = 1.0;
      REQUIRE(w.createBody(def));
    }
    std::vector<Real> trace;
    for (int i = 0; i < 300; ++i) {
      stepN(w, 1);
      const ContactEvents& c = w.contactEvents();
      for (const auto& e : c.begin)
        trace.insert(trace.end(),
                     {1.0 * e.a.index, 1.0 * e.b.index, e.point.x, e.point.y, e.normal.z});
      for (const auto& e : c.end) trace.insert(trace.end(), {2.0 * e.a.index, 2.0 * e.b.index});
      for (const auto& e : c.hit) trace.insert(trace.end(), {e.approachSpeed, e.point.z});
      for (const auto& e : w.sensorEvents().begin) trace.push_back(3.0 * e.visitor.index);
      for (const auto& e : w.sensorEvents().end) trace.push_back(4.0 * e.visitor.index);
    }
    return trace;
  };
  const std::vector<Real> first = run(), second = run();
  REQUIRE(first.size() > 300);
  REQUIRE(first.size() == second.size());
  CHECK(std::memcmp(first.data(), second.data(), first.size() * sizeof(Real)) == 0);
}

TEST_CASE("scene keys sensor, hit_event_speed and filter reach the bodies") {
  const auto scene = parseScene(
      R"({"bodies": [{"shape": "box", "sensor": true, "hit_event_speed": 2.5,
                      "filter": {"category": [3, 63], "mask": [0], "group": -4}},
                     {"shape": "box", "position": [0, 3, 0]}]})",
      "test.json", std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "shapes");
  REQUIRE(scene);
  REQUIRE(scene->bodies.size() == 2);
  const BodyDef& a = scene->bodies[0];
  CHECK(a.isSensor);
  CHECK(a.hitEventSpeed == 2.5);
  CHECK(a.filter.category == ((uint64_t{1} << 3) | (uint64_t{1} << 63)));
  CHECK(a.filter.mask == 1);
  CHECK(a.filter.group == -4);
  const BodyDef& b = scene->bodies[1];
  CHECK_FALSE(b.isSensor);
  CHECK(std::isinf(b.hitEventSpeed));
  CHECK(b.filter == BodyFilter{});
  auto world = buildWorld(*scene);
  REQUIRE(world);
  CHECK((*world)->body((*world)->idAt(0))->isSensor);
  CHECK((*world)->body((*world)->idAt(0))->hitEventSpeed == 2.5);
  BodyDef bad = b;
  bad.hitEventSpeed = -1.0;
  CHECK_FALSE((*world)->createBody(bad));
  bad.hitEventSpeed = std::numeric_limits<Real>::quiet_NaN();
  CHECK_FALSE((*world)->createBody(bad));
}

TEST_CASE("a sensor tests a compound child by child, not by its box") {
  World w;
  Settings s = w.settings();
  s.gravity = Vec3(0.0);
  REQUIRE(w.setSettings(s));
  BodyDef sensor;
  sensor.type = BodyType::Static;
  sensor.shape = *makeSphere(0.5);
  sensor.isSensor = true;
  REQUIRE(w.createBody(sensor));
  // A dumbbell of two balls 3 m apart: its box holds the sensor when centred on it, its balls
  // do not touch it.
  const CompoundChild children[] = {
      {*makeSphere(0.4), Transform{Vec3(-1.5, 0.0, 0.0), Quat(1, 0, 0, 0)}},
      {*makeSphere(0.4), Transform{Vec3(1.5, 0.0, 0.0), Quat(1, 0, 0, 0)}}};
  BodyDef def;
  def.shape = *makeCompound(children);
  def.position = Vec3(0.0, 0.3, 0.0);
  const BodyId bell = *w.createBody(def);
  stepN(w, 3);
  CHECK(w.sensorOverlaps().empty());
  // A ball 0.85 m from the sensor's centre overlaps it (radii 0.4 + 0.5).
  w.setTransform(bell, Transform{Vec3(1.5 - 0.85, 0.0, 0.0), Quat(1, 0, 0, 0)});
  stepN(w, 1);
  REQUIRE(w.sensorEvents().begin.size() == 1);
  CHECK(w.sensorEvents().begin[0].visitor == bell);
  w.setTransform(bell, Transform{Vec3(1.5 - 0.95, 0.0, 0.0), Quat(1, 0, 0, 0)});
  stepN(w, 1);
  CHECK(w.sensorEvents().end.size() == 1);
}
