// The heap benchmark of issue 4, Tumble beside Bullet (btDiscreteDynamicsWorld, btDbvtBroadphase,
// btSequentialImpulseConstraintSolver, btConvexHullShape) on the same bodies: a 200 m ground,
// N = 500, 1000, 2000 bodies of 1 kg (1 m cubes, or hulls of 20 random points on a sphere of
// radius 0.5), friction 0.5, restitution 0; 600 steps of 1/60 s (Tumble's default solver settings,
// Bullet's 10 iterations), gravity
// -9.81. Prints mean, 99th percentile and worst ms per step, the ratios, and how many bodies
// still move faster than 0.05 m/s at the end. Step times are the thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID). On a shared virtual machine even that picks up stolen time in spikes,
// so each heap runs TUMBLE_HEAP_REPEATS times (default 3; both engines are deterministic, every
// run does the same work step by step) and each step's least time is kept: the worst step is then
// the costliest step, not the unluckiest. With TUMBLE_HEAP_SEEDS set, the rest counts of more
// seeds follow (see sweepSeeds), with TUMBLE_HEAP_SET under other settings. Printed, never
// asserted.
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

#include "bench_common.h"
#include "bullet_world.h"
#include "tumble/atomic_file.h"
#include "tumble/scene.h"
#include "tumble/settings.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;
using Clock = std::chrono::steady_clock;

constexpr int kSteps = 600;
constexpr Real kDt = 1.0 / 60.0;
constexpr uint64_t kSeed = 1;

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

// TUMBLE_HEAP_SEEDS="first-last" (or one seed): the heaps whose timing ran are run again from
// these seeds, once per engine, and only the bodies still moving at the end are counted: whether
// a heap is at rest after 10 s depends on its seed (a late slide on the flank), so the rest target
// is read over many heaps, not one.
std::pair<int, int> sweepSeeds() {
  const char* env = std::getenv("TUMBLE_HEAP_SEEDS");
  if (!env || !*env) return {0, -1};
  int first = 0, last = 0;
  if (std::sscanf(env, "%d-%d", &first, &last) == 2) return {first, last};
  if (std::sscanf(env, "%d", &first) == 1) return {first, first};
  std::fprintf(stderr, "TUMBLE_HEAP_SEEDS=%s: expected a seed or a range such as 1-10\n", env);
  return {0, -1};
}

// TUMBLE_HEAP_SET="key=value,key=value": settings changed from the bench's for Tumble's runs (for
// reading the rest counts under other settings; the timing is then not the bench's).
void applySettings(tumble::Settings& s) {
  const char* env = std::getenv("TUMBLE_HEAP_SET");
  if (!env || !*env) return;
  std::string all = env;
  for (size_t start = 0; start <= all.size();) {
    const size_t end = std::min(all.find(',', start), all.size());
    if (auto err = tumble::setSettingAssignment(s, all.substr(start, end - start)); !err) {
      std::fprintf(stderr, "TUMBLE_HEAP_SET: %s\n", err.error().c_str());
      std::exit(2);
    }
    start = end + 1;
  }
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

std::vector<tumble::BodyDef> heap(bool hull20, int n, uint64_t seed) {
  std::vector<tumble::BodyDef> defs;
  tumble::appendHeap(defs, hull20, n, seed);
  return defs;
}

// TUMBLE_HEAP_EXPORT=DIR: each heap of the seed sweep is also written to
// DIR/heap_<boxes|hull20>_<N>_s<seed>.json, one object per body: "static", "pos" (the shape
// origin), "rot" [w,x,y,z], "friction", "density" and "points" (the hull's vertices in the body's
// frame), for other engines to load the very same heap (tests/bench/jolt/heap_settle.mjs).
void exportHeap(bool hull20, int n, uint64_t seed) {
  const char* dir = std::getenv("TUMBLE_HEAP_EXPORT");
  if (!dir || !*dir) return;
  std::string out = "[\n";
  char buf[512];
  const auto defs = heap(hull20, n, seed);
  for (size_t i = 0; i < defs.size(); ++i) {
    const tumble::BodyDef& d = defs[i];
    std::snprintf(buf, sizeof buf,
                  "{\"static\":%s,\"pos\":[%.17g,%.17g,%.17g],\"rot\":[%.17g,%.17g,%.17g,%.17g],"
                  "\"friction\":%.17g,\"density\":%.17g,\"points\":[",
                  d.type == tumble::BodyType::Static ? "true" : "false", d.position.x, d.position.y,
                  d.position.z, d.orientation.w, d.orientation.x, d.orientation.y, d.orientation.z,
                  d.friction, d.density);
    out += buf;
    const auto& v = d.shape.hull()->vertices();
    for (size_t k = 0; k < v.size(); ++k) {
      std::snprintf(buf, sizeof buf, "%s[%.17g,%.17g,%.17g]", k ? "," : "", v[k].x, v[k].y, v[k].z);
      out += buf;
    }
    out += i + 1 < defs.size() ? "]},\n" : "]}\n";
  }
  out += "]\n";
  const std::string path = std::string(dir) + "/heap_" + (hull20 ? "hull20_" : "boxes_") +
                           std::to_string(n) + "_s" + std::to_string(seed) + ".json";
  if (auto err = tumble::writeFileAtomic(path, out); !err)
    std::fprintf(stderr, "TUMBLE_HEAP_EXPORT: %s\n", err.error().c_str());
}

RunResult runTumble(bool hull20, int n, uint64_t seed = kSeed) {
  tumble::Settings s;
  s.dt = kDt;  // Tumble's default solver: 4 substeps of one soft solve and one relax
  s.gravity = Vec3(0.0, -9.81, 0.0);
  applySettings(s);
  tumble::World world(s);
  for (const auto& d : heap(hull20, n, seed)) (void)world.createBody(d);
  RunResult r;
  for (int i = 0; i < kSteps; ++i) {
    const auto t0 = Clock::now();
    const Real c0 = tumble::bench::threadMs();
    (void)world.step(kDt);
    r.stepMs.push_back(tumble::bench::threadMs() - c0);
    r.wallMeanMs += std::chrono::duration<Real, std::milli>(Clock::now() - t0).count() / kSteps;
  }
  for (tumble::BodyId id : world.bodyIds()) {
    const tumble::BodyView b = *world.body(id);
    if (!b.isDynamic()) continue;
    ++r.bodies;
    if (glm::length(b.linearVelocity) > 0.05) ++r.moving;
  }
  return r;
}

RunResult runBullet(bool hull20, int n, uint64_t seed = kSeed) {
  tumble::bench::BulletWorld bullet;
  btDiscreteDynamicsWorld& world = bullet.world;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> states;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::map<const tumble::ConvexHull*, btCollisionShape*> shared;
  for (const auto& d : heap(hull20, n, seed)) {
    const bool ground = d.type == tumble::BodyType::Static;
    // Bullet bodies turn about the shape origin: centre the points on the centre of mass.
    const auto mp = d.shape.hull()->massProperties(1.0);
    const Vec3 com = ground ? Vec3(0.0) : mp.centerOfMass;
    btCollisionShape* shape = nullptr;
    if (ground) {
      shapes.push_back(std::make_unique<btBoxShape>(btVector3(100, 1, 100)));
      shape = shapes.back().get();
    } else if (auto it = shared.find(d.shape.hull()); it != shared.end()) {
      shape = it->second;
    } else {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& p : d.shape.hull()->vertices()) {
        const Vec3 q = p - com;
        hull->addPoint(btVector3(btScalar(q.x), btScalar(q.y), btScalar(q.z)), false);
      }
      hull->recalcLocalAabb();
      shape = hull.get();
      shared[d.shape.hull()] = shape;
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
    const Real c0 = tumble::bench::threadMs();
    world.stepSimulation(btScalar(kDt), 1, btScalar(kDt));
    r.stepMs.push_back(tumble::bench::threadMs() - c0);
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
  const auto [first, last] = sweepSeeds();
  if (first > last) return 0;
  std::printf("\nbodies faster than 0.05 m/s after %d steps, seeds %d-%d (t: Tumble, b: Bullet)\n",
              kSteps, first, last);
  for (const char* kind : {"bench_boxes_", "bench_hull20_"})
    for (int n : {500, 1000, 2000}) {
      const std::string key = kind + std::to_string(n);
      // The engines whose timing ran (--benchmark_filter=tumble sweeps Tumble alone).
      const bool withTumble = results().count(key + "/tumble") > 0;
      const bool withBullet = results().count(key + "/bullet") > 0;
      if (!withTumble && !withBullet) continue;
      const bool hull20 = kind == std::string("bench_hull20_");
      int tRest = 0, bRest = 0, count = 0;
      std::string tList, bList;
      for (int seed = first; seed <= last; ++seed) {
        exportHeap(hull20, n, static_cast<uint64_t>(seed));
        if (withTumble) {
          const int t = runTumble(hull20, n, static_cast<uint64_t>(seed)).moving;
          tRest += t == 0;
          tList += " " + std::to_string(t);
        }
        if (withBullet) {
          const int b = runBullet(hull20, n, static_cast<uint64_t>(seed)).moving;
          bRest += b == 0;
          bList += " " + std::to_string(b);
        }
        ++count;
      }
      if (withTumble)
        std::printf("%-18s t at rest in %d of %d (moving:%s)\n", key.c_str(), tRest, count,
                    tList.c_str());
      if (withBullet)
        std::printf("%-18s b at rest in %d of %d (moving:%s)\n", withTumble ? "" : key.c_str(),
                    bRest, count, bList.c_str());
    }
  return 0;
}
