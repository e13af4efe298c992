// World basics: bodies, mass properties, free fall, a box at rest on the ground.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "dynamics/body_ops.h"
#include "dynamics/contact_solver.h"
#include "dynamics/contact_update.h"
#include "dynamics/world_internals.h"
#include "geometry/tangent_basis.h"
#include "tumble/collide.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// The world's contact update of one pair, as World::updateContacts runs it: collide() on the
// bodies' shapes and transforms (warm-started from `previous`), then updateManifold.
void collidePair(const Body& a, const Body& b, const Settings& s, const Manifold* previous,
                 Manifold& m, NarrowPhaseCounters& counters) {
  const GjkSimplex* warm = previous && previous->cache.count > 0 ? &previous->cache : nullptr;
  const CollideResult r =
      collide(a.shape, a.transform(), b.shape, b.transform(), s.contact.speculativeMargin, s, warm);
  updateManifold(a, b, r, previous, m, counters);
}

}  // namespace

TEST_CASE("body definitions are validated and mass comes from the hull", "[world]") {
  World w{Settings{}};
  BodyDef def;
  auto bad = w.createBody(def);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("shape"));
  def.shape = boxHull(Vec3(0.5, 1.0, 1.5));
  def.friction = -1.0;
  CHECK_THAT(w.createBody(def).error(), Catch::Matchers::Contains("friction"));
  def.friction = 0.5;
  def.orientation = Quat(0, 0, 0, 0);
  CHECK_THAT(w.createBody(def).error(), Catch::Matchers::Contains("orientation"));
  def.orientation = Quat(2.0, 0, 0, 0);  // renormalised
  def.density = 10.0;
  auto id = w.createBody(def);
  REQUIRE(id);
  const BodyView b = *w.body(*id);
  CHECK_THAT(glm::length(b.rotation), WithinAbs(1.0, 1e-15));
  CHECK_THAT(b.mass, WithinRel(10.0 * 1.0 * 2.0 * 3.0, 1e-12));
  // Box inertia: m/12 (b^2 + c^2) with full sides 1, 2, 3.
  CHECK_THAT(b.localInertia[0][0], WithinRel(60.0 / 12.0 * (4.0 + 9.0), 1e-9));
  CHECK_THAT(b.localInertia[1][1], WithinRel(60.0 / 12.0 * (1.0 + 9.0), 1e-9));
}

TEST_CASE("free fall follows semi-implicit Euler exactly", "[world]") {
  World w{Settings{}};
  const BodyId id = addBox(w, Vec3(0.0, 100.0, 0.0));
  const Real dt = w.settings().dt;
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
  // Over n substeps of h = dt / substeps: v_n = n g h; y_n = y0 + g h^2 n (n + 1) / 2.
  const int n = 60 * w.settings().solver.substeps;
  const Real h = dt / w.settings().solver.substeps;
  CHECK_THAT(w.body(id)->linearVelocity.y, WithinAbs(-9.81 * n * h, 1e-9));
  CHECK_THAT(w.body(id)->centerOfMass.y, WithinAbs(100.0 - 9.81 * h * h * n * (n + 1) / 2.0, 1e-9));
}

TEST_CASE("a box on the ground comes to rest without drift", "[world][stability]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s_) { s_.sleep.enabled = false; });
  addGround(w);
  const BodyId box = addBox(w, Vec3(0.0, 0.5 + 0.05, 0.0));
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(w.settings().dt));
  const BodyView b = *w.body(box);
  CHECK(glm::length(b.linearVelocity) < 1e-3);
  const Vec3 rest = b.centerOfMass;
  Real worstPen = 0.0;
  for (int i = 0; i < 600; ++i) {
    REQUIRE(w.step(w.settings().dt));
    worstPen = std::max(worstPen, w.stats().maxPenetration);
  }
  CHECK(worstPen <= w.settings().contact.slop + 1e-3);
  CHECK(glm::length(w.body(box)->centerOfMass - rest) < 1e-3);
  CHECK(glm::length(w.body(box)->linearVelocity) < 1e-3);
  CHECK(allFinite(w));
}

// Slots of destroyed bodies are reused with a new generation: ids stay unambiguous and a world
// with bodies added and removed keeps a bounded size (the long run of tumble-cli sim --churn).
TEST_CASE("destroyed bodies' slots are reused and their old ids stay dead", "[world]") {
  World w{Settings{}};
  addGround(w);
  std::vector<BodyId> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(addBox(w, Vec3(2.0 * i, 1.0, 0.0)));
  const int slots = ids.back().index + 1;
  const BodyId old = ids[3];
  w.destroyBody(old);
  CHECK_FALSE(w.isAlive(old));
  const BodyId fresh = addBox(w, Vec3(0.0, 5.0, 3.0), Vec3(0.25));
  CHECK(fresh.index == old.index);
  CHECK(fresh.generation == old.generation + 1);
  CHECK(fresh != old);
  CHECK(w.isAlive(fresh));
  CHECK_FALSE(w.isAlive(old));
  CHECK(w.body(fresh)->centerOfMass.y == 5.0);
  {
    CountAsserts asserts;
    w.destroyBody(old);  // a stale id leaves the slot's new body alone, and is reported
    CHECK(asserts.count() == 1);
  }
  CHECK(w.isAlive(fresh));
  CHECK(w.bodyCount() == 11);

  // Churn: remove a dynamic body (each in turn), add one, step; the slot count never grows.
  for (int step = 0; step < 600; ++step) {
    auto live = w.bodyIds();
    const BodyId victim = live[1 + step % (live.size() - 1)];  // never the ground (slot 0)
    w.destroyBody(victim);
    const BodyId added = addBox(w, Vec3(0.1 * (step % 40), 4.0, 0.0));
    CHECK(added.index == victim.index);
    REQUIRE(w.step(w.settings().dt));
    REQUIRE(allFinite(w));
  }
  int maxIndex = 0;
  for (BodyId id : w.bodyIds()) maxIndex = std::max(maxIndex, id.index);
  CHECK(maxIndex < slots);
  CHECK(w.bodyCount() == 11);
}

// Removing a body wakes what rested on it: a sleeping box on a sleeping box, and a sleeping box
// on a static slab, both fall once their support is gone.
TEST_CASE("destroying a support wakes the bodies that rested on it", "[world][sleep]") {
  World w{Settings{}};
  const BodyId ground = addGround(w);
  const BodyId bottom = addBox(w, Vec3(0.0, 0.5, 0.0));
  const BodyId top = addBox(w, Vec3(0.0, 1.5, 0.0));
  BodyDef slabDef;
  slabDef.type = BodyType::Static;
  slabDef.shape = boxHull(Vec3(1.0, 0.1, 1.0));
  slabDef.position = Vec3(5.0, 2.0, 0.0);
  const BodyId slab = *w.createBody(slabDef);
  const BodyId onSlab = addBox(w, Vec3(5.0, 2.6, 0.0));
  for (int i = 0; i < 600 && (w.body(top)->awake || w.body(onSlab)->awake); ++i)
    REQUIRE(w.step(w.settings().dt));
  REQUIRE_FALSE(w.body(top)->awake);
  REQUIRE_FALSE(w.body(onSlab)->awake);

  w.destroyBody(bottom);
  w.destroyBody(slab);
  CHECK(w.body(top)->awake);
  CHECK(w.body(onSlab)->awake);
  const Real topY = w.body(top)->centerOfMass.y, slabY = w.body(onSlab)->centerOfMass.y;
  for (int i = 0; i < 30; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK(w.body(top)->centerOfMass.y < topY - 0.5);      // fell towards the ground
  CHECK(w.body(onSlab)->centerOfMass.y < slabY - 0.5);  // fell past where the slab was
  CHECK(w.isAlive(ground));
}

TEST_CASE("A box touching a large ground at a point gets the ground's normal, not a side's",
          "[world][manifold]") {
  // Recorded in the 2000-box heap (seed 1, step 214): GJK, warm-started from the last step's
  // simplex, finds the cube 1.8e-12 m above the ground, too close for its witnesses to give a
  // direction. The old fallback took the direction between the centres, which from a 200 m ground
  // points at its side: a contact 90.7 m deep that threw the cube sideways.
  World w{Settings{}};
  const BodyId ground = addGround(w, 100.0);
  const Quat q(-0.18953649556587257, -4.4670316000408693e-11, -0.98187367662475211,
               -2.1065722563301774e-12);
  const BodyId cube = addBox(w, Vec3(7.7168403143828392, 0.49999999995573474, -16.496952086108649),
                             Vec3(0.5), 0.5, 0.0, q);
  Manifold previous;
  const int ia[4] = {3, 6, 2, 7}, ib[4] = {1, 1, 4, 4};
  previous.cache.count = 4;
  for (int k = 0; k < 4; ++k) previous.cache.indexA[k] = ia[k], previous.cache.indexB[k] = ib[k];
  Manifold m;
  NarrowPhaseCounters counters;
  const Settings s;
  collidePair(WorldInternals::body(w, ground), WorldInternals::body(w, cube), s, &previous, m,
              counters);
  // Independent: the ground's top face is y = 0, so the contact is the cube's lowest corners.
  Real lowest = 1e300;
  for (const Vec3& v : w.body(cube)->shape.hull()->vertices())
    lowest = std::min(lowest, w.body(cube)->transform().apply(v).y);
  REQUIRE(m.pointCount > 0);
  CHECK_THAT(m.normal.y, WithinAbs(1.0, 1e-9));
  for (int k = 0; k < m.pointCount; ++k)
    CHECK_THAT(m.points[k].separation, WithinAbs(lowest, 1e-6));
}

TEST_CASE("A box turned on a box rests on four points that surround its centre",
          "[world][manifold]") {
  // A cube on a cube turned about the vertical: the clipped faces overlap in a polygon of up to
  // eight corners, which the manifold reduces to four. The four must span the polygon on both
  // sides of its longest diagonal. Three points on one side leave the upper cube's centre on the
  // edge of its support, and a resting heap creeps until it tips (2000-box heap, seed 1).
  const Settings s;
  for (int i = 0; i < 36; ++i) {
    const Real angle = glm::radians(2.5 * i + 1.0);
    for (const Vec3& offset : {Vec3(0.0), Vec3(0.21, 0.0, -0.13), Vec3(-0.3, 0.0, 0.07)}) {
      World w{Settings{}};
      const BodyId lower = addBox(w, Vec3(0.0, 0.5, 0.0), Vec3(0.5), 0.5, 0.0);
      const Quat q = glm::angleAxis(angle, Vec3(0.0, 1.0, 0.0));
      const Vec3 top = Vec3(0.0, 1.499, 0.0) + offset;  // 1 mm into the lower cube
      const BodyId upper = addBox(w, top, Vec3(0.5), 0.5, 0.0, q);
      Manifold m;
      NarrowPhaseCounters counters;
      collidePair(WorldInternals::body(w, lower), WorldInternals::body(w, upper), s, nullptr, m,
                  counters);
      INFO("angle " << glm::degrees(angle) << " deg, offset " << offset.x << ", " << offset.z);
      CHECK(m.pointCount == 4);
      REQUIRE(m.pointCount >= 3);
      const int n = m.pointCount;
      CHECK_THAT(m.normal.y, WithinAbs(1.0, 1e-9));
      // The points in the horizontal plane, in angular order about their mean.
      std::vector<glm::dvec2> p(n);
      glm::dvec2 mean(0.0);
      for (int k = 0; k < n; ++k) {
        const BodyView b = *w.body(upper);
        const Vec3 world = b.centerOfMass + b.rotation * m.points[k].localB;
        CHECK_THAT(m.points[k].separation, WithinAbs(-0.001, 1e-9));
        p[k] = glm::dvec2(world.x, world.z);
        mean += p[k] / static_cast<Real>(n);
      }
      std::sort(p.begin(), p.end(), [&](const glm::dvec2& a, const glm::dvec2& b) {
        return std::atan2(a.y - mean.y, a.x - mean.x) < std::atan2(b.y - mean.y, b.x - mean.x);
      });
      // The support polygon holds the upper centre at least 5 cm inside each edge (the overlap of
      // the two faces holds it at least 0.2 m inside for these offsets; four of its corners
      // hold it at least 9 cm inside here).
      const glm::dvec2 c(top.x, top.z);
      for (int k = 0; k < n; ++k) {
        const glm::dvec2 e = p[(k + 1) % n] - p[k];
        const Real inside = (e.x * (c.y - p[k].y) - e.y * (c.x - p[k].x)) / glm::length(e);
        CHECK(inside > 0.05);
      }
    }
  }
}

TEST_CASE("A manifold whose points change keeps carrying its load", "[world][manifold]") {
  // Warm start: a point with last step's feature id (or within 2 cm of an old point) takes that
  // point's impulse; what old points left unmatched carried goes in equal shares to the new
  // points left unmatched, so the manifold's total is kept when reduce() picks other corners.
  World w{Settings{}};
  const BodyId ground = addGround(w, 20.0);
  const BodyId box = addBox(w, Vec3(0.1, 0.499, -0.2), Vec3(0.5), 0.5, 0.0,
                            glm::angleAxis(0.3, Vec3(0.0, 1.0, 0.0)));
  const Settings s;
  NarrowPhaseCounters counters;
  Manifold first;
  collidePair(WorldInternals::body(w, ground), WorldInternals::body(w, box), s, nullptr, first,
              counters);
  REQUIRE(first.pointCount == 4);
  for (int k = 0; k < 4; ++k) CHECK(first.points[k].normalImpulse == 0.0);
  Manifold previous = first;
  const Real load[4] = {0.3, 0.2, 0.4, 0.1};
  for (int k = 0; k < 4; ++k) previous.points[k].normalImpulse = load[k];
  // Points 2 and 3 become features the new manifold does not have, half a metre away.
  for (int k = 2; k < 4; ++k) {
    previous.points[k].id = 0xFFFFFF00u + static_cast<uint32_t>(k);
    previous.points[k].localB += Vec3(0.0, 0.0, 0.5);
  }
  Manifold next;
  collidePair(WorldInternals::body(w, ground), WorldInternals::body(w, box), s, &previous, next,
              counters);
  REQUIRE(next.pointCount == 4);
  Real total = 0.0;
  for (int k = 0; k < 4; ++k) {
    const uint32_t id = next.points[k].id;
    INFO("point " << k << " id " << id);
    if (id == first.points[0].id) {
      CHECK(next.points[k].normalImpulse == 0.3);
    } else if (id == first.points[1].id) {
      CHECK(next.points[k].normalImpulse == 0.2);
    } else {
      CHECK_THAT(next.points[k].normalImpulse, WithinAbs(0.25, 1e-15));
    }
    total += next.points[k].normalImpulse;
  }
  CHECK_THAT(total, WithinAbs(1.0, 1e-15));
}

TEST_CASE("The contact update carries impulses by feature id, friction across a small turn",
          "[world][manifold]") {
  // updateManifold on a hand-made collide() answer: no narrow phase involved. Point id 9 continues
  // an old point (its impulse carries), id 7 is new and takes the load of the old point id 3 that
  // has no successor; the friction impulse keeps its world direction in the new tangents.
  World w{Settings{}};
  const BodyId ground = addGround(w, 20.0);
  const BodyId box = addBox(w, Vec3(0.0, 0.5, 0.0));
  const Body& A = WorldInternals::body(w, ground);
  const Body& B = WorldInternals::body(w, box);
  CollideResult r;
  r.normal = glm::normalize(Vec3(0.0, 1.0, 0.1));
  r.pointCount = 2;
  r.points[0] = {Vec3(0.3, 0.0, 0.2), Vec3(0.3, -0.001, 0.2), -0.001, 7};
  r.points[1] = {Vec3(-0.3, 0.0, 0.2), Vec3(-0.3, -0.001, 0.2), -0.001, 9};
  r.gjk.status = GjkStatus::Intersecting;
  r.gjk.iterations = 3;
  r.gjk.simplex.count = 1;
  r.overlapping = true;
  r.distance = -0.001;
  r.epa.iterations = 5;
  Manifold previous;
  previous.normal = Vec3(0.0, 1.0, 0.0);
  tangentBasis(previous.normal, previous.tangent1, previous.tangent2);
  previous.pointCount = 2;
  previous.points[0].id = 3;
  previous.points[0].localB = Vec3(5.0, 0.0, 0.0);  // far from every new point
  previous.points[0].normalImpulse = 0.25;
  previous.points[1].id = 9;
  previous.points[1].normalImpulse = 0.5;
  previous.frictionImpulse[0] = 0.1;
  previous.frictionImpulse[1] = -0.2;
  previous.twistImpulse = 0.05;
  Manifold m;
  NarrowPhaseCounters counters;
  updateManifold(A, B, r, &previous, m, counters);
  REQUIRE(m.pointCount == 2);
  CHECK(m.points[0].normalImpulse == 0.25);
  CHECK(m.points[1].normalImpulse == 0.5);
  CHECK(m.cache.count == 1);
  CHECK(m.overlapping);
  CHECK(m.distance == -0.001);
  CHECK(m.gjkIterations == 3);
  CHECK(m.epaIterations == 5);
  CHECK(counters.gjkCalls == 1);
  CHECK(counters.epaCalls == 1);
  CHECK(counters.epaIterations == 5);
  // Anchors relative to each centre of mass, in body axes.
  CHECK_THAT(glm::length(m.points[1].localB - (Vec3(-0.3, -0.001, 0.2) - B.center)),
             WithinAbs(0.0, 1e-15));
  CHECK_THAT(glm::length(m.points[0].localA - (Vec3(0.3, 0.0, 0.2) - A.center)),
             WithinAbs(0.0, 1e-15));
  // Friction: the same world vector, projected on the new tangents (the normal turned 5.7 deg).
  const Vec3 before = previous.frictionImpulse[0] * previous.tangent1 +
                      previous.frictionImpulse[1] * previous.tangent2;
  const Vec3 after = m.frictionImpulse[0] * m.tangent1 + m.frictionImpulse[1] * m.tangent2;
  CHECK_THAT(glm::length(after - (before - glm::dot(before, m.normal) * m.normal)),
             WithinAbs(0.0, 1e-15));
  CHECK(m.twistImpulse == 0.05);
  // Turned past the limit, friction starts from zero.
  r.normal = glm::normalize(Vec3(0.0, 1.0, 1.0));
  Manifold turned;
  updateManifold(A, B, r, &previous, turned, counters);
  CHECK(turned.frictionImpulse[0] == 0.0);
  CHECK(turned.twistImpulse == 0.0);
  CHECK(counters.gjkCalls == 2);
}

TEST_CASE("A corner pressed into a face resists twisting over a patch as wide as it is deep",
          "[world][solver]") {
  // One contact point under a spinning cube, 4 mm deep, carrying 100 N s per substep. The twist
  // friction about the normal is limited to mu * load * arm; a single point has no spread, so the
  // arm is the depth (the corner overlaps the face in a patch about that wide). Without it a body
  // pinched between two corners swings about the line through them for ever. One substep of
  // 1/60 s with gravity 6 m/s^2 on 1000 kg: the relax pass (where friction is solved) ends with
  // the point at rest along the normal, so the load is then m g h = 100 N s exactly.
  World w{Settings{}};
  const BodyId ground = addGround(w, 20.0, 0.5);
  const BodyId cube = addBox(w, Vec3(0.0, 0.496, 0.0), Vec3(0.5), 0.5, 0.0);  // 1000 kg
  std::vector<Body> bodies = {WorldInternals::body(w, ground), WorldInternals::body(w, cube)};
  bodies[1].angularVelocity = Vec3(0.0, 1.0, 0.0);
  const Real depth = 0.004, load = 100.0, h = 1.0 / 60.0;
  std::vector<Manifold> manifolds(1);
  Manifold& m = manifolds[0];
  m.a = BodyId{0, ground.generation};
  m.b = BodyId{1, cube.generation};
  m.normal = Vec3(0.0, 1.0, 0.0);
  tangentBasis(m.normal, m.tangent1, m.tangent2);
  m.friction = 0.5;
  m.pointCount = 1;
  m.points[0].localA = Vec3(0.0, 1.0 - depth, 0.0);  // the ground's centre is 1 m below its top
  m.points[0].localB = Vec3(0.0, -0.5, 0.0);
  m.points[0].separation = -depth;
  m.points[0].normalImpulse = load;
  std::vector<DragConstraint*> drags;
  Settings s;
  s.gravity = Vec3(0.0, -load / (1000.0 * h), 0.0);
  s.solver.substeps = 1;
  s.solver.velocityIterations = 1;
  s.solver.positionIterations = 1;
  ContactSolver solver;
  solver.step(bodies, manifolds, drags, s, h);
  CHECK_THAT(manifolds[0].points[0].normalImpulse, WithinRel(load, 1e-6));
  const Real inertia = 1000.0 / 6.0;  // of a 1 m cube of 1000 kg about an axis through its centre
  // The solver's rows are float (TUMBLE_SOLVER_FLOAT): agreement to float precision of w.
  CHECK_THAT(bodies[1].angularVelocity.y, WithinAbs(1.0 - 0.5 * load * depth / inertia, 1e-6));
  CHECK_THAT(bodies[1].angularVelocity.x, WithinAbs(0.0, 1e-12));
  CHECK_THAT(bodies[1].angularVelocity.z, WithinAbs(0.0, 1e-12));
}

TEST_CASE(
    "a body's reach bounds how much nearer its surface comes in a step, and a sphere's turn adds "
    "nothing",
    "[world][speculative]") {
  // reach(b, h) widens the speculative distance and the body's box: no point of the surface may
  // come nearer to anything than it says in a step of h at the body's velocities. Each shape,
  // placed at random with random velocities beside a box at random, moved as the solver moves it
  // (the centre by v h, the rotation by rotateBy), comes nearer to the box by at most its reach.
  // A turn moves a sphere's surface only as far as its centre moves: a spinning sphere reaches 0;
  // the other shapes take the turn at their bounding radius.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  auto unit = [&] {
    const Quat q(u(rng), u(rng), u(rng), u(rng));
    return glm::normalize(q);
  };
  auto vec = [&](Real scale) { return scale * Vec3(u(rng), u(rng), u(rng)); };
  const std::vector<Vec3> cube = {{-0.4, -0.4, -0.4}, {0.4, -0.4, -0.4}, {-0.4, 0.4, -0.4},
                                  {0.4, 0.4, -0.4},   {-0.4, -0.4, 0.4}, {0.4, -0.4, 0.4},
                                  {-0.4, 0.4, 0.4},   {0.4, 0.4, 0.4}};
  struct Case {
    const char* name;
    Shape shape;
    Real arm;  // the turn's arm in the bound
  };
  const Case cases[] = {{"sphere", *makeSphere(0.5), 0.0},
                        {"capsule", *makeCapsule(0.3, 0.4), 0.7},
                        {"rounded box", *makeRoundedHull(cube, 0.1), 0.4 * std::sqrt(3.0) + 0.1},
                        {"box", *makeBox(Vec3(0.5, 0.2, 0.3)), std::sqrt(0.25 + 0.04 + 0.09)}};
  const Shape obstacle = *makeBox(Vec3(0.6, 0.3, 0.45));
  const Real h = 1.0 / 60.0;
  Settings s;
  for (const Case& c : cases) {
    Body b;
    b.shape = c.shape;
    b.localCenter = c.shape.massProperties(1.0).centerOfMass;
    b.radius = boundingRadius(b);
    b.type = BodyType::Dynamic;
    b.awake = true;
    Real tightest = 0.0;  // the largest share of the reach that a step used
    for (int trial = 0; trial < 400; ++trial) {
      b.center = Vec3(0.0);
      b.rotation = unit();
      b.linearVelocity = trial % 4 == 0 ? Vec3(0.0) : vec(6.0);
      b.angularVelocity = vec(40.0);
      const Transform box{Vec3(2.0, 0.0, 0.0) + vec(0.3), unit()};
      const Real before = collide(b.shape, b.transform(), obstacle, box, 10.0, s).distance;
      const Real bound = reach(b, h);
      CHECK_THAT(bound, WithinRel(h * (glm::length(b.linearVelocity) +
                                       glm::length(b.angularVelocity) * c.arm),
                                  1e-9));
      b.center += h * b.linearVelocity;
      b.rotation = rotateBy(b.rotation, h * b.angularVelocity);
      const Real after = collide(b.shape, b.transform(), obstacle, box, 10.0, s).distance;
      INFO(c.name << " trial " << trial << ": nearer by " << before - after << ", reach " << bound);
      CHECK(before - after <= bound + 1e-9);
      if (bound > 0.0) tightest = std::max(tightest, (before - after) / bound);
    }
    INFO(c.name);
    CHECK(tightest > 0.25);  // the bound is not loose by more than 4x on every trial
  }
  // A sphere spinning in place reaches nothing, and its distance to the box stays the same.
  Body ball;
  ball.shape = *makeSphere(0.5);
  ball.radius = boundingRadius(ball);
  ball.angularVelocity = Vec3(0.0, 0.0, 50.0);
  CHECK(reach(ball, h) == 0.0);
  const Transform box{Vec3(1.2, 0.3, -0.2), unit()};
  const Real before = collide(ball.shape, ball.transform(), obstacle, box, 10.0, s).distance;
  ball.rotation = rotateBy(ball.rotation, h * ball.angularVelocity);
  const Real after = collide(ball.shape, ball.transform(), obstacle, box, 10.0, s).distance;
  CHECK_THAT(after, WithinAbs(before, 1e-12));
}
