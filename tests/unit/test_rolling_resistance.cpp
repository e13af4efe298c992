// Rolling resistance (BodyDef::rollingResistance, Box2D v3's shape option in 3D): a contact resists
// the relative spin about its tangents, and about its normal, with a torque of at most c R N. The
// decelerations are derived here from the rigid-body equations, not read from the engine.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// A body rolling without slipping on flat ground (friction F at the contact, resistance torque
// c R N against the spin, N = m g): m dv/dt = -F, I dw/dt = F R - c R m g, dv/dt = R dw/dt, so
// dv/dt = -c g m R^2 / (I + m R^2), with I the inertia about the rolling axis.
Real expectedDeceleration(Real c, Real g, Real mass, Real radius, Real inertia) {
  return c * g * mass * radius * radius / (inertia + mass * radius * radius);
}

struct Roll {
  Real deceleration = 0.0;     ///< m/s^2, measured over [0.25 s, 1.25 s]
  Real startSpeed = 0.0;       ///< m/s at 0.25 s
  Real endSpeed = 0.0;         ///< m/s after `seconds`
  Real endSpin = 0.0;          ///< rad/s after `seconds`
  Real leastSpeed = 0.0;       ///< m/s, the most negative x velocity seen (rolling back)
  Real travelAfterStop = 0.0;  ///< m, how far it moved once it had stopped
  bool stopped = false;
};

// Rolls `def` (resting on the ground at y = 0, rolling about z) in +x at 2 m/s for `seconds`.
Roll roll(BodyDef def, Real radius, Real seconds) {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w, 40.0);
  const Real v0 = 2.0;
  def.position.x = -10.0;
  def.linearVelocity = Vec3(v0, 0.0, 0.0);
  def.angularVelocity = Vec3(0.0, 0.0, -v0 / radius);  // v = w x r: rolling, not slipping
  const BodyId id = *w.createBody(def);
  const Real dt = w.settings().dt;
  const int steps = static_cast<int>(std::lround(seconds / dt));
  const int first = static_cast<int>(std::lround(0.25 / dt));
  const int second = static_cast<int>(std::lround(1.25 / dt));
  Roll r;
  Real stopX = 0.0;
  for (int i = 1; i <= steps; ++i) {
    REQUIRE(w.step(dt));
    const BodyView b = *w.body(id);
    if (i == first) r.startSpeed = b.linearVelocity.x;
    if (i == second) r.deceleration = (r.startSpeed - b.linearVelocity.x) / (1.25 - 0.25);
    r.leastSpeed = std::min(r.leastSpeed, b.linearVelocity.x);
    if (!r.stopped && i > first && glm::length(b.linearVelocity) < 1e-3) {
      r.stopped = true;
      stopX = b.centerOfMass.x;
    }
    if (r.stopped)
      r.travelAfterStop = std::max(r.travelAfterStop, std::abs(b.centerOfMass.x - stopX));
    r.endSpeed = b.linearVelocity.x;
    r.endSpin = glm::length(b.angularVelocity);
  }
  return r;
}

BodyDef sphereDef(Real radius, Real c) {
  BodyDef def;
  def.shape = *makeSphere(radius);
  def.position = Vec3(0.0, radius, 0.0);
  def.density = 1000.0;
  def.friction = 0.5;
  def.rollingResistance = c;
  return def;
}

// A capsule lying with its axis (local y) along world z, so it rolls about z.
BodyDef capsuleDef(Real radius, Real halfHeight, Real c) {
  BodyDef def;
  def.shape = *makeCapsule(radius, halfHeight);
  def.position = Vec3(0.0, radius, 0.0);
  def.orientation = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(1.0, 0.0, 0.0));
  def.density = 1000.0;
  def.friction = 0.5;
  def.rollingResistance = c;
  return def;
}

}  // namespace

TEST_CASE("a rolling sphere decelerates at 5/7 c g, stops and does not roll back", "[rolling]") {
  const Real g = 9.81;  // Settings' default gravity
  REQUIRE_THAT(-Settings{}.gravity.y, WithinAbs(g, 1e-12));
  for (const auto& [radius, c] : {std::pair{0.5, 0.1}, {0.25, 0.2}}) {
    CAPTURE(radius, c);
    // Solid sphere: I = 2/5 m R^2, so a = c g / (2/5 + 1) = 5/7 c g.
    const Real a = 5.0 / 7.0 * c * g;
    const Roll r = roll(sphereDef(radius, c), radius, 2.0 / a + 2.0);
    CHECK_THAT(r.startSpeed, WithinRel(2.0 - 0.25 * a, 0.03));
    CHECK_THAT(r.deceleration, WithinRel(a, 0.03));
    // It stops and stays: never back by more than one step's deceleration (the step in which
    // it stops starts with the last step's impulses), nor farther than 0.5 mm from where it
    // stopped, and at rest 2 s later.
    CHECK(r.stopped);
    CHECK(r.leastSpeed > -a * Settings{}.dt);
    CHECK(r.travelAfterStop < 5e-4);
    CHECK(std::abs(r.endSpeed) < 1e-5);
    CHECK(r.endSpin < 1e-5);
  }
}

TEST_CASE("without rolling resistance a sphere keeps rolling at its speed", "[rolling]") {
  const Roll r = roll(sphereDef(0.5, 0.0), 0.5, 2.0);
  CHECK_THAT(r.endSpeed, WithinRel(2.0, 0.01));
  CHECK_FALSE(r.stopped);
}

// A ball spinning about the vertical on its one contact point: the spin is resisted as the rolling
// is, by a torque of at most c R N (N = m g), so with I = 2/5 m R^2 it slows at
// c R m g / I = 5 c g / (2 R) and stops; without rolling resistance only the twist friction acts,
// whose arm on one point is the tiny depth, and it keeps spinning.
TEST_CASE("a ball spinning on its contact point slows at 5 c g / (2 R) and stops", "[rolling]") {
  const Real g = -Settings{}.gravity.y, radius = 0.5;
  // Spun at w0, measured over [0.1 s, 0.4 s].
  auto spin = [&](Real c, Real w0, Real seconds, Real* decel, Real* drift) {
    World w{Settings{}};
    editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
    addGround(w, 40.0);
    BodyDef def = sphereDef(radius, c);
    def.angularVelocity = Vec3(0.0, w0, 0.0);
    const BodyId id = *w.createBody(def);
    const Real dt = w.settings().dt;
    const int steps = static_cast<int>(std::lround(seconds / dt));
    const int first = static_cast<int>(std::lround(0.1 / dt));
    const int second = static_cast<int>(std::lround(0.4 / dt));
    Real atFirst = 0.0;
    *drift = 0.0;
    for (int i = 1; i <= steps; ++i) {
      REQUIRE(w.step(dt));
      const BodyView b = *w.body(id);
      if (i == first) atFirst = b.angularVelocity.y;
      if (i == second) *decel = (atFirst - b.angularVelocity.y) / (0.4 - 0.1);
      *drift = std::max(*drift, glm::length(Vec3(b.centerOfMass.x, 0.0, b.centerOfMass.z)));
    }
    return glm::length(w.body(id)->angularVelocity);
  };
  for (const Real c : {0.1, 0.2}) {
    CAPTURE(c);
    const Real alpha = 5.0 * c * g / (2.0 * radius);
    Real decel = 0.0, drift = 0.0;
    const Real w0 = 0.8 * alpha;  // stops at 0.8 s
    const Real end = spin(c, w0, 2.0, &decel, &drift);
    CHECK_THAT(decel, WithinRel(alpha, 0.03));
    CHECK(end < 1e-5);
    CHECK(drift < 1e-6);  // it spins in place
  }
  Real decel = 0.0, drift = 0.0;
  CHECK_THAT(spin(0.0, 3.0, 2.0, &decel, &drift), WithinRel(3.0, 0.01));
}

TEST_CASE("a capsule rolling across its axis decelerates by its own inertia", "[rolling]") {
  const Real g = 9.81, radius = 0.3, halfHeight = 0.4, c = 0.1, density = 1000.0;
  // About its axis: the cylinder m_c R^2 / 2 and the two caps (one sphere) 2/5 m_s R^2.
  const Real cylinder = density * std::numbers::pi * radius * radius * 2.0 * halfHeight;
  const Real caps = density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  const Real mass = cylinder + caps;
  const Real inertia = cylinder * radius * radius / 2.0 + 0.4 * caps * radius * radius;
  const Real a = expectedDeceleration(c, g, mass, radius, inertia);
  // Not the sphere's: the capsule's mass sits farther out (I / m R^2 = 0.46 against 0.4).
  REQUIRE(std::abs(a - 5.0 / 7.0 * c * g) > 0.02 * a);
  const Roll r = roll(capsuleDef(radius, halfHeight, c), radius, 2.0 / a + 2.0);
  CHECK_THAT(r.deceleration, WithinRel(a, 0.03));
  CHECK(r.stopped);
  CHECK(r.leastSpeed > -a * Settings{}.dt);
  CHECK(r.travelAfterStop < 5e-4);
  CHECK(std::abs(r.endSpeed) < 1e-5);
  CHECK(r.endSpin < 1e-5);

  const Roll free = roll(capsuleDef(radius, halfHeight, 0.0), radius, 2.0);
  CHECK_THAT(free.endSpeed, WithinRel(2.0, 0.01));
}

TEST_CASE("a cylinder rolling on its side decelerates at 2/3 c g and stops", "[rolling]") {
  const Real g = -Settings{}.gravity.y, radius = 0.3, c = 0.1;
  // A solid cylinder: I = m R^2 / 2 about its axis, so a = c g / (1/2 + 1).
  const Real a = 2.0 / 3.0 * c * g;
  BodyDef def = capsuleDef(radius, 0.4, c);  // the same pose: axis along z
  def.shape = *makeCylinder(radius, 0.4);
  const Roll r = roll(def, radius, 2.0 / a + 2.0);
  CHECK_THAT(r.deceleration, WithinRel(a, 0.03));
  CHECK(r.stopped);
  CHECK(r.leastSpeed > -a * Settings{}.dt);
  CHECK(std::abs(r.endSpeed) < 1e-5);
  CHECK(r.endSpin < 1e-5);
}

TEST_CASE("rolling resistance leaves hulls bit for bit as they were", "[rolling]") {
  // Boxes thrown spinning onto the ground and onto each other: they slide, tip and tumble. A
  // hull's rolling radius is 0, so its contacts have no rolling resistance whatever c is.
  auto run = [](Real c) {
    World w{Settings{}};
    BodyDef ground;
    ground.type = BodyType::Static;
    ground.shape = boxHull(Vec3(20.0, 1.0, 20.0));
    ground.position = Vec3(0.0, -1.0, 0.0);
    ground.rollingResistance = c;
    REQUIRE(w.createBody(ground));
    for (int i = 0; i < 12; ++i) {
      BodyDef def;
      def.shape = boxHull(Vec3(0.5, 0.3 + 0.05 * (i % 3), 0.4));
      def.position = Vec3(0.3 * (i % 4) - 0.5, 0.6 + 0.9 * i, 0.2 * (i % 3));
      def.orientation = glm::angleAxis(0.3 * i, glm::normalize(Vec3(1.0, 2.0, 0.5 * i)));
      def.linearVelocity = Vec3(1.5 - 0.25 * i, 0.0, 0.1 * i);
      def.angularVelocity = Vec3(2.0, -1.0 + 0.2 * i, 3.0);
      def.rollingResistance = c;
      REQUIRE(w.createBody(def));
    }
    bool anyResistance = false;
    for (int i = 0; i < 240; ++i) {
      REQUIRE(w.step(w.settings().dt));
      for (const Manifold& m : w.manifolds()) anyResistance |= m.rollingResistance != 0.0f;
    }
    CHECK_FALSE(anyResistance);
    std::vector<BodyView> out;
    for (const BodyId id : w.bodyIds()) out.push_back(*w.body(id));
    return out;
  };
  const std::vector<BodyView> without = run(0.0), with = run(0.5);
  REQUIRE(without.size() == with.size());
  auto same = [](const Vec3& x, const Vec3& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  bool moved = false;
  for (size_t i = 0; i < with.size(); ++i) {
    CAPTURE(i);
    CHECK(same(without[i].centerOfMass, with[i].centerOfMass));
    CHECK(std::memcmp(&without[i].rotation, &with[i].rotation, sizeof(Quat)) == 0);
    CHECK(same(without[i].linearVelocity, with[i].linearVelocity));
    CHECK(same(without[i].angularVelocity, with[i].angularVelocity));
    moved |= glm::length(with[i].centerOfMass - Vec3(0.0, 0.6 + 0.9 * (i - 1), 0.0)) > 0.5;
  }
  CHECK(moved);  // the scene did something
}

TEST_CASE("a contact's rolling resistance is the larger of c times each rolling radius",
          "[rolling]") {
  World w{Settings{}};
  addGround(w);
  BodyDef small = sphereDef(0.2, 0.3);  // 0.06 m
  small.position = Vec3(-2.0, 0.2, 0.0);
  REQUIRE(w.createBody(small));
  BodyDef big = sphereDef(0.5, 0.1);  // 0.05 m
  big.position = Vec3(2.0, 0.5, 0.0);
  REQUIRE(w.createBody(big));
  BodyDef capsule = capsuleDef(0.3, 0.4, 0.0);  // none
  capsule.position = Vec3(0.0, 0.3, 3.0);
  REQUIRE(w.createBody(capsule));
  BodyDef onTop = sphereDef(0.5, 0.02);  // on the big one: max(0.01, 0.05)
  onTop.position = Vec3(2.0, 1.5, 0.0);
  REQUIRE(w.createBody(onTop));
  REQUIRE(w.step(w.settings().dt));
  std::vector<float> found;
  for (const Manifold& m : w.manifolds()) found.push_back(m.rollingResistance);
  std::sort(found.begin(), found.end());
  REQUIRE(found.size() == 4);
  CHECK(found[0] == 0.0f);
  CHECK_THAT(found[1], WithinRel(0.05, 1e-6));
  CHECK_THAT(found[2], WithinRel(0.05, 1e-6));
  CHECK_THAT(found[3], WithinRel(0.06, 1e-6));
}

TEST_CASE("a bad rolling resistance is refused, naming the field", "[rolling]") {
  World w{Settings{}};
  for (const Real bad :
       {-0.1, std::numeric_limits<Real>::infinity(), std::numeric_limits<Real>::quiet_NaN()}) {
    BodyDef def = sphereDef(0.5, bad);
    const auto id = w.createBody(def);
    REQUIRE_FALSE(id);
    CHECK_THAT(id.error(), Contains("rollingResistance"));
  }
  BodyDef ok = sphereDef(0.5, 0.25);
  const auto id = w.createBody(ok);
  REQUIRE(id);
  CHECK(w.body(*id)->rollingResistance == 0.25);
}
