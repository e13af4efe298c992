// The joint demo scenes of issue 15 (assets/scenes/door, car, rope, cradle), run as the demo runs
// them and checked against physical laws: the rope never passes through itself or its obstacles
// (segment distances), the cradle hands its momentum on without gaining energy, the car drives at
// its wheels' radius times their motor speed, the door stays within its limits.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "tumble/scene.h"
#include "tumble/segment.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

std::unique_ptr<World> loadWorld(const std::string& name, Scene* out = nullptr) {
  auto scene = loadScene(std::string(TUMBLE_SOURCE_DIR) + "/assets/scenes/" + name + ".json");
  REQUIRE(scene);
  auto world = buildWorld(*scene);
  REQUIRE(world);
  if (out) *out = *scene;
  return std::move(*world);
}

// A capsule's core segment in world space (the shape's local segment is along y).
struct Core {
  Vec3 p0, p1;
  Real radius = 0.0;
};

Core coreOf(const BodyView& v) {
  const RoundCore* c = v.shape.round();
  REQUIRE(c != nullptr);
  REQUIRE(c->count == 2);
  const Mat3 R = glm::mat3_cast(v.rotation);
  return {v.position + R * c->points[0], v.position + R * c->points[1], c->radius};
}

}  // namespace

TEST_CASE("The rope never passes through itself or its obstacles", "[joints][scene]") {
  auto world = loadWorld("rope");
  World& w = *world;
  const std::vector<BodyId> ids = w.bodyIds();
  // The file's order: ground, a drum and two pegs (cylinders along z), 60 links, the box.
  REQUIRE(ids.size() == 65);
  struct Peg {
    glm::dvec2 centre;
    Real radius;
  };
  std::vector<Peg> pegs;
  for (int k = 1; k <= 3; ++k) {
    const BodyView p = *w.body(ids[k]);
    REQUIRE(p.shape.cylinder() != nullptr);
    // Along z (the rope swings in z = 0), and longer than the rope is wide.
    REQUIRE(std::abs((glm::mat3_cast(p.rotation) * Vec3(0.0, 1.0, 0.0)).z) > 0.999);
    REQUIRE(p.shape.cylinder()->support.halfHeight > 1.0);
    pegs.push_back({glm::dvec2(p.position), p.shape.cylinder()->support.radius});
  }
  const int firstLink = 4, links = 60;
  const Real allowed = w.settings().contact.slop + 0.005;
  const Real linkMass = (*w.body(ids[firstLink])).mass;
  CHECK_THAT((*w.body(ids[firstLink + links])).mass, WithinRel(50.0 * linkMass, 1e-4));
  Real worstSelf = -1.0, worstPeg = -1.0, lowest = 1e9;
  int selfContacts = 0, pegContacts = 0;
  for (int step = 0; step < 900; ++step) {
    REQUIRE(w.step(w.settings().dt));
    std::vector<Core> cores;
    for (int i = 0; i < links; ++i) cores.push_back(coreOf(*w.body(ids[firstLink + i])));
    for (size_t i = 0; i < cores.size(); ++i) {
      const Core& c = cores[i];
      // Every pair of links not joined to each other, by the distance of their core segments.
      for (size_t j = i + 2; j < cores.size(); ++j) {
        const Real d = segmentDistance(c.p0, c.p1, cores[j].p0, cores[j].p1);
        const Real overlap = c.radius + cores[j].radius - d;
        worstSelf = std::max(worstSelf, overlap);
        if (overlap > -0.005) ++selfContacts;
      }
      // A core's distance to a cylinder's axis along z is its distance in x-y.
      for (const Peg& p : pegs) {
        const glm::dvec2 a = glm::dvec2(c.p0) - p.centre, b = glm::dvec2(c.p1) - p.centre;
        const glm::dvec2 ab = b - a;
        const Real t = std::clamp(-glm::dot(a, ab) / std::max(glm::dot(ab, ab), 1e-30), 0.0, 1.0);
        const Real depth = p.radius + c.radius - glm::length(a + t * ab);
        worstPeg = std::max(worstPeg, depth);
        if (depth > -0.005) ++pegContacts;
      }
      lowest = std::min(lowest, std::min(c.p0.y, c.p1.y) - c.radius);
    }
  }
  INFO("deepest overlap: link-link "
       << worstSelf * 1000.0 << " mm (" << selfContacts
       << " pair-steps within 5 mm), link-cylinder " << worstPeg * 1000.0 << " mm (" << pegContacts
       << " link-steps within 5 mm); allowed " << allowed * 1000.0 << " mm; lowest link " << lowest
       << " m");
  // The checks are not vacuous: the rope does fold onto itself and lie on the cylinders.
  CHECK(selfContacts > 100);
  CHECK(pegContacts > 100);
  // Issue 15's bound between links, slop + 5 mm (2.7 mm here). It was not asserted while the
  // builds' roundings gave different trajectories (the sanitizer build reached 13.6 mm before
  // the exact joint groups); every build now gives the same bits (compare_builds.sh), so it is.
  // The scene is chaotic (4.5 to 9.6 mm with gravity tilted by 1e-6 to 3e-4 m/s^2), and a change
  // of the solver can move it past the bound: ff0334c's relax, keeping stale rows for the whipping
  // links, gave 16.5 mm. The cylinders get 2 cm (3.3 mm here): far from passing through (a link's
  // radius is 5 cm). The ground gets 3 cm: where the rope's whip lands a link at 4 m/s, the rope
  // (an exact group, inextensible) pulls it on with the momentum of its neighbours, and the soft
  // contact is only as stiff as one link's mass allows: 8.2 mm (20.7 to 21.3 mm before capsules
  // got their far end's point; before the groups, the stretching rope landed softer: 3 to 16 mm).
  INFO("issue 15's bound between links: " << allowed * 1000.0 << " mm");
  CHECK(worstSelf < allowed);
  CHECK(worstPeg < 0.02);
  CHECK(lowest > -0.03);
}

// The swing energy above the balls' rest (J): kinetic plus m g (y - rest y).
Real swingEnergy(const World& w, const std::vector<BodyId>& balls, Real restY) {
  Real e = 0.0;
  for (BodyId id : balls) {
    const BodyView v = *w.body(id);
    e += 0.5 * v.mass * glm::dot(v.linearVelocity, v.linearVelocity) +
         0.5 * glm::dot(v.angularVelocity, v.angularVelocity) * 0.4 * v.mass *
             std::pow(v.shape.roundRadius(), 2) +
         v.mass * 9.81 * (v.centerOfMass.y - restY);
  }
  return e;
}

TEST_CASE("Newton's cradle hands the first ball's speed to the last", "[joints][scene]") {
  auto world = loadWorld("cradle");
  World& w = *world;
  const std::vector<BodyId> ids = w.bodyIds();
  // Ground, two bars, four posts, then the five balls; the first lifted.
  REQUIRE(ids.size() == 12);
  std::vector<BodyId> balls(ids.begin() + 7, ids.end());
  const Real restY = (*w.body(balls[1])).centerOfMass.y;
  const Real lift = (*w.body(balls[0])).centerOfMass.y - restY;
  REQUIRE(lift > 0.05);
  const Real e0 = swingEnergy(w, balls, restY);
  auto speed = [&](int i) { return glm::length((*w.body(balls[i])).linearVelocity); };
  Real vIn = 0.0, vOut = 0.0, rise = 0.0, middle = 0.0;
  int hit = -1;
  for (int step = 0; step < 600; ++step) {
    REQUIRE(w.step(w.settings().dt));
    if (hit < 0) {
      if (speed(1) > 0.01 || speed(4) > 0.01)
        hit = step;
      else
        vIn = std::max(vIn, speed(0));
    } else if (step < hit + 60) {  // the last ball's swing out and back (half a period 1.05 s)
      vOut = std::max(vOut, speed(4));
      rise = std::max(rise, (*w.body(balls[4])).centerOfMass.y - restY);
      if (step > hit + 3) middle = std::max({middle, speed(0), speed(1), speed(2), speed(3)});
    }
  }
  const Real e1 = swingEnergy(w, balls, restY);
  INFO("first ball in at " << vIn << " m/s, last ball out at " << vOut << " m/s (" << vOut / vIn
                           << "); the others after it up to " << middle << " m/s; the last "
                           << "ball rises " << rise << " m, the first was lifted " << lift
                           << " m; swing energy " << e0 << " J at the start, " << e1
                           << " after 10 s");
  REQUIRE(hit > 0);
  CHECK(vOut > 0.9 * vIn);
  // No energy gained: the last ball rises no higher than the first was lifted (1% for the
  // solver's soft rods), and the cradle ends with less than it started with.
  CHECK(rise < 1.01 * lift);
  CHECK(rise > 0.8 * lift);
  CHECK(e1 < e0);
}

TEST_CASE("The car drives at its wheels' radius times their motor speed", "[joints][scene]") {
  auto world = loadWorld("car");
  World& w = *world;
  const std::vector<BodyId> ids = w.bodyIds();
  const BodyId chassis = ids[1];
  // The wheels: the hinges with a motor (axis -z: a positive speed rolls towards +x).
  std::vector<JointId> wheels;
  Real radius = 0.0;
  for (JointId id : w.jointIds()) {
    const JointView v = *w.joint(id);
    if (v.type != JointType::Hinge || v.motor.maxEffort == 0.0) continue;
    wheels.push_back(id);
    const BodyView wheel = *w.body(v.b);
    REQUIRE(wheel.shape.cylinder() != nullptr);
    radius = wheel.shape.cylinder()->support.radius;
  }
  REQUIRE(wheels.size() == 4);
  const Real omega = 6.0;  // rad/s
  for (JointId id : wheels) {
    JointMotor m = (*w.joint(id)).motor;
    m.enabled = true;
    m.speed = omega;
    REQUIRE(w.setJointMotor(id, m));
  }
  const Real dt = w.settings().dt;
  // Speed up for 1.5 s, then measure the mean speed over 1 s on the flat (the first ramp starts
  // 9 m ahead).
  for (int i = 0; i < 90; ++i) REQUIRE(w.step(dt));
  const Vec3 x0 = (*w.body(chassis)).centerOfMass;
  Real sideways = 0.0;
  for (int i = 0; i < 60; ++i) {
    REQUIRE(w.step(dt));
    sideways = std::max(sideways, std::abs((*w.body(chassis)).linearVelocity.z));
  }
  const Vec3 x1 = (*w.body(chassis)).centerOfMass;
  const Real speed = (x1.x - x0.x) / (60 * dt);
  INFO("wheel radius " << radius << " m x motor speed " << omega << " rad/s = " << radius * omega
                       << " m/s; the car drove " << speed << " m/s, sideways up to " << sideways
                       << " m/s; chassis height " << x1.y << " m");
  CHECK_THAT(speed, WithinRel(radius * omega, 0.03));
  CHECK(sideways < 0.05);
  CHECK(x1.y > 0.3);  // still on its wheels
}

TEST_CASE("The car's hubs keep their place on the chassis, standing and driving",
          "[joints][scene]") {
  // The rear hubs are fixed joints between the 300 kg chassis and 12 kg hubs (6 cm spheres).
  // Anchored half-way between the centres (and with 8 kg hubs, whose joints the mass ratio kept
  // out of the exact groups) their soft rows let the hubs drop 31 cm and turn 14 degrees under
  // the car's standing weight; the anchor is now weighted by inverse mass, at the hub.
  auto world = loadWorld("car");
  World& w = *world;
  const std::vector<BodyId> ids = w.bodyIds();
  const BodyId chassis = ids[1];
  const std::vector<BodyId> hubs = {ids[2], ids[4], ids[6], ids[8]};  // front, front, rear, rear
  auto relative = [&](BodyId hub) {
    const BodyView c = *w.body(chassis), h = *w.body(hub);
    return std::pair{glm::conjugate(c.rotation) * (h.centerOfMass - c.centerOfMass),
                     glm::conjugate(c.rotation) * h.rotation};
  };
  std::vector<std::pair<Vec3, Quat>> start;
  for (BodyId hub : hubs) start.push_back(relative(hub));
  Real widestGap = 0.0, moved = 0.0;
  Real turned[4] = {}, standing = 0.0;
  const Real dt = w.settings().dt;
  for (int i = 0; i < 600; ++i) {
    if (i == 300) {  // stood 5 s; then every wheel's motor at 6 rad/s
      standing = *std::max_element(turned, turned + 4);
      for (JointId id : w.jointIds()) {
        JointMotor m = (*w.joint(id)).motor;
        if (m.maxEffort == 0.0) continue;
        m.enabled = true;
        m.speed = 6.0;
        REQUIRE(w.setJointMotor(id, m));
      }
    }
    REQUIRE(w.step(dt));
    for (JointId id : w.jointIds()) {
      const JointView v = *w.joint(id);
      widestGap = std::max(widestGap, glm::length(v.anchorA - v.anchorB));
    }
    for (size_t k = 0; k < hubs.size(); ++k) {
      const auto [p, q] = relative(hubs[k]);
      moved = std::max(moved, glm::length(p - start[k].first));
      turned[k] = std::max(turned[k],
                           2.0 * std::acos(std::min(1.0, std::abs(glm::dot(q, start[k].second)))));
    }
  }
  const Real degrees = 180.0 / std::numbers::pi;
  INFO("widest anchor gap " << widestGap * 1000.0 << " mm; a hub moved on the chassis by up to "
                            << moved * 1000.0 << " mm; turned standing " << standing * degrees
                            << " degrees; driving: front hubs " << turned[0] * degrees << ", "
                            << turned[1] * degrees << ", rear hubs " << turned[2] * degrees << ", "
                            << turned[3] * degrees << " degrees");
  CHECK(widestGap < 0.01);
  CHECK(moved < 0.01);
  CHECK(standing * degrees < 1.0);
  // Under the motors' torque: the front hubs' steering hinges, held at 0 by limits [0, 0], gave
  // 4.6 degrees while those limits were a soft row (before lockedHinge, joint_solver.cpp).
  for (Real t : turned) CHECK(t * degrees < 1.0);
  // Steering, as the demo steers: both front hubs' limits set to [0.3, 0.3] between steps.
  std::vector<JointId> steering;
  for (JointId id : w.jointIds()) {
    const JointView v = *w.joint(id);
    if (v.type == JointType::Hinge && v.limits.enabled) steering.push_back(id);
  }
  REQUIRE(steering.size() == 2);
  for (JointId id : steering) REQUIRE(w.setJointLimits(id, {true, 0.3, 0.3}));
  Real worst = 0.0;
  for (int i = 0; i < 120; ++i) {
    REQUIRE(w.step(dt));
    if (i >= 10)
      for (JointId id : steering) worst = std::max(worst, std::abs((*w.joint(id)).position - 0.3));
  }
  INFO("steered to 0.3 rad: off by up to " << worst << " rad after 10 steps");
  CHECK(worst < 0.01);
}

TEST_CASE("A pushed door stops at its hinge limits", "[joints][scene]") {
  auto world = loadWorld("door");
  World& w = *world;
  // The two doors' hinges (to the static world): +-90 degrees, and 0 to 100 degrees.
  std::vector<JointId> hinges;
  for (JointId id : w.jointIds())
    if ((*w.joint(id)).type == JointType::Hinge) hinges.push_back(id);
  REQUIRE(hinges.size() == 2);
  Real over = 0.0;  // rad, beyond a limit
  Real reached[2][2] = {{0.0, 0.0}, {0.0, 0.0}};
  const Real dt = w.settings().dt;
  // 1000 N m about the hinge axis, one way for 2 s then the other, on each door; the right door's
  // spring and the 4 N m friction push back.
  for (int i = 0; i < 480; ++i) {
    const Real sign = (i / 120) % 2 == 0 ? 1.0 : -1.0;
    for (int k = 0; k < 2; ++k) {
      const JointView v = *w.joint(hinges[k]);
      w.applyTorque(v.b, sign * 1000.0 * v.axis);
    }
    REQUIRE(w.step(dt));
    for (int k = 0; k < 2; ++k) {
      const JointView v = *w.joint(hinges[k]);
      over = std::max({over, v.position - v.limits.upper, v.limits.lower - v.position});
      reached[k][0] = std::min(reached[k][0], v.position);
      reached[k][1] = std::max(reached[k][1], v.position);
    }
  }
  INFO("beyond a limit by at most "
       << over * 180.0 / 3.14159265358979 << " degrees; left door " << reached[0][0] << " to "
       << reached[0][1] << " rad, right door " << reached[1][0] << " to " << reached[1][1]
       << " rad");
  CHECK(over < 1.0 * 3.14159265358979 / 180.0);
  // Both limits were reached (the load does push the doors against them).
  const JointView left = *w.joint(hinges[0]), right = *w.joint(hinges[1]);
  CHECK(reached[0][0] < left.limits.lower + 0.02);
  CHECK(reached[0][1] > left.limits.upper - 0.02);
  CHECK(reached[1][1] > right.limits.upper - 0.02);
  CHECK(reached[1][0] < right.limits.lower + 0.02);
}

TEST_CASE("The loops scene's joints hold, its closing joints with them", "[joints][scene]") {
  // assets/scenes/loops.json: a curtain of 5 x 4 spheres on ball joints (12 loops), a necklace
  // of 12 hinged boxes hung from one point (one loop) and a hoop of 10 capsules on ball joints on
  // the ground (one loop, no joint to the world). The joints that close the loops are solved with
  // their groups (JointSet::Closure): 2.8 mm at most over 30 s; 5.4 mm with them in the passes.
  std::unique_ptr<World> w = loadWorld("loops");
  REQUIRE(w->jointCount() == 56);
  Real widest = 0.0;
  for (int i = 0; i < 1800; ++i) {
    REQUIRE(w->step(1.0 / 60.0));
    for (JointId id : w->jointIds()) {
      const JointView v = *w->joint(id);
      widest = std::max(widest, glm::length(v.anchorA - v.anchorB));
    }
  }
  int curtainAwake = 0;  // bodies 1 to 20
  for (BodyId id : w->bodyIds())
    if (id.index >= 1 && id.index <= 20) curtainAwake += w->body(id)->awake;
  INFO("widest anchor gap " << widest * 1000.0 << " mm; curtain bodies awake " << curtainAwake);
  CHECK(w->nonFiniteEvents().empty());
  CHECK(widest < 0.004);
  CHECK(curtainAwake == 0);  // the damped curtain comes to rest within 30 s
}
