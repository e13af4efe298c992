// The threads benchmark of issue 18: bench_heap's heaps (tumble/scene.h appendHeap: 1 m cubes or
// hulls of 20 random points, 100 per layer over a 200 m ground, seed 1) stepped at several thread
// counts. Each run takes N steps of 1/60 s and times every step by the wall clock (steady_clock
// around World::step: with threads, the thread's CPU time would miss the workers' time); each
// heap runs TUMBLE_THREADS_REPEATS times per count (default 1) and each step's least time is kept.
// The table gives the mean and worst step, the speed-up of the mean over 1 thread, the mean wall
// time of each phase (StepStats), whether the final state hash equals the 1-thread run's (it
// must: the step is deterministic at any thread count), then the mean wall time of each of the
// solver's stages (prepare, warm start, solve, relax, integrate, store). Printed, never asserted.
//
//   build/release/tests/bench/bench_threads [--threads 1,2,4] [--steps N] [--heaps boxes_2000,...]
//                                           [--scenes large_pyramid,...]
//
// Defaults: threads 1,2; 600 steps; heaps boxes_2000, hull20_2000, boxes_8000, hull20_8000 (8000
// bodies: 80 layers). `--scenes large_pyramid,...` steps scene files (a name or a path, found as
// tumble-cli finds them) instead of the heaps or after them, under their own settings but for
// `threads`; every mode takes them.
//
//   bench_threads --split W [--steps N] [--heaps ...]
//
// Amdahl's split, measured on one thread (so a busy machine changes it little): the heaps step
// through a task system that says it has W workers, so the World takes its threaded path with the
// grains of W threads, but runs every chunk on the calling thread in order. The thread's CPU time
// inside the loops is the part that runs in parallel, the rest of the step the serial part. The
// table gives the 1-thread path's step (no task system; a second world, stepped first), the
// threaded path's step, serial and parallel parts, the serial fraction, the parallel loops and
// chunks per step, the speed-up over the 1-thread path that Amdahl's law predicts for W threads
// with no pool overhead and even loads, 1-thread / (serial + parallel / W), and whether both
// worlds end with the same hash; under it each path's mean phase times (StepStats). `perf record
// -g` on such a run splits the parts by phase.
//
//   bench_threads --pool W
//
// The pool's cost per parallel loop at W threads: the wall time of a loop of W chunks of about
// 5 us of arithmetic each (least and median of 100 rounds of 200 loops), less the same loop run
// inline divided by W. Wall time: it needs the W cores to itself to mean anything.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tumble/scene.h"
#include "tumble/settings.h"
#include "tumble/task.h"
#include "tumble/world.h"

#include <time.h>

namespace {

using tumble::Real;
using Clock = std::chrono::steady_clock;

struct Heap {
  std::string name;
  bool hull20 = false;
  int count = 0;
  bool scene = false;  // name is a scene file's name or path, not a heap
};

// The heap's or scene's world with `threads` threads (null after printing why it could not be
// made).
std::unique_ptr<tumble::World> makeWorld(const Heap& heap, int threads) {
  if (!heap.scene) {
    std::vector<tumble::BodyDef> defs;
    tumble::appendHeap(defs, heap.hull20, heap.count, 1);
    tumble::Settings s;
    s.threads = threads;
    auto world = std::make_unique<tumble::World>(s);
    for (const tumble::BodyDef& d : defs) (void)world->createBody(d);
    return world;
  }
  auto file = tumble::findSceneFile(heap.name);
  auto scene =
      file ? tumble::loadScene(*file) : tumble::Expected<tumble::Scene>::failure(file.error());
  if (!scene) {
    std::fprintf(stderr, "bench_threads: %s\n", scene.error().c_str());
    return nullptr;
  }
  scene->settings.threads = threads;
  auto made = tumble::buildWorld(*scene);
  if (!made) {
    std::fprintf(stderr, "bench_threads: %s\n", made.error().c_str());
    return nullptr;
  }
  return std::move(*made);
}

struct Run {
  std::vector<Real> stepMs;                                     // per step, least over the repeats
  Real broad = 0.0, narrow = 0.0, solver = 0.0, islands = 0.0;  // mean ms per step
  Real stages[6] = {};  // the solver's stages, mean ms per step (StepStats::solverPrepareMs...)
  uint64_t hash = 0;
  int threads = 0;
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Real cpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<Real>(t.tv_sec) * 1e3 + static_cast<Real>(t.tv_nsec) * 1e-6;
}

// Claims `workers` workers and runs every chunk on the calling thread, in order (worker ids in
// turn, as chunks would be spread), timing the thread's CPU time inside its loops.
class InlineTasks final : public tumble::TaskSystem {
 public:
  explicit InlineTasks(int workers) : workers_(workers) {}
  int workerCount() const override { return workers_; }
  void parallelFor(int count, int grain, RangeFn fn, void* context) override {
    const Real t0 = cpuMs();
    int k = 0;
    for (int begin = 0; begin < count; begin += grain, ++k)
      fn(begin, std::min(count, begin + grain), k % workers_, context);
    insideMs += cpuMs() - t0;
    ++loops;
    chunks += k;
  }
  Real insideMs = 0.0;
  long loops = 0, chunks = 0;

 private:
  int workers_;
};

// The phases runSplit prints under each heap (StepStats, wall ms: on one thread about its CPU
// time).
constexpr const char* kPhaseNames[10] = {"broad", "narrow", "solver", "islands", "prep",
                                         "warm",  "solve",  "relax",  "integ",   "store"};

int runSplit(const std::vector<Heap>& heaps, int workers, int steps) {
  std::printf(
      "%d steps of 1/60 s on one thread through a task system of %d workers run inline;\n"
      "thread CPU ms per step\n",
      steps, workers);
  std::printf("%-12s %8s %8s %8s %8s %9s %8s %8s %10s %5s\n", "heap", "1-thread", "step", "serial",
              "parallel", "serial %", "loops", "chunks", "amdahl", "hash");
  for (const Heap& heap : heaps) {
    // One world on the 1-thread path (no task system), then one on the threaded path (one after
    // the other: stepped in turn, each would evict the other's bodies from the cache); the same
    // bits either way.
    const std::unique_ptr<tumble::World> made = makeWorld(heap, 1), madeSingle = makeWorld(heap, 1);
    if (!made || !madeSingle) return 2;
    tumble::World &world = *made, &single = *madeSingle;
    InlineTasks tasks(workers);
    world.setTaskSystem(&tasks);
    const Real dt = world.settings().dt;
    Real total = 0.0, totalSingle = 0.0;
    // Each path's phases (broad, narrow, solver, islands, then the solver's six stages).
    std::array<Real, 10> phases[2] = {};
    auto addPhases = [](std::array<Real, 10>& to, const tumble::StepStats& st) {
      const std::array<Real, 6> stages = st.solverStagesMs();
      const std::array<Real, 10> step = {
          st.broadphaseMs, st.narrowphaseMs, st.solverMs, st.islandsMs, stages[0],
          stages[1],       stages[2],        stages[3],   stages[4],    stages[5]};
      for (size_t j = 0; j < to.size(); ++j) to[j] += step[j];
    };
    for (int i = 0; i < steps; ++i) {
      const Real t0 = cpuMs();
      (void)single.step(dt);
      totalSingle += cpuMs() - t0;
      addPhases(phases[0], single.stats());
    }
    for (int i = 0; i < steps; ++i) {
      const Real t0 = cpuMs();
      (void)world.step(dt);
      total += cpuMs() - t0;
      addPhases(phases[1], world.stats());
    }
    const Real step = total / steps, parallel = tasks.insideMs / steps, serial = step - parallel;
    const Real one = totalSingle / steps;
    std::printf("%-12s %8.3f %8.3f %8.3f %8.3f %8.1f%% %8.1f %8.1f %9.2fx %5s\n", heap.name.c_str(),
                one, step, serial, parallel, 100.0 * serial / step,
                static_cast<Real>(tasks.loops) / steps, static_cast<Real>(tasks.chunks) / steps,
                one / (serial + parallel / workers),
                world.stateHash() == single.stateHash() ? "same" : "DIFF");
    for (int k = 0; k < 2; ++k) {
      std::printf("  %-10s", k == 0 ? "1-thread" : "threaded");
      for (size_t j = 0; j < phases[k].size(); ++j)
        std::printf(" %s %.3f", kPhaseNames[j], phases[k][j] / steps);
      std::printf("\n");
    }
    std::fflush(stdout);
  }
  return 0;
}

// Wall time per loop of `workers` chunks of about 5 us of arithmetic each, on the pool and
// inline; the pool's cost per loop is its time less the inline time divided by the workers.
int runPool(int workers) {
  tumble::ThreadPool pool(workers);
  InlineTasks inlineTasks(workers);
  auto work = [](int, int, int, void* context) {
    Real x = 1.0;
    for (int i = 0; i < 2000; ++i) x = x * 0.999999 + 1e-9;
    *static_cast<volatile Real*>(context) = x;
  };
  std::vector<Real> sinks(static_cast<size_t>(workers) * 8);
  auto roundUs = [&](tumble::TaskSystem& tasks, int chunk) {
    constexpr int kLoops = 200;
    const auto t0 = Clock::now();
    for (int i = 0; i < kLoops; ++i)
      tasks.parallelFor(workers, 1, work, &sinks[static_cast<size_t>(chunk)]);
    return std::chrono::duration<Real, std::micro>(Clock::now() - t0).count() / kLoops;
  };
  std::printf("wall us per parallel loop of %d chunks of arithmetic (100 rounds of 200 loops)\n",
              workers);
  std::printf("%-8s %8s %8s\n", "tasks", "least", "median");
  Real least[2] = {0.0, 0.0}, median[2] = {0.0, 0.0};
  int k = 0;
  for (tumble::TaskSystem* tasks :
       {static_cast<tumble::TaskSystem*>(&inlineTasks), static_cast<tumble::TaskSystem*>(&pool)}) {
    std::vector<Real> us;
    for (int r = 0; r < 100; ++r) us.push_back(roundUs(*tasks, 8 * k));
    std::sort(us.begin(), us.end());
    least[k] = us.front(), median[k] = us[us.size() / 2];
    std::printf("%-8s %8.3f %8.3f\n", k == 0 ? "inline" : "pool", least[k], median[k]);
    ++k;
  }
  std::printf("pool cost per loop: %.3f us (least), %.3f us (median)\n",
              least[1] - least[0] / workers, median[1] - median[0] / workers);
  return 0;
}

Run runHeap(const Heap& heap, int threads, int steps, int repeats) {
  Run r;
  r.stepMs.assign(static_cast<size_t>(steps), 1e300);
  for (int k = 0; k < repeats; ++k) {
    const std::unique_ptr<tumble::World> made = makeWorld(heap, threads);
    if (!made) {
      r.threads = -1;
      return r;
    }
    tumble::World& world = *made;
    const Real dt = world.settings().dt;
    Real broad = 0.0, narrow = 0.0, solver = 0.0, islands = 0.0, stages[6] = {};
    for (int i = 0; i < steps; ++i) {
      const auto t0 = Clock::now();
      (void)world.step(dt);
      const Real ms = std::chrono::duration<Real, std::milli>(Clock::now() - t0).count();
      r.stepMs[static_cast<size_t>(i)] = std::min(r.stepMs[static_cast<size_t>(i)], ms);
      const tumble::StepStats& st = world.stats();
      broad += st.broadphaseMs, narrow += st.narrowphaseMs, solver += st.solverMs;
      islands += st.islandsMs;
      const std::array<Real, 6> stepStages = st.solverStagesMs();
      for (int j = 0; j < 6; ++j) stages[j] += stepStages[j];
    }
    if (k == 0) {
      r.broad = broad / steps, r.narrow = narrow / steps, r.solver = solver / steps;
      r.islands = islands / steps;
      for (int j = 0; j < 6; ++j) r.stages[j] = stages[j] / steps;
      r.hash = world.stateHash();
      r.threads = world.threadCount();
    }
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> threads = {1, 2};
  int steps = 600;
  int splitWorkers = 0, poolWorkers = 0;
  std::vector<Heap> heaps = {{"boxes_2000", false, 2000},
                             {"hull20_2000", true, 2000},
                             {"boxes_8000", false, 8000},
                             {"hull20_8000", true, 8000}};
  std::vector<Heap> scenes;
  bool heapsGiven = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--threads" && hasValue) {
      threads.clear();
      for (const std::string& t : split(argv[++i])) threads.push_back(std::atoi(t.c_str()));
    } else if (arg == "--split" && hasValue) {
      splitWorkers = std::atoi(argv[++i]);
    } else if (arg == "--pool" && hasValue) {
      poolWorkers = std::atoi(argv[++i]);
    } else if (arg == "--steps" && hasValue) {
      steps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--heaps" && hasValue) {
      heaps.clear();
      heapsGiven = true;
      for (const std::string& h : split(argv[++i])) {
        const size_t cut = h.find('_');
        const std::string kind = h.substr(0, cut);
        const int count = cut == std::string::npos ? 0 : std::atoi(h.c_str() + cut + 1);
        if ((kind != "boxes" && kind != "hull20") || count < 1) {
          std::fprintf(stderr, "bench_threads: --heaps %s: expected boxes_N or hull20_N\n",
                       h.c_str());
          return 2;
        }
        heaps.push_back({h, kind == "hull20", count});
      }
    } else if (arg == "--scenes" && hasValue) {
      for (const std::string& name : split(argv[++i])) scenes.push_back({name, false, 0, true});
    } else {
      std::fprintf(stderr,
                   "usage: bench_threads [--threads 1,2,4 | --split W | --pool W] [--steps N]"
                   " [--heaps boxes_2000,...] [--scenes large_pyramid,...]\n");
      return 2;
    }
  }
  // Scenes alone unless heaps were asked for too.
  if (!heapsGiven && !scenes.empty()) heaps.clear();
  heaps.insert(heaps.end(), scenes.begin(), scenes.end());
  for (int t : threads)
    if (t < 0 || t > 64) {
      std::fprintf(stderr, "bench_threads: --threads %d: expected 0 to 64\n", t);
      return 2;
    }
  for (int w : {splitWorkers, poolWorkers})
    if (w < 0 || w > 64) {
      std::fprintf(stderr, "bench_threads: --split/--pool %d: expected 1 to 64\n", w);
      return 2;
    }
  if (splitWorkers > 0) return runSplit(heaps, splitWorkers, steps);
  if (poolWorkers > 0) return runPool(poolWorkers);
  const char* env = std::getenv("TUMBLE_THREADS_REPEATS");
  const int repeats = std::clamp(env ? std::atoi(env) : 1, 1, 100);

  std::printf("%d steps of 1/60 s, wall-clock ms per step (least of %d run%s), phases as means\n",
              steps, repeats, repeats == 1 ? "" : "s");
  // After the hash, the solver's stages: prepare, warm start, solve, relax, integrate, store.
  std::printf("%-12s %7s %8s %8s %8s %8s %8s %8s %8s %5s %6s %6s %6s %6s %6s %6s\n", "heap",
              "threads", "mean", "worst", "speed-up", "broad", "narrow", "solver", "islands",
              "hash", "prep", "warm", "solve", "relax", "integ", "store");
  for (const Heap& heap : heaps) {
    Real base = 0.0;
    uint64_t baseHash = 0;
    for (size_t k = 0; k < threads.size(); ++k) {
      const Run r = runHeap(heap, threads[k], steps, repeats);
      if (r.threads < 0) return 2;
      Real sum = 0.0, worst = 0.0;
      for (Real ms : r.stepMs) sum += ms, worst = std::max(worst, ms);
      const Real mean = sum / steps;
      if (k == 0) base = mean, baseHash = r.hash;
      std::printf(
          "%-12s %7d %8.2f %8.2f %7.2fx %8.2f %8.2f %8.2f %8.2f %5s %6.2f %6.2f %6.2f %6.2f %6.2f "
          "%6.2f\n",
          heap.name.c_str(), r.threads, mean, worst, base / mean, r.broad, r.narrow, r.solver,
          r.islands, r.hash == baseHash ? "same" : "DIFF", r.stages[0], r.stages[1], r.stages[2],
          r.stages[3], r.stages[4], r.stages[5]);
      std::fflush(stdout);
    }
  }
  return 0;
}
