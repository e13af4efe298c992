// The heap benchmark of issue 4, Tumble beside Bullet (btDiscreteDynamicsWorld, btDbvtBroadphase,
// btSequentialImpulseConstraintSolver, btConvexHullShape) on the same bodies: a 200 m ground,
// N = 500, 1000, 2000 bodies of 1 kg (1 m cubes, or hulls of 20 random points on a sphere of
// radius 0.5), friction 0.5, restitution 0; 600 steps of 1/60 s, 10 velocity iterations, gravity
// -9.81. Prints mean, 99th percentile and worst ms per step, the ratios, and how many bodies
// still move faster than 0.05 m/s at the end. Step times are the thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID). On a shared virtual machine even that picks up stolen time in spikes,
// so each heap runs TUMBLE_HEAP_REPEATS times (default 3; both engines are deterministic, every
// run does the same work step by step) and each step's least time is kept: the worst step is then
// the costliest step, not the unluckiest. Printed, never asserted.
#include <benchmark/benchmark.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tumble/scene.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;
using Clock = std::chrono::steady_clock;

constexpr int kSteps = 600;
constexpr Real kDt = 1.0 / 60.0;
constexpr uint64_t kSeed = 1;

Real threadMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<Real>(ts.tv_sec) * 1e3 + static_cast<Real>(ts.tv_nsec) * 1e-6;
}

struct RunResult {
  Real meanMs = 0.0, p99Ms = 0.0, worstMs = 0.0, wallMeanMs = 0.0;
  int moving = 0, bodies = 0;
  std::vector<Real> stepMs;  // per step, least over the repeats
};

int repeats() {
  const char* env = std::getenv("TUMBLE_HEAP_REPEATS");
  const int r = env ? std::atoi(env) : 3;
  return std::clamp(r, 1, 100);
}

// Keeps each step's least time of `run` and `into`, then the summary figures.
void merge(RunResult& into, const RunResult& run, bool first) {
  if (first) {
    into = run;
  } else {
    for (size_t i = 0; i < into.stepMs.size(); ++i)
      into.stepMs[i] = std::min(into.stepMs[i], run.stepMs[i]);
    into.wallMeanMs = std::min(into.wallMeanMs, run.wallMeanMs);
  }
  into.meanMs = 0.0;
  for (Real ms : into.stepMs) into.meanMs += ms / static_cast<Real>(into.stepMs.size());
  std::vector<Real> sorted = into.stepMs;
  std::sort(sorted.begin(), sorted.end());
  into.worstMs = sorted.back();
  into.p99Ms = sorted[sorted.size() * 99 / 100];
}

std::map<std::string, RunResult>& results() {
  static std::map<std::string, RunResult> r;
  return r;
}

std::vector<tumble::BodyDef> heap(bool hull20, int n) {
  std::vector<tumble::BodyDef> defs;
  tumble::appendHeap(defs, hull20, n, kSeed);
  return defs;
}

RunResult runTumble(bool hull20, int n) {
  tumble::Settings s;
  s.dt = kDt;
  s.solver.velocityIterations = 10;
  s.gravity = Vec3(0.0, -9.81, 0.0);
  tumble::World world(s);
  for (const auto& d : heap(hull20, n)) (void)world.createBody(d);
  RunResult r;
  for (int i = 0; i < kSteps; ++i) {
    const auto t0 = Clock::now();
    const Real c0 = threadMs();
    (void)world.step();
    r.stepMs.push_back(threadMs() - c0);
    r.wallMeanMs += std::chrono::duration<Real, std::milli>(Clock::now() - t0).count() / kSteps;
  }
  for (tumble::BodyId id : world.bodyIds()) {
    const auto& b = world.body(id);
    if (!b.isDynamic()) continue;
    ++r.bodies;
    if (glm::length(b.linearVelocity) > 0.05) ++r.moving;
  }
  return r;
}

RunResult runBullet(bool hull20, int n) {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, btScalar(-9.81), 0));
  world.getSolverInfo().m_numIterations = 10;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> states;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::map<const tumble::ConvexHull*, btCollisionShape*> shared;
  for (const auto& d : heap(hull20, n)) {
    const bool ground = d.type == tumble::BodyType::Static;
    // Bullet bodies turn about the shape origin: centre the points on the centre of mass.
    const auto mp = d.shape->massProperties(1.0);
    const Vec3 com = ground ? Vec3(0.0) : mp.centerOfMass;
    btCollisionShape* shape = nullptr;
    if (ground) {
      shapes.push_back(std::make_unique<btBoxShape>(btVector3(100, 1, 100)));
      shape = shapes.back().get();
    } else if (auto it = shared.find(d.shape.get()); it != shared.end()) {
      shape = it->second;
    } else {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& p : d.shape->vertices()) {
        const Vec3 q = p - com;
        hull->addPoint(btVector3(btScalar(q.x), btScalar(q.y), btScalar(q.z)), false);
      }
      hull->recalcLocalAabb();
      shape = hull.get();
      shared[d.shape.get()] = shape;
      shapes.push_back(std::move(hull));
    }
    const Vec3 c = d.position + d.orientation * com;
    btTransform xf(btQuaternion(btScalar(d.orientation.x), btScalar(d.orientation.y),
                                btScalar(d.orientation.z), btScalar(d.orientation.w)),
                   btVector3(btScalar(c.x), btScalar(c.y), btScalar(c.z)));
    const btScalar mass = ground ? 0 : 1;
    btVector3 inertia(0, 0, 0);
    if (!ground) shape->calculateLocalInertia(mass, inertia);
    states.push_back(std::make_unique<btDefaultMotionState>(xf));
    btRigidBody::btRigidBodyConstructionInfo info(mass, states.back().get(), shape, inertia);
    info.m_friction = 0.5;
    info.m_restitution = 0.0;
    bodies.push_back(std::make_unique<btRigidBody>(info));
    world.addRigidBody(bodies.back().get());
  }
  RunResult r;
  for (int i = 0; i < kSteps; ++i) {
    const auto t0 = Clock::now();
    const Real c0 = threadMs();
    world.stepSimulation(btScalar(kDt), 1, btScalar(kDt));
    r.stepMs.push_back(threadMs() - c0);
    r.wallMeanMs += std::chrono::duration<Real, std::milli>(Clock::now() - t0).count() / kSteps;
  }
  for (auto& b : bodies) {
    if (b->getInvMass() == 0) continue;
    ++r.bodies;
    if (b->getLinearVelocity().length() > btScalar(0.05)) ++r.moving;
  }
  for (auto& b : bodies) world.removeRigidBody(b.get());
  return r;
}

void heapBench(benchmark::State& state, bool hull20, bool bullet) {
  const int n = static_cast<int>(state.range(0));
  RunResult r;
  for (auto _ : state)
    for (int k = 0; k < repeats(); ++k)
      merge(r, bullet ? runBullet(hull20, n) : runTumble(hull20, n), k == 0);
  state.counters["mean_ms"] = r.meanMs;
  state.counters["p99_ms"] = r.p99Ms;
  state.counters["worst_ms"] = r.worstMs;
  state.counters["wall_mean_ms"] = r.wallMeanMs;
  state.counters["moving"] = r.moving;
  results()[std::string(hull20 ? "bench_hull20_" : "bench_boxes_") + std::to_string(n) +
            (bullet ? "/bullet" : "/tumble")] = r;
}

}  // namespace

BENCHMARK_CAPTURE(heapBench, bench_boxes_tumble, false, false)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(heapBench, bench_boxes_bullet, false, true)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(heapBench, bench_hull20_tumble, true, false)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(heapBench, bench_hull20_bullet, true, true)
    ->Arg(500)
    ->Arg(1000)
    ->Arg(2000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::printf("\nms per step, thread CPU time, least of %d runs per step (t: Tumble, b: Bullet)\n",
              repeats());
  std::printf("%-18s %7s %7s %7s %7s %7s %7s %7s %7s %10s %10s\n", "heap", "t mean", "b mean",
              "t p99", "b p99", "t worst", "b worst", "mean r", "worst r", "t moving", "b moving");
  for (const char* kind : {"bench_boxes_", "bench_hull20_"})
    for (int n : {500, 1000, 2000}) {
      const std::string key = kind + std::to_string(n);
      auto t = results().find(key + "/tumble"), b = results().find(key + "/bullet");
      if (t == results().end() || b == results().end()) continue;
      const RunResult &tr = t->second, &br = b->second;
      std::printf("%-18s %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %5d/%-4d %5d/%-4d\n",
                  key.c_str(), tr.meanMs, br.meanMs, tr.p99Ms, br.p99Ms, tr.worstMs, br.worstMs,
                  tr.meanMs / br.meanMs, tr.worstMs / br.worstMs, tr.moving, tr.bodies, br.moving,
                  br.bodies);
    }
  return 0;
}
