// The contact solver's rows whose body a (or b) is the immovable solver body 0 in every lane
// (contact_solver.h, Still) run kernels that skip that side. They must give the bits of the
// general kernel: the solver is stepped twice from the same bodies and manifolds, once with the
// still kernels and once with every row on the general kernel, and every body's pose and
// velocities and every manifold's impulses are compared bit for bit. The ground is made first
// (its contacts put it on side a: Still::A) or last (side b: Still::B), under spheres, capsules
// and boxes with restitution and rolling resistance, one thread and four. The rows packed by the
// AVX2 build of packRow are compared with the baseline build's the same way.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <vector>

#include "dynamics/contact_solver.h"
#include "dynamics/world_internals.h"
#include "tumble/task.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

namespace {

template <class T>
bool sameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// A mixed heap on a ground made before or after it; every other body bounces a little and every
// third sphere or capsule has rolling resistance.
std::unique_ptr<World> makeHeap(bool groundLast) {
  Settings s;
  s.sleep.enabled = false;
  auto world = std::make_unique<World>(s);
  World& w = *world;
  if (!groundLast) addGround(w, 20.0, 0.6);
  int k = 0;
  for (int layer = 0; layer < 3; ++layer)
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j, ++k) {
        BodyDef def;
        def.position = Vec3(1.1 * i - 2.2 + 0.05 * layer, 0.6 + 1.1 * layer, 1.1 * j - 2.2);
        def.friction = 0.4 + 0.05 * (k % 4);
        def.restitution = k % 2 == 0 ? 0.3 : 0.0;
        switch (k % 3) {
          case 0:
            def.shape = *makeSphere(0.5);
            break;
          case 1:
            def.shape = *makeCapsule(0.3, 0.2);
            break;
          default:
            def.shape = boxHull(Vec3(0.45, 0.4, 0.45));
            break;
        }
        if (k % 3 != 2 && k % 4 == 1) def.rollingResistance = 0.05;
        def.linearVelocity = Vec3(0.3 * (i - 2), -1.0, 0.2 * (j - 2));
        REQUIRE(w.createBody(def));
      }
  if (groundLast) addGround(w, 20.0, 0.6);
  return world;
}

// Steps the solver from the world's bodies and last manifolds twice, the second time with
// `change` applied to its solver first, calls `after` with both solvers, and compares the results
// bit for bit; returns the first solver's still rows.
template <class Change, class After>
int compareSolvers(const World& w, TaskSystem* tasks, Change&& change, After&& after) {
  std::vector<Body> withStill = WorldInternals::bodies(w), general = withStill;
  std::vector<Manifold> mStill = w.manifolds(), mGeneral = mStill;
  std::vector<DragConstraint*> drags;
  ContactSolver on, off;
  change(off);
  const Real dt = 1.0 / 60.0;
  on.step(withStill, mStill, drags, w.settings(), dt, nullptr, tasks);
  off.step(general, mGeneral, drags, w.settings(), dt, nullptr, tasks);
  after(static_cast<const ContactSolver&>(on), static_cast<const ContactSolver&>(off));
  REQUIRE(on.constraintCount() == off.constraintCount());
  for (size_t i = 0; i < general.size(); ++i) {
    INFO("body " << i);
    CHECK(sameBits(withStill[i].center, general[i].center));
    CHECK(sameBits(withStill[i].rotation, general[i].rotation));
    CHECK(sameBits(withStill[i].linearVelocity, general[i].linearVelocity));
    CHECK(sameBits(withStill[i].angularVelocity, general[i].angularVelocity));
  }
  for (size_t i = 0; i < mGeneral.size(); ++i) {
    INFO("manifold " << i);
    for (int k = 0; k < mGeneral[i].pointCount; ++k)
      CHECK(sameBits(mStill[i].points[k].normalImpulse, mGeneral[i].points[k].normalImpulse));
    CHECK(sameBits(mStill[i].frictionImpulse, mGeneral[i].frictionImpulse));
    CHECK(sameBits(mStill[i].twistImpulse, mGeneral[i].twistImpulse));
    CHECK(sameBits(mStill[i].rollingImpulse, mGeneral[i].rollingImpulse));
  }
  return on.stillRowCount();
}

// The same with the still kernels off in the second.
int compareKernels(const World& w, TaskSystem* tasks) {
  return compareSolvers(
      w, tasks, [](ContactSolver& off) { off.setStillKernels(false); },
      [](const ContactSolver&, const ContactSolver& off) { REQUIRE(off.stillRowCount() == 0); });
}

// Steps makeHeap(groundLast) for 150 steps and calls check(world, tasks) after every tenth, tasks
// a pool of `threads` workers (null for one).
template <class Check>
std::unique_ptr<World> stepHeap(bool groundLast, int threads, Check&& check) {
  INFO("ground made " << (groundLast ? "last" : "first") << ", threads " << threads);
  ThreadPool pool(threads);
  std::unique_ptr<World> world = makeHeap(groundLast);
  for (int step = 1; step <= 150; ++step) {
    REQUIRE(world->step(1.0 / 60.0));
    if (step % 10 == 0) check(static_cast<const World&>(*world), threads > 1 ? &pool : nullptr);
  }
  return world;
}

}  // namespace

TEST_CASE("Rows against the immovable body give the general kernel's bits", "[solver][still]") {
  const bool groundLast = GENERATE(false, true);
  const int threads = GENERATE(1, 4);
  int stillRows = 0, steps = 0;
  const std::unique_ptr<World> world =
      stepHeap(groundLast, threads, [&](const World& w, TaskSystem* tasks) {
        stillRows += compareKernels(w, tasks);
        ++steps;
      });
  const World& w = *world;
  // The heap lands within the first checks: the ground's contacts fill still rows at every
  // check after that (75 bodies, up to 19 rows of four).
  CHECK(stillRows >= 4 * (steps - 2));
  // The ground's side: a when it was made first (the lower index), b when last.
  const Manifold* ground = nullptr;
  for (const Manifold& m : w.manifolds())
    if (m.touching() && WorldInternals::body(w, m.a).type == BodyType::Static) ground = &m;
  CHECK((ground != nullptr) == !groundLast);
}

// The rows are packed by an AVX2 build of packRow where the CPU has it (contact_solver.h,
// setAvx2Packing): the same double operations four lanes to an instruction, so the same bits as
// the baseline build's two. Compared here as the still kernels are above, on the same heap.
TEST_CASE("Rows packed by the AVX2 build give the baseline build's bits", "[solver][avx2]") {
  if (!ContactSolver::hasAvx2Packing()) {
    WARN("this build or CPU has no AVX2 packing: nothing to compare");
    return;
  }
  const bool groundLast = GENERATE(false, true);
  const int threads = GENERATE(1, 4);
  stepHeap(groundLast, threads, [](const World& w, TaskSystem* tasks) {
    compareSolvers(
        w, tasks, [](ContactSolver& baseline) { baseline.setAvx2Packing(false); },
        [](const ContactSolver& avx2, const ContactSolver& baseline) {
          CHECK(avx2.avx2Packing());  // on by default where the CPU has AVX2
          CHECK_FALSE(baseline.avx2Packing());
        });
  });
}
