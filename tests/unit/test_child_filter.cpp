// Filters and sensors per compound child (issue 16: "a body (or compound child) flagged as a
// sensor", "category and mask bits per body (or child)"): the child filter matrix against a brute
// force over every child pair with collide(), a sensor child counting the bodies it sweeps
// through while pushing none of them, queries skipping filtered and sensor children, the scene
// keys and their errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "tumble/collide.h"
#include "tumble/scene.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

// The rule written out again (not shouldCollide): groups first, then both bit tests.
bool ruleSaysCollide(const BodyFilter& a, const BodyFilter& b) {
  if (a.group != 0 && a.group == b.group) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

const Quat kIdentity(1.0, 0.0, 0.0, 0.0);

CompoundChild child(const Vec3& half, const Vec3& at) {
  return {*makeBox(half), Transform{at, kIdentity}};
}

}  // namespace

TEST_CASE("child filters: contacts exist exactly for the child pairs the rule allows") {
  // Two crossed combs of four bars: A's along z at x = -1.5 .. 1.5, B's along x at z = -1.5 ..
  // 1.5, B resting 0.05 m into A, so that every child of A meets every child of B. Random
  // filters (some children with their own, some sensors) over 40 seeds; the world's manifolds
  // between A and B must be exactly the child pairs where collide() finds points, neither child
  // is a sensor and the rule passes on their filters (a child's own, else its body's).
  std::mt19937_64 rng(1616);
  std::uniform_int_distribution<int> bit(0, 3), group(-2, 2), coin(0, 3);
  auto randomFilter = [&] {
    BodyFilter f;
    f.category = uint64_t{1} << bit(rng);
    f.mask = (uint64_t{1} << bit(rng)) | (uint64_t{1} << bit(rng));
    f.group = coin(rng) == 0 ? group(rng) : 0;
    return f;
  };
  int allowed = 0, rejected = 0, sensorPairs = 0;
  for (int seed = 0; seed < 40; ++seed) {
    World w;
    Settings s = w.settings();
    s.gravity = Vec3(0.0);
    REQUIRE(w.setSettings(s));
    std::vector<CompoundChild> barsA, barsB;
    for (int k = 0; k < 4; ++k) {
      const Real at = -1.5 + k;
      barsA.push_back(child(Vec3(0.2, 0.2, 2.0), Vec3(at, 0.0, 0.0)));
      barsB.push_back(child(Vec3(2.0, 0.2, 0.2), Vec3(0.0, 0.0, at)));
    }
    for (auto* bars : {&barsA, &barsB})
      for (CompoundChild& c : *bars) {
        const int kind = coin(rng);  // 0: inherits, 1-2: own filter, 3: sensor
        if (kind == 1 || kind == 2) c.filter = randomFilter();
        c.isSensor = kind == 3;
      }
    BodyDef a;
    a.type = BodyType::Static;
    a.shape = *makeCompound(barsA);
    a.filter = randomFilter();
    const BodyId idA = *w.createBody(a);
    BodyDef b;
    b.shape = *makeCompound(barsB);
    b.position = Vec3(0.0, 0.35, 0.0);
    b.filter = randomFilter();
    const BodyId idB = *w.createBody(b);
    REQUIRE(w.step(w.settings().dt));

    std::set<uint64_t> found;
    for (const Manifold& m : w.manifolds()) {
      REQUIRE((m.a == idA && m.b == idB));
      found.insert(m.key);
    }
    // The brute force: every child pair, posed as the bodies are now.
    const Transform xa = w.body(idA)->transform(), xb = w.body(idB)->transform();
    std::set<uint64_t> expected;
    int geometric = 0;
    for (uint32_t i = 0; i < 4; ++i)
      for (uint32_t j = 0; j < 4; ++j) {
        const CompoundChild& ca = barsA[i];
        const CompoundChild& cb = barsB[j];
        const CollideResult r = collide(ca.shape, compose(xa, ca.local), cb.shape,
                                        compose(xb, cb.local), 0.0, w.settings());
        if (r.pointCount == 0) continue;
        ++geometric;
        if (ca.isSensor || cb.isSensor) {
          ++sensorPairs;
          continue;
        }
        const bool rule =
            ruleSaysCollide(ca.filter.value_or(a.filter), cb.filter.value_or(b.filter));
        (rule ? allowed : rejected)++;
        if (rule) expected.insert(uint64_t{i} << 32 | j);
      }
    INFO("seed " << seed);
    CHECK(geometric == 16);  // every pair meets: the filters alone decide
    CHECK(found == expected);
    // Touching (begin event) iff one pair is allowed.
    CHECK(w.contactEvents().begin.size() == (expected.empty() ? 0u : 1u));
  }
  // A representative mix: pairs allowed, rejected by the bits or groups, and sensor pairs.
  CHECK(allowed > 60);
  CHECK(rejected > 60);
  CHECK(sensorPairs > 60);
}

TEST_CASE("collideChildren with the bodies' filters keeps only the allowed child pairs") {
  // The free function without a World: a sensor child and a child whose own mask rejects the
  // other body's category give nothing; the others as without filters.
  std::vector<CompoundChild> parts = {child(Vec3(0.5), Vec3(-1.0, 0.0, 0.0)),
                                      child(Vec3(0.5), Vec3(0.0, 0.0, 0.0)),
                                      child(Vec3(0.5), Vec3(1.0, 0.0, 0.0))};
  parts[0].isSensor = true;
  parts[2].filter = BodyFilter{1, 2, 0};  // accepts category bit 1 only
  const Shape compound = *makeCompound(parts);
  const Shape slab = *makeBox(Vec3(3.0, 0.5, 3.0));
  const Transform xc{Vec3(0.0, 0.95, 0.0), kIdentity}, xs{Vec3(0.0), kIdentity};
  std::vector<ChildContact> all, filtered;
  collideChildren(compound, xc, slab, xs, 0.0, Settings{}, all);
  const ChildFilters filters{BodyFilter{}, BodyFilter{}};  // both category bit 0
  collideChildren(compound, xc, slab, xs, 0.0, Settings{}, filtered, &filters);
  REQUIRE(all.size() == 3);
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0].key == all[1].key);
  CHECK(filtered[0].key == (uint64_t{1} << 32));
  // The slab in category bit 1: child 2 accepts it now.
  const ChildFilters bit1{BodyFilter{}, BodyFilter{2, ~uint64_t{0}, 0}};
  filtered.clear();
  collideChildren(compound, xc, slab, xs, 0.0, Settings{}, filtered, &bit1);
  REQUIRE(filtered.size() == 2);
  CHECK(filtered[1].key == (uint64_t{2} << 32));
}

TEST_CASE("a sensor child counts each body it falls through once and pushes none of them") {
  // A compound: a solid 1.4 x 1 x 1.4 m box at the bottom and a 3 x 0.5 x 3 m sensor slab 1 m
  // above its centre. It falls from 7 m through 12 floating boxes (gravity scale 0) around the
  // solid box's column, and rests on the ground on its solid child.
  World w;
  addGround(w);
  const std::vector<CompoundChild> parts = [] {
    std::vector<CompoundChild> p = {child(Vec3(0.7, 0.5, 0.7), Vec3(0.0)),
                                    child(Vec3(1.5, 0.25, 1.5), Vec3(0.0, 1.0, 0.0))};
    p[1].isSensor = true;
    return p;
  }();
  BodyDef def;
  def.shape = *makeCompound(parts);
  def.position = Vec3(0.0, 7.0, 0.0);
  const BodyId basket = *w.createBody(def);
  std::vector<BodyId> floating;
  for (int i = 0; i < 12; ++i) {
    BodyDef f;
    f.shape = boxHull(Vec3(0.2));
    const Real angle = i * 0.5235987755982988;  // 30 degrees apart, 1.25 m out
    f.position = Vec3(1.25 * std::cos(angle), 2.5 + 0.3 * i, 1.25 * std::sin(angle));
    f.gravityScale = 0.0;
    floating.push_back(*w.createBody(f));
  }
  std::map<int, int> begins, ends;
  int manifoldsWithFloating = 0;
  for (int step = 0; step < 300; ++step) {
    REQUIRE(w.step(w.settings().dt));
    for (const SensorEvent& e : w.sensorEvents().begin) {
      CHECK(e.sensor == basket);
      CHECK(e.sensorChild == 1);
      ++begins[e.visitor.index];
    }
    for (const SensorEvent& e : w.sensorEvents().end) {
      CHECK(e.sensorChild == 1);
      ++ends[e.visitor.index];
    }
    // 0 ground, 1 basket: no manifold of its sensor child (key: A's child << 32), and nothing
    // touching a floating box (the solid child passes 0.18 m from them).
    for (const Manifold& m : w.manifolds())
      if (m.a == basket && ((m.key >> 32) == 1 || (m.b.index > 1 && m.touching())))
        ++manifoldsWithFloating;
  }
  CHECK(manifoldsWithFloating == 0);
  REQUIRE(begins.size() == floating.size());
  REQUIRE(ends.size() == floating.size());
  for (const BodyId id : floating) {
    CHECK(begins[id.index] == 1);
    CHECK(ends[id.index] == 1);
    const BodyView v = *w.body(id);
    CHECK(glm::length(v.linearVelocity) == 0.0);  // not pushed: exactly at rest
    CHECK(glm::length(v.angularVelocity) == 0.0);
  }
  // Resting on its solid child: the box's centre 0.5 m up, upright.
  const BodyView b = *w.body(basket);
  INFO("v " << b.linearVelocity.x << " " << b.linearVelocity.y << " " << b.linearVelocity.z << " w "
            << b.angularVelocity.x << " " << b.angularVelocity.y << " " << b.angularVelocity.z
            << " q " << b.rotation.w << " " << b.rotation.x << " " << b.rotation.y << " "
            << b.rotation.z);
  CHECK_THAT(b.position.y, WithinAbs(0.5, 0.02));
  CHECK(glm::length(b.linearVelocity) < 0.05);
  CHECK(w.sensorOverlaps().empty());
  REQUIRE(w.manifolds().size() == 1);  // the solid child on the ground
  CHECK(w.manifolds()[0].key == 0);
  CHECK(w.manifolds()[0].b == basket);
}

TEST_CASE("queries skip sensor children and children their filter rejects") {
  // Three 1 m boxes in a row along x: child 0 in category bit 3, child 1 with the body's filter,
  // child 2 a sensor.
  World w;
  std::vector<CompoundChild> parts = {child(Vec3(0.5), Vec3(-2.0, 0.0, 0.0)),
                                      child(Vec3(0.5), Vec3(0.0, 0.0, 0.0)),
                                      child(Vec3(0.5), Vec3(2.0, 0.0, 0.0))};
  parts[0].filter = BodyFilter{uint64_t{1} << 3, ~uint64_t{0}, 0};
  parts[2].isSensor = true;
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = *makeCompound(parts);
  const BodyId id = *w.createBody(def);
  QueryFilter notBit3;
  notBit3.mask = ~(uint64_t{1} << 3);
  QueryFilter onlyBit3;
  onlyBit3.mask = uint64_t{1} << 3;
  const Vec3 down(0.0, -4.0, 0.0);
  auto rayAt = [&](Real x, const QueryFilter& f) {
    return w.castRayClosest(Vec3(x, 2.0, 0.0), down, f);
  };
  // Rays straight down onto each child.
  REQUIRE(rayAt(-2.0, {}));
  CHECK(rayAt(-2.0, {})->child == 0);
  CHECK_THAT(rayAt(-2.0, {})->fraction, WithinAbs(0.375, 1e-12));
  CHECK_FALSE(rayAt(-2.0, notBit3));
  CHECK(rayAt(0.0, notBit3)->child == 1);
  CHECK_FALSE(rayAt(0.0, onlyBit3));  // the body's filter is category bit 0
  CHECK(rayAt(-2.0, onlyBit3)->child == 0);
  CHECK_FALSE(rayAt(2.0, {}));  // the sensor child is not hit
  CHECK_FALSE(w.castRayAny(Vec3(2.0, 2.0, 0.0), down));
  CHECK(w.castRayAll(Vec3(2.0, 2.0, 0.0), down).empty());
  // A ray along the row from the sensor's side meets child 1 first, or child 0 with onlyBit3.
  const Vec3 from(4.0, 0.0, 0.0), along(-8.0, 0.0, 0.0);
  CHECK(w.castRayClosest(from, along)->child == 1);
  CHECK(w.castRayClosest(from, along, onlyBit3)->child == 0);
  CHECK(w.castRayAll(from, along, notBit3).size() == 1);

  // Overlaps: a small sphere in each child.
  const std::vector<BodyId> just{id};
  CHECK(w.overlapSphere(Vec3(-2.0, 0.0, 0.0), 0.1) == just);
  CHECK(w.overlapSphere(Vec3(-2.0, 0.0, 0.0), 0.1, notBit3).empty());
  CHECK(w.overlapSphere(Vec3(0.0, 0.0, 0.0), 0.1, notBit3) == just);
  CHECK(w.overlapSphere(Vec3(2.0, 0.0, 0.0), 0.1).empty());
  const Aabb inSensor{Vec3(1.8, -0.1, -0.1), Vec3(2.2, 0.1, 0.1)};
  CHECK(w.overlapAabb(inSensor).empty());
  CHECK(w.overlapAabb(Aabb{Vec3(-2.2, -0.1, -0.1), Vec3(-1.8, 0.1, 0.1)}, notBit3).empty());
  CHECK(w.overlapAabb(Aabb{Vec3(-2.2, -0.1, -0.1), Vec3(-1.8, 0.1, 0.1)}) == just);

  // A shape cast down over the sensor child passes through; over child 0 it stops 0.5 m down
  // (the 0.25 m ball from 1.25 m above the top face at 0.5 m) unless filtered.
  const Shape ball = *makeSphere(0.25);
  CHECK_FALSE(w.castShape(ball, Transform{Vec3(2.0, 1.25, 0.0), kIdentity}, down));
  const auto hit = w.castShape(ball, Transform{Vec3(-2.0, 1.25, 0.0), kIdentity}, down);
  REQUIRE(hit);
  CHECK(hit->child == 0);
  CHECK_THAT(hit->fraction, WithinAbs(0.125, 1e-9));
  CHECK_FALSE(w.castShape(ball, Transform{Vec3(-2.0, 1.25, 0.0), kIdentity}, down, notBit3));
}

TEST_CASE("a compound whose children are all sensors makes no contacts and is no query target") {
  World w;
  addGround(w);
  std::vector<CompoundChild> parts = {child(Vec3(0.5), Vec3(-0.6, 0.0, 0.0)),
                                      child(Vec3(0.5), Vec3(0.6, 0.0, 0.0))};
  parts[0].isSensor = parts[1].isSensor = true;
  BodyDef def;
  def.shape = *makeCompound(parts);
  def.position = Vec3(0.0, 2.0, 0.0);
  const BodyId id = *w.createBody(def);
  addBox(w, Vec3(0.6, 0.5, 0.0));
  // Rays and overlaps through it meet only what is below.
  const auto hits = w.castRayAll(Vec3(-0.6, 10.0, 0.0), Vec3(0.0, -30.0, 0.0));
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].body.index == 0);
  CHECK(w.overlapSphere(Vec3(0.6, 2.0, 0.0), 0.2).empty());
  for (int i = 0; i < 120; ++i) {
    REQUIRE(w.step(w.settings().dt));
    for (const Manifold& m : w.manifolds()) CHECK((m.a != id && m.b != id));
  }
  CHECK(w.body(id)->position.y < -5.0);  // fell through the box and the ground
}

TEST_CASE("scene keys sensor and filter on a compound child reach the child, errors name it") {
  const std::filesystem::path shapes =
      std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "shapes";
  auto scene = parseScene(R"({"bodies": [{"shape": {"compound": [
      {"shape": "box", "position": [0, 0, 0]},
      {"shape": "box", "position": [0, 1, 0], "sensor": true},
      {"shape": "box", "position": [0, 2, 0], "filter": {"category": [3], "mask": [0, 5], "group": -2}}
    ]}, "filter": {"category": [1]}}]})",
                          "test.json", shapes);
  REQUIRE(scene);
  const BodyDef& b = scene->bodies.at(0);
  const Compound* c = b.shape.compound();
  REQUIRE(c);
  CHECK_FALSE(c->children[0].isSensor);
  CHECK_FALSE(c->children[0].filter);
  CHECK(c->children[1].isSensor);
  REQUIRE(c->children[2].filter);
  CHECK(*c->children[2].filter == BodyFilter{uint64_t{1} << 3, (uint64_t{1} << 5) | 1, -2});
  CHECK(b.filter.category == 2);
  CHECK(c->anySensor);
  CHECK(c->anyFilter);

  const std::pair<const char*, const char*> bad[] = {
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "sensor": 1}]}}]})",
       "bodies[0].shape.compound[0].sensor: expected true or false, got a number"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box"}, {"shape": "box", "filter": {"mask": [64]}}]}}]})",
       "bodies[0].shape.compound[1].filter.mask[0]: value 64 out of range [0, 63]"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "filter": {"groups": 1}}]}}]})",
       "bodies[0].shape.compound[0].filter.groups: unknown key"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "filter": [0]}]}}]})",
       "bodies[0].shape.compound[0].filter: expected an object"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    auto s = parseScene(text, "test.json", shapes);
    REQUIRE_FALSE(s);
    CHECK_THAT(s.error(), Contains(message));
  }
}

TEST_CASE("a bullet passes a sensor child and stops on the solid child behind it") {
  // A static compound: a 0.2 m thick sensor wall at x = 0 and a solid one at x = 3. A 0.1 m
  // bullet sphere at 300 m/s (5 m a step) from x = -4: the continuous sweep must not stop it at
  // the sensor wall, and it must not tunnel through the solid one.
  World w;
  Settings s = w.settings();
  s.gravity = Vec3(0.0);
  REQUIRE(w.setSettings(s));
  std::vector<CompoundChild> walls = {child(Vec3(0.1, 2.0, 2.0), Vec3(0.0)),
                                      child(Vec3(0.1, 2.0, 2.0), Vec3(3.0, 0.0, 0.0))};
  walls[0].isSensor = true;
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = *makeCompound(walls);
  const BodyId wall = *w.createBody(def);
  BodyDef b;
  b.shape = *makeSphere(0.1);
  b.position = Vec3(-4.0, 0.0, 0.0);
  b.linearVelocity = Vec3(300.0, 0.0, 0.0);
  b.bullet = true;
  const BodyId bullet = *w.createBody(b);
  REQUIRE(w.step(w.settings().dt));
  // The whole 5 m of the first step: through the sensor wall, short of the solid one.
  CHECK_THAT(w.body(bullet)->position.x, WithinAbs(1.0, 1e-9));
  Real maxX = -1e9;
  for (int i = 0; i < 30; ++i) {
    REQUIRE(w.step(w.settings().dt));
    maxX = std::max(maxX, w.body(bullet)->position.x);
  }
  CHECK(maxX < 2.9 + 1e-6);  // never through the solid wall's face at x = 2.9
  CHECK(w.body(bullet)->position.x > 2.0);
  bool touchedSolid = false;
  for (const Manifold& m : w.manifolds())
    touchedSolid = touchedSolid || (m.a == wall && m.b == bullet && (m.key >> 32) == 1);
  CHECK(touchedSolid);
}
