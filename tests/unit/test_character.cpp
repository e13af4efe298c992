// The character mover (issue 16): steps, slopes, platforms, no tunnelling, sliding, pushing.
#include <catch2/catch.hpp>

#include <cmath>

#include "tumble/character.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;

namespace {

constexpr Real kDt = 1.0 / 60.0;
constexpr Real kGravity = 9.81;
constexpr Real kDeg = 3.14159265358979323846 / 180.0;

BodyId addStatic(World& w, const Vec3& pos, const Vec3& half, const Quat& q = Quat(1, 0, 0, 0)) {
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = boxHull(half);
  def.position = pos;
  def.orientation = q;
  return *w.createBody(def);
}

// A game's loop around the mover: gravity while not on the ground, the walk velocity horizontal.
struct Walker {
  Character c;
  Real vy = 0.0;
  void frame(World& w, const Vec3& walk, Real dt = kDt) {
    REQUIRE(w.step(dt));
    vy = c.onGround() ? 0.0 : vy - kGravity * dt;
    REQUIRE(c.update(w, Vec3(walk.x, vy, walk.z), dt));
  }
};

Walker makeWalker(const Vec3& foot, const CharacterSettings& s = {}) {
  const Vec3 centre = foot + Vec3(0.0, s.radius + s.halfHeight + s.skin, 0.0);
  return Walker{*Character::create(s, centre)};
}

// A static ramp rising towards +x at `angle` whose surface meets the ground (y = 0) at x = x0.
void addRamp(World& w, Real angle, Real x0) {
  const Quat q = glm::angleAxis(angle, Vec3(0, 0, 1));
  const Real half = 6.0;
  const Vec3 surfacePoint(-half + 1.0, 0.5, 0.0);  // 1 m of the ramp below the ground
  addStatic(w, Vec3(x0, 0.0, 0.0) - q * surfacePoint, Vec3(half, 0.5, 3.0), q);
}

}  // namespace

TEST_CASE("character settings are validated by field", "[character]") {
  CharacterSettings s;
  s.maxSlopeAngle = 2.0;
  auto c = Character::create(s, Vec3(0.0));
  REQUIRE_FALSE(c);
  CHECK_THAT(c.error(), Catch::Contains("maxSlopeAngle"));
  s = {};
  s.skin = s.radius;
  CHECK_THAT(Character::create(s, Vec3(0.0)).error(), Catch::Contains("skin"));
  s = {};
  REQUIRE(Character::create(s, Vec3(0.0)));
  CHECK_FALSE(Character::create(s, Vec3(0.0, std::nan(""), 0.0)));
  World w{Settings{}};
  Character ok = *Character::create(s, Vec3(0.0, 5.0, 0.0));
  CHECK_FALSE(ok.update(w, Vec3(1.0), 0.0));
  CHECK_FALSE(ok.update(w, Vec3(INFINITY, 0.0, 0.0), kDt));
  CHECK(ok.position() == Vec3(0.0, 5.0, 0.0));
}

TEST_CASE("the character climbs a step up to its step height and not a higher one", "[character]") {
  CharacterSettings s;
  s.stepHeight = 0.35;
  for (const Real height : {0.3, 0.5}) {
    CAPTURE(height);
    World w{Settings{}};
    addGround(w);
    addStatic(w, Vec3(5.0, 0.5 * height, 0.0), Vec3(4.0, 0.5 * height, 2.0));  // face at x = 1
    Walker walker = makeWalker(Vec3(0.0), s);
    for (int i = 0; i < 180; ++i) walker.frame(w, Vec3(2.0, 0.0, 0.0));
    const Vec3 foot = walker.c.footPosition();
    CHECK(walker.c.onGround());
    if (height < s.stepHeight) {
      CHECK(foot.x > 3.0);     // well onto the step
      CHECK(foot.y > height);  // standing on it, within the skin
      CHECK(foot.y <= height + s.skin + 1e-9);
    } else {
      CHECK(foot.x < 1.0 - s.radius + 1e-9);  // stopped at the face
      CHECK(foot.x > 1.0 - s.radius - 2.0 * s.skin);
      CHECK(foot.y > 0.0);
      CHECK(foot.y <= s.skin + 1e-9);
    }
  }
}

TEST_CASE("the character walks up a 30 degree slope and stops at a 50 degree one", "[character]") {
  CharacterSettings s;
  s.maxSlopeAngle = 45.0 * kDeg;
  for (const Real angle : {30.0, 50.0}) {
    CAPTURE(angle);
    World w{Settings{}};
    addGround(w);
    addRamp(w, angle * kDeg, 1.0);
    Walker walker = makeWalker(Vec3(0.0), s);
    for (int i = 0; i < 180; ++i) walker.frame(w, Vec3(2.0, 0.0, 0.0));
    const Vec3 before = walker.c.position();
    for (int i = 0; i < 60; ++i) walker.frame(w, Vec3(2.0, 0.0, 0.0));
    const Vec3 after = walker.c.position();
    if (angle < 45.0) {
      // Still climbing, along the slope: height gained over distance is tan 30.
      CHECK(walker.c.onGround());
      CHECK(after.y - before.y > 0.5);
      CHECK_THAT((after.y - before.y) / (after.x - before.x),
                 WithinAbs(std::tan(angle * kDeg), 1e-3));
      CHECK_THAT(walker.c.groundNormal().y, WithinAbs(std::cos(angle * kDeg), 1e-9));
    } else {
      // Stopped at the foot of the slope: no progress, no height gained.
      CHECK(glm::length(after - before) < 1e-6);
      CHECK(walker.c.footPosition().y < 0.15);
    }
  }
}

TEST_CASE("the character rides a moving platform without drift", "[character]") {
  for (const bool reversing : {false, true}) {
    CAPTURE(reversing);
    World w{Settings{}};
    addGround(w, 100.0);
    BodyDef def;
    def.type = BodyType::Kinematic;
    def.shape = boxHull(Vec3(2.0, 0.1, 2.0));
    def.position = Vec3(0.0, 2.0, 0.0);
    const BodyId platform = *w.createBody(def);
    Walker walker = makeWalker(Vec3(0.3, 2.1, -0.2));
    Vec3 offset(0.0);
    Real drift = 0.0;
    for (int i = 0; i < 600; ++i) {
      const Real t = i * kDt;
      Vec3 v(1.0, 0.2, 0.5);
      if (reversing) v = (std::fmod(t, 2.0) < 1.0 ? 1.0 : -1.0) * Vec3(1.5, 0.8, -1.0);
      w.setLinearVelocity(platform, v);
      walker.frame(w, Vec3(0.0));
      const Vec3 rel = walker.c.position() - w.body(platform)->position;
      if (i == 0) offset = rel;
      drift = std::max(drift, glm::length(rel - offset));
      REQUIRE(walker.c.onGround());
      CHECK(walker.c.groundBody() == platform);
    }
    CHECK(drift < 0.01);
    if (!reversing) CHECK(w.body(platform)->position.x > 9.0);  // it did move 10 m
  }
}

TEST_CASE("the character never passes through a thin wall at 100 m/s", "[character]") {
  CharacterSettings s;
  const Real face = 3.0 - 0.025;  // the wall's near face
  int reached = 0, runs = 0;
  for (const Real dt : {kDt, 0.1}) {
    for (int yaw = -80; yaw <= 80; yaw += 8) {
      for (const int pitch : {-30, 0, 30}) {
        World w{Settings{}};
        addStatic(w, Vec3(3.0, 0.0, 0.0), Vec3(0.025, 200.0, 200.0));
        Character c = *Character::create(s, Vec3(0.0));
        const Real a = yaw * kDeg, b = pitch * kDeg;
        const Vec3 v =
            100.0 * Vec3(std::cos(a) * std::cos(b), std::sin(b), std::sin(a) * std::cos(b));
        for (int i = 0; i < 20; ++i) {
          REQUIRE(c.update(w, v, dt));
          REQUIRE(c.position().x + s.radius <= face + 1e-9);
        }
        ++runs;
        if (c.position().x + s.radius > face - 2.0 * s.skin) ++reached;
      }
    }
  }
  CHECK(reached == runs);  // every run got to the wall, and stayed before it
}

TEST_CASE("the character slides along a wall keeping the tangential velocity", "[character]") {
  World w{Settings{}};
  addGround(w);
  addStatic(w, Vec3(2.5, 1.0, 0.0), Vec3(0.5, 1.0, 10.0));  // face at x = 2
  CharacterSettings s;
  Walker walker = makeWalker(Vec3(1.0, 0.0, -5.0), s);
  const Vec3 walk(3.0, 0.0, 2.0);
  for (int i = 0; i < 30; ++i) walker.frame(w, walk);
  const Vec3 before = walker.c.position();
  REQUIRE(before.x + s.radius > 2.0 - 2.0 * s.skin);  // touching the wall
  for (int i = 0; i < 60; ++i) walker.frame(w, walk);
  const Vec3 after = walker.c.position();
  CHECK_THAT(after.x, WithinAbs(before.x, 1e-9));        // the normal part is gone
  CHECK_THAT(after.z - before.z, WithinAbs(2.0, 1e-9));  // the tangential part is kept (1 s)
  CHECK_THAT(walker.c.velocity().z, WithinAbs(2.0, 1e-9));

  // Into a corner of two walls: stopped by both at once.
  addStatic(w, Vec3(0.0, 1.0, 6.5), Vec3(10.0, 1.0, 0.5));  // face at z = 6
  for (int i = 0; i < 300; ++i) walker.frame(w, walk);
  const Vec3 corner = walker.c.position();
  CHECK(corner.x + s.radius <= 2.0 + 1e-9);
  CHECK(corner.z + s.radius <= 6.0 + 1e-9);
  CHECK(corner.z + s.radius > 6.0 - 2.0 * s.skin);
  CHECK(glm::length(walker.c.velocity()) < 1e-9);
}

TEST_CASE("the character pushes a dynamic box and is slowed by it", "[character]") {
  CharacterSettings s;
  s.maxPushForce = 1000.0;
  auto run = [&](bool withBox, Real pushForce, Vec3* boxMoved) {
    World w{Settings{}};
    addGround(w);
    BodyId box;
    if (withBox) {
      BodyDef def;
      def.shape = boxHull(Vec3(0.5));
      def.position = Vec3(2.0, 0.5, 0.0);
      def.density = 100.0;  // 100 kg: friction 0.5 needs more than 490 N
      box = *w.createBody(def);
    }
    CharacterSettings cs = s;
    cs.maxPushForce = pushForce;
    Walker walker = makeWalker(Vec3(0.0), cs);
    const Vec3 start = box.valid() ? w.body(box)->position : Vec3(0.0);
    Real impulse = 0.0;
    for (int i = 0; i < 180; ++i) {
      walker.frame(w, Vec3(2.0, 0.0, 0.0));
      for (const CharacterPush& p : walker.c.pushes()) {
        CHECK(p.body == box);
        impulse += glm::length(p.impulse);
      }
    }
    CHECK(impulse <= pushForce * 180 * kDt + 1e-9);  // the force cap holds
    if (boxMoved) *boxMoved = w.body(box)->position - start;
    return walker.c.position().x;
  };
  const Real free = run(false, s.maxPushForce, nullptr);
  Vec3 moved(0.0);
  const Real pushing = run(true, s.maxPushForce, &moved);
  CHECK(moved.x > 0.5);                              // the box moved ahead
  CHECK(pushing < free - 0.3);                       // and the character was slowed
  CHECK(pushing + s.radius < 1.5 + moved.x + 1e-6);  // behind the box, never inside it
  Vec3 still(0.0);
  const Real blocked = run(true, 0.0, &still);
  CHECK(glm::length(still) < 1e-3);  // no push: the box stays (it only settles)
  CHECK(blocked + s.radius <= 1.5 + 1e-6);
}

TEST_CASE("the character's moves are deterministic", "[character][determinism]") {
  auto run = [] {
    World w{Settings{}};
    addGround(w);
    for (int k = 1; k <= 4; ++k)
      addStatic(w, Vec3(1.0 + 0.3 * k + 1.0, 0.125 * k, 0.0), Vec3(1.0, 0.125 * k, 2.0));
    Walker walker = makeWalker(Vec3(0.0));
    for (int i = 0; i < 120; ++i) walker.frame(w, Vec3(2.0, 0.0, 0.3));
    return walker.c.position();
  };
  const Vec3 a = run(), b = run();
  CHECK(a.x == b.x);
  CHECK(a.y == b.y);
  CHECK(a.z == b.z);
  CHECK(a.y > 0.5 + 0.9);  // it climbed the four 0.25 m steps
}

TEST_CASE("the character's query filter chooses what it collides with", "[character]") {
  // A wall in category bit 1 across the path: a character whose mask leaves that bit out walks
  // through it (a body of its own, say), one with the default filter stops a skin before it.
  for (const bool ignoreWall : {false, true}) {
    CAPTURE(ignoreWall);
    World w{Settings{}};
    addGround(w);
    BodyDef def;
    def.type = BodyType::Static;
    def.shape = boxHull(Vec3(0.1, 1.0, 3.0));
    def.position = Vec3(2.0, 1.0, 0.0);  // face at x = 1.9
    def.filter.category = uint64_t{1} << 1;
    REQUIRE(w.createBody(def));
    CharacterSettings s;
    if (ignoreWall) s.filter.mask = ~(uint64_t{1} << 1);
    Walker walker = makeWalker(Vec3(0.0), s);
    for (int i = 0; i < 120; ++i) walker.frame(w, Vec3(2.0, 0.0, 0.0));
    const Real x = walker.c.position().x;
    if (ignoreWall) {
      CHECK_THAT(x, WithinAbs(4.0, 1e-9));  // 2 s at 2 m/s, through the wall
    } else {
      CHECK(x + s.radius <= 1.9 + 1e-9);
      CHECK(x + s.radius > 1.9 - 2.0 * s.skin);
    }
    CHECK(walker.c.onGround());  // the ground (category bit 0) is seen either way
  }
}
