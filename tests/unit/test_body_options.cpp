// Body options (BodyDef): damping, gravity scale, locked axes, bullets and kinematic targets.
// The expected values come from the integrator's documented discrete laws (BodyDef's comments),
// written out here, not read from the engine.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "dynamics/world_internals.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

std::unique_ptr<World> weightless() {
  auto w = std::make_unique<World>(Settings{});
  editSettings(*w, [](Settings& s) {
    s.gravity = Vec3(0.0);
    s.sleep.enabled = false;
  });
  return w;
}

BodyDef sphereDef(Real radius, const Vec3& position) {
  BodyDef def;
  def.shape = *makeSphere(radius);
  def.position = position;
  return def;
}

}  // namespace

TEST_CASE("damping follows v' = v / (1 + h c) per substep and halves the speed when predicted",
          "[body_options]") {
  auto w = weightless();
  const Real c = 0.7, ca = 1.9;
  BodyDef def = sphereDef(0.5, Vec3(0.0));
  def.linearVelocity = Vec3(3.0, -1.0, 2.0);
  def.angularVelocity = Vec3(0.0, 4.0, 1.0);
  def.linearDamping = c;
  def.angularDamping = ca;
  const BodyId id = *w->createBody(def);
  const BodyView view = *w->body(id);
  CHECK(view.linearDamping == c);
  CHECK(view.angularDamping == ca);
  const Real dt = w->settings().dt;
  const int k = w->settings().solver.substeps;
  const Real h = dt / k;
  const Real v0 = glm::length(def.linearVelocity);
  // Substeps until half speed: (1 + h c)^-n = 1/2.
  const Real halfSubsteps = std::log(2.0) / std::log1p(h * c);
  const int halfStep = static_cast<int>(std::ceil(halfSubsteps / k));
  int firstHalf = -1;
  for (int step = 1; step <= 200; ++step) {
    REQUIRE(w->step(dt));
    const BodyView b = *w->body(id);
    const Real n = static_cast<Real>(step * k);
    const Vec3 v = def.linearVelocity * std::pow(1.0 + h * c, -n);
    const Vec3 om = def.angularVelocity * std::pow(1.0 + h * ca, -n);
    for (int a = 0; a < 3; ++a) {
      REQUIRE_THAT(b.linearVelocity[a], WithinAbs(v[a], 1e-12));
      REQUIRE_THAT(b.angularVelocity[a], WithinAbs(om[a], 1e-12));
    }
    if (firstHalf < 0 && glm::length(b.linearVelocity) <= 0.5 * v0) firstHalf = step;
  }
  CHECK(firstHalf == halfStep);
  // Close to the continuous law's half-life ln 2 / c (the discrete one is longer by ~h c / 2).
  CHECK_THAT(firstHalf * dt, WithinRel(std::log(2.0) / c, 0.01));
}

TEST_CASE("gravity scale 0.5 halves the fall, 0 floats, and the fall is the integrator's exactly",
          "[body_options]") {
  World w{Settings{}};
  editSettings(w, [](Settings& s) { s.sleep.enabled = false; });
  const Real g = -w.settings().gravity.y;
  const Real dt = w.settings().dt;
  const int k = w.settings().solver.substeps;
  const Real h = dt / k;
  BodyDef def = sphereDef(0.25, Vec3(0.0, 100.0, 0.0));
  const BodyId full = *w.createBody(def);
  def.position.x = 2.0;
  def.gravityScale = 0.5;
  const BodyId half = *w.createBody(def);
  def.position.x = 4.0;
  def.gravityScale = 0.0;
  const BodyId none = *w.createBody(def);
  CHECK(w.body(half)->gravityScale == 0.5);
  for (int step = 1; step <= 120; ++step) {
    REQUIRE(w.step(dt));
    // Semi-implicit Euler from rest: v_n = n h s g, y_n = y0 - h^2 s g n (n + 1) / 2.
    const Real n = static_cast<Real>(step * k);
    const Real drop = h * h * g * n * (n + 1.0) / 2.0;
    REQUIRE_THAT(w.body(full)->position.y, WithinAbs(100.0 - drop, 1e-9));
    REQUIRE_THAT(w.body(half)->position.y, WithinAbs(100.0 - 0.5 * drop, 1e-9));
    REQUIRE_THAT(w.body(half)->linearVelocity.y, WithinAbs(-0.5 * n * h * g, 1e-12));
    REQUIRE(w.body(none)->position.y == 100.0);
  }
}

TEST_CASE("a body with locked rotation hit off centre does not turn", "[body_options]") {
  auto hit = [](bool locked) {
    auto w = weightless();
    BodyDef box;
    box.shape = boxHull(Vec3(0.5, 0.5, 0.5));
    box.position = Vec3(0.0);
    for (bool& l : box.lockRotation) l = locked;
    const BodyId target = *w->createBody(box);
    // A ball flies in along x, 0.4 m off the box's centre in y and z.
    BodyDef ball = sphereDef(0.2, Vec3(-3.0, 0.4, 0.4));
    ball.linearVelocity = Vec3(8.0, 0.0, 0.0);
    ball.density = 5000.0;
    REQUIRE(w->createBody(ball));
    Vec3 largest(0.0);
    for (int i = 0; i < 60; ++i) {
      REQUIRE(w->step(w->settings().dt));
      const Vec3 om = w->body(target)->angularVelocity;
      for (int a = 0; a < 3; ++a) largest[a] = std::max(largest[a], std::abs(om[a]));
    }
    return std::pair(largest, *w->body(target));
  };
  const auto [freeSpin, freeBox] = hit(false);
  const auto [lockedSpin, lockedBox] = hit(true);
  CHECK(glm::length(freeSpin) > 0.5);  // unlocked, the same hit spins the box
  CHECK(lockedSpin == Vec3(0.0));      // exactly: the locked rows of I^-1 are zero
  CHECK(lockedBox.rotation == Quat(1.0, 0.0, 0.0, 0.0));
  CHECK(lockedBox.linearVelocity.x > 1.0);  // it was hit, and moves
  CHECK(lockedBox.lockRotation[0]);
}

TEST_CASE("a locked translation axis keeps its coordinate exactly through a heap collision",
          "[body_options]") {
  World w{Settings{}};
  addGround(w, 20.0);
  // A column of boxes dropped askew onto each other; the locked one (third from the bottom) may
  // not move in x or z, whatever the heap does to it.
  std::vector<BodyId> boxes;
  BodyId locked;
  for (int i = 0; i < 12; ++i) {
    BodyDef def;
    def.shape = boxHull(Vec3(0.5, 0.3, 0.4));
    def.position = Vec3(0.17 * std::sin(1.7 * i), 0.5 + 0.7 * i, 0.13 * std::cos(2.3 * i));
    def.orientation = glm::angleAxis(0.3 * i, glm::normalize(Vec3(1.0, 2.0, 0.5)));
    if (i == 2) def.lockTranslation[0] = def.lockTranslation[2] = true;
    boxes.push_back(*w.createBody(def));
    if (i == 2) locked = boxes.back();
  }
  const Vec3 start = w.body(locked)->centerOfMass;
  Real largestSideSpeed = 0.0;
  Real otherDrift = 0.0;
  for (int i = 0; i < 300; ++i) {
    REQUIRE(w.step(w.settings().dt));
    const BodyView b = *w.body(locked);
    REQUIRE(b.centerOfMass.x == start.x);
    REQUIRE(b.centerOfMass.z == start.z);
    REQUIRE(b.linearVelocity.x == 0.0);
    REQUIRE(b.linearVelocity.z == 0.0);
    largestSideSpeed = std::max(largestSideSpeed, std::abs(w.body(boxes[3])->linearVelocity.x));
  }
  for (BodyId id : boxes) {
    if (id == locked) continue;
    const BodyView b = *w.body(id);
    otherDrift = std::max(otherDrift, std::abs(b.angularVelocity.x) + std::abs(b.position.x));
  }
  CHECK(w.body(locked)->centerOfMass.y < start.y - 0.1);  // it fell freely in y
  CHECK(largestSideSpeed > 0.01);  // the heap did push its neighbours sideways
  CHECK(otherDrift > 0.0);
  CHECK(allFinite(w));
}

TEST_CASE("moveKinematic lands a kinematic body on the target pose after one step",
          "[body_options]") {
  for (int substeps : {1, 4, 7}) {
    for (Real angle : {0.0, 0.4, 2.9}) {
      World w{Settings{}};
      editSettings(w, [&](Settings& s) { s.solver.substeps = substeps; });
      BodyDef def;
      def.type = BodyType::Kinematic;
      def.shape = boxHull(Vec3(1.0, 0.2, 0.5));
      def.position = Vec3(0.3, 1.0, -2.0);
      def.orientation = glm::angleAxis(0.7, glm::normalize(Vec3(0.0, 1.0, 1.0)));
      const BodyId id = *w.createBody(def);
      const Transform target{
          Vec3(1.5, 2.25, -0.5),
          glm::angleAxis(angle, glm::normalize(Vec3(1.0, 2.0, 3.0))) * def.orientation};
      const Real dt = 1.0 / 45.0;
      w.moveKinematic(id, target, dt);
      REQUIRE(w.step(dt));
      const BodyView b = *w.body(id);
      INFO("substeps " << substeps << ", angle " << angle);
      CHECK(glm::length(b.position - target.position) < 1e-9);
      // The angle between the two rotations: 2 asin(|vector part of q^-1 target|).
      const Quat d = glm::conjugate(b.rotation) * target.rotation;
      CHECK(2.0 * std::asin(std::min(1.0, glm::length(Vec3(d.x, d.y, d.z)))) < 1e-9);
    }
  }
  // A dynamic body is refused, unchanged.
  World w{Settings{}};
  const BodyId ball = *w.createBody(sphereDef(0.5, Vec3(0.0)));
  CountAsserts asserts;
  w.moveKinematic(ball, Transform{Vec3(1.0), Quat(1.0, 0.0, 0.0, 0.0)}, 1.0 / 60.0);
  CHECK(asserts.count() == 1);
  CHECK(w.body(ball)->linearVelocity == Vec3(0.0));
}

namespace {

// A 0.1 m (diameter) ball at 300 m/s along +x towards a 0.2 m dynamic box 10 m ahead, which
// crosses the ball's path along +z at `boxSpeed`, timed to be on it when the ball arrives.
struct Shot {
  Real ballX = 0.0, boxX = 0.0;  ///< m, at the end
  Real boxVx = 0.0;              ///< m/s: the box was hit when > 0
  Real ballVx = 0.0;
};
Shot shoot(bool bullet, Real boxSpeed) {
  auto w = weightless();
  const Real dt = w->settings().dt;
  const Real arrive = 10.0 / 300.0;  // s
  BodyDef box;
  box.shape = boxHull(Vec3(0.1));
  box.position = Vec3(0.0, 0.0, -boxSpeed * arrive);
  box.linearVelocity = Vec3(0.0, 0.0, boxSpeed);
  const BodyId target = *w->createBody(box);
  BodyDef ball = sphereDef(0.05, Vec3(-10.0, 0.0, 0.0));
  ball.linearVelocity = Vec3(300.0, 0.0, 0.0);
  ball.bullet = bullet;
  const BodyId shot = *w->createBody(ball);
  for (int i = 0; i < static_cast<int>(std::lround(0.5 / dt)); ++i) REQUIRE(w->step(dt));
  Shot s;
  s.ballX = w->body(shot)->centerOfMass.x;
  s.boxX = w->body(target)->centerOfMass.x;
  s.boxVx = w->body(target)->linearVelocity.x;
  s.ballVx = w->body(shot)->linearVelocity.x;
  return s;
}

}  // namespace

TEST_CASE("a bullet at 300 m/s hits a moving 0.2 m box instead of tunnelling", "[body_options]") {
  // The box crosses the ball's path at 30 m/s (half a metre per step; the ball moves 5 m per
  // step). Without the flag this scene is caught as well, by the speculative contact (its
  // distance grows with both bodies' reach): measured, the box leaves at 17.8 m/s and the ball at
  // 19 m/s. No scene tried let a plain ball through a dynamic body (boxes crossing at 5 to
  // 240 m/s, a box shoved into the path within the step by a force, a 2 cm plank spinning at 10
  // to 80 rad/s); the sweep's own geometry is tested below with WorldInternals::sweepFrom.
  const Shot plain = shoot(false, 30.0);
  CHECK(plain.boxVx > 10.0);
  const Shot bullet = shoot(true, 30.0);
  // Momentum passed on: a 0.52 kg ball stopping in an 8 kg box gives it 18.4 m/s.
  CHECK(bullet.boxVx > 10.0);
  CHECK(bullet.ballVx < 60.0);
}

TEST_CASE("a bullet does not pass through a thin dynamic plank", "[body_options]") {
  auto run = [](bool bullet, Real speed) {
    auto w = weightless();
    BodyDef plank;
    plank.shape = boxHull(Vec3(0.01, 1.0, 1.0));  // 2 cm thick
    plank.position = Vec3(0.0);
    // Turning about z, so its pose at the step's end differs from the start's.
    plank.angularVelocity = Vec3(0.0, 0.0, 3.0);
    const BodyId p = *w->createBody(plank);
    BodyDef ball = sphereDef(0.05, Vec3(-7.0, 0.3, 0.2));
    ball.linearVelocity = Vec3(speed, 0.0, 0.0);
    ball.bullet = bullet;
    const BodyId b = *w->createBody(ball);
    for (int i = 0; i < 20; ++i) REQUIRE(w->step(w->settings().dt));
    return std::pair(*w->body(b), *w->body(p));
  };
  for (Real speed : {100.0, 300.0, 500.0}) {
    INFO("speed " << speed);
    const auto [ball, plank] = run(true, speed);
    // The plank's plane through its centre: the ball stays on the near side.
    const Vec3 normal = plank.rotation * Vec3(1.0, 0.0, 0.0);
    CHECK(glm::dot(ball.centerOfMass - plank.centerOfMass, normal) < 0.0);
    // Momentum passed on: the 0.52 kg ball gives the 80 kg plank about 0.0065 speed per m/s.
    CHECK(plank.linearVelocity.x > 0.003 * speed);
    CHECK(ball.linearVelocity.x < 0.1 * speed);
  }
}

TEST_CASE("body options are validated and read back", "[body_options]") {
  World w{Settings{}};
  BodyDef def = sphereDef(0.5, Vec3(0.0));
  def.linearDamping = -1.0;
  auto bad = w.createBody(def);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("linearDamping"));
  def.linearDamping = 0.0;
  def.angularDamping = std::numeric_limits<Real>::quiet_NaN();
  bad = w.createBody(def);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("angularDamping"));
  def.angularDamping = 0.0;
  def.gravityScale = std::numeric_limits<Real>::infinity();
  bad = w.createBody(def);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("gravityScale"));
  def.gravityScale = -2.0;
  def.lockTranslation[1] = true;
  def.linearVelocity = Vec3(1.0, 2.0, 3.0);
  def.bullet = true;
  const BodyId id = *w.createBody(def);
  BodyView v = *w.body(id);
  CHECK(v.gravityScale == -2.0);
  CHECK(v.lockTranslation[1]);
  CHECK_FALSE(v.lockTranslation[0]);
  CHECK(v.bullet);
  CHECK(v.linearVelocity == Vec3(1.0, 0.0, 3.0));  // the locked component dropped
  CHECK_FALSE(w.setDamping(id, -0.5, 0.0));
  CHECK_FALSE(w.setGravityScale(id, std::numeric_limits<Real>::quiet_NaN()));
  REQUIRE(w.setDamping(id, 0.5, 0.25));
  const bool none[3] = {false, false, false}, yOnly[3] = {false, true, false};
  w.setLocks(id, none, yOnly);
  w.setBullet(id, false);
  v = *w.body(id);
  CHECK(v.linearDamping == 0.5);
  CHECK(v.angularDamping == 0.25);
  CHECK_FALSE(v.lockTranslation[1]);
  CHECK(v.lockRotation[1]);
  CHECK_FALSE(v.bullet);
}

TEST_CASE("a locked axis holds under a drag and a joint", "[body_options]") {
  World w{Settings{}};
  editSettings(w, [](Settings& s) { s.sleep.enabled = false; });
  addGround(w, 20.0);
  BodyDef def;
  def.shape = boxHull(Vec3(0.5));
  def.position = Vec3(0.0, 0.5, 0.0);
  def.lockTranslation[1] = true;  // slides on the ground, never lifts
  def.lockRotation[0] = def.lockRotation[2] = true;
  const BodyId box = *w.createBody(def);
  // Pulled up and sideways by a drag at a corner, and hung from a ball joint above.
  const DragId drag = *w.createDrag(box, Vec3(0.5, 1.0, 0.5));
  w.setDragTarget(drag, Vec3(3.0, 4.0, 1.0));
  BallJointDef joint;
  joint.a = box;
  joint.anchor = Vec3(-0.5, 1.0, -0.5);
  REQUIRE(w.createJoint(joint));
  const Real y0 = w.body(box)->centerOfMass.y;
  Real spin = 0.0;  // the free rotation about y: the drag does turn the box
  for (int i = 0; i < 120; ++i) {
    REQUIRE(w.step(w.settings().dt));
    const BodyView b = *w.body(box);
    REQUIRE(b.centerOfMass.y == y0);
    REQUIRE(b.linearVelocity.y == 0.0);
    REQUIRE(b.angularVelocity.x == 0.0);
    REQUIRE(b.angularVelocity.z == 0.0);
    spin = std::max(spin, std::abs(b.angularVelocity.y));
  }
  CHECK(spin > 0.1);
  CHECK(allFinite(w));
}

TEST_CASE("the bullet sweep stops a bullet where it first touches a non-bullet body",
          "[body_options]") {
  // The solver's speculative contacts caught every fast body in the scenes above before the sweep
  // had anything to do, so the sweep is tested here on its own (WorldInternals::sweepFrom): the
  // ball is put past a 2 cm plank as if a step had carried it through.
  struct Case {
    const char* what;
    bool bullet;
    Real startX, endX;  // m, the ball's centre when the step began and after the solver
    bool joined;        // to the plank by a ball joint that does not collide
    Real expectedX;
  };
  const Real touch = -0.01 - 0.05;  // the plank's face less the ball's radius
  for (const Case& c : {Case{"through the plank", true, -2.0, 2.0, false, touch},
                        Case{"not a bullet", false, -2.0, 2.0, false, 2.0},
                        Case{"overlapping at the start", true, -0.055, 2.0, false, 2.0},
                        Case{"jointed without collision", true, -2.0, 2.0, true, 2.0},
                        Case{"short of the plank", true, -3.0, -1.0, false, -1.0}}) {
    INFO(c.what);
    auto w = weightless();
    BodyDef plank;
    plank.shape = boxHull(Vec3(0.01, 1.0, 1.0));
    const BodyId p = *w->createBody(plank);
    BodyDef ball = sphereDef(0.05, Vec3(c.endX, 0.3, 0.2));
    ball.bullet = c.bullet;
    const BodyId b = *w->createBody(ball);
    if (c.joined) {
      BallJointDef joint;
      joint.a = p;
      joint.b = b;
      joint.anchor = Vec3(0.0, 0.3, 0.2);
      REQUIRE(w->createJoint(joint));
    }
    WorldInternals::sweepFrom(*w, b, Vec3(c.startX, 0.3, 0.2));
    const Vec3 at = w->body(b)->centerOfMass;
    CHECK_THAT(at.x, WithinAbs(c.expectedX, 1e-9));
    CHECK(at.y == 0.3);
    CHECK(at.z == 0.2);
  }
}

// A step with no contact row keeps no float body states (contact_solver.h): the joint passes must
// still drop a locked body's locked components. A square of four spheres joined in a loop (ball
// joints outside the exact groups: the wide rows) hangs from a pin and swings; no two spheres
// touch and there is no ground.
TEST_CASE("a locked translation axis stays locked on a jointed body in steps with no contact",
          "[body_options][joints]") {
  auto run = [](bool locked) {
    World w{Settings{}};
    editSettings(w, [](Settings& s) { s.sleep.enabled = false; });
    const Vec3 corners[4] = {Vec3(0.0), Vec3(1.0, 0.0, 0.0), Vec3(1.0, -1.0, 0.0),
                             Vec3(0.0, -1.0, 0.0)};
    std::vector<BodyId> spheres;
    for (int i = 0; i < 4; ++i) {
      BodyDef def = sphereDef(0.2, corners[i]);
      if (i == 3) def.linearVelocity = Vec3(0.0, 0.0, 1.0);  // out of the plane too
      if (i == 2 && locked) def.lockTranslation[0] = def.lockTranslation[2] = true;
      spheres.push_back(*w.createBody(def));
    }
    BallJointDef pin;
    pin.b = spheres[0];
    pin.anchor = Vec3(0.0, 0.5, 0.0);
    REQUIRE(w.createJoint(pin));
    for (int i = 0; i < 4; ++i) {
      BallJointDef link;
      link.a = spheres[i];
      link.b = spheres[(i + 1) % 4];
      link.anchor = 0.5 * (corners[i] + corners[(i + 1) % 4]);
      REQUIRE(w.createJoint(link));
    }
    const Vec3 start = w.body(spheres[2])->centerOfMass;
    Real sideways = 0.0;  // the largest |x - x0| + |z - z0| of sphere 2
    for (int i = 0; i < 120; ++i) {
      REQUIRE(w.step(w.settings().dt));
      REQUIRE(w.manifolds().empty());
      const BodyView b = *w.body(spheres[2]);
      sideways = std::max(
          sideways, std::abs(b.centerOfMass.x - start.x) + std::abs(b.centerOfMass.z - start.z));
      if (locked) {
        REQUIRE(b.linearVelocity.x == 0.0);
        REQUIRE(b.linearVelocity.z == 0.0);
      }
    }
    CHECK(allFinite(w));
    return std::pair{sideways, w.body(spheres[2])->centerOfMass.y - start.y};
  };
  const Real freeSideways = run(false).first;
  const auto [lockedSideways, lockedDrop] = run(true);
  CHECK(freeSideways > 0.05);          // free, the joints swing it sideways
  CHECK(lockedSideways == 0.0);        // locked: exactly where it started in x and z
  CHECK(std::abs(lockedDrop) > 0.01);  // and it still moves in y
}
