// The threads benchmark of issue 18: bench_heap's heaps (tumble/scene.h appendHeap: 1 m cubes or
// hulls of 20 random points, 100 per layer over a 200 m ground, seed 1) stepped at several thread
// counts. Each run takes N steps of 1/60 s and times every step by the wall clock (steady_clock
// around World::step: with threads, the thread's CPU time would miss the workers' time); each
// heap runs TUMBLE_THREADS_REPEATS times per count (default 1) and each step's least time is kept.
// The table gives the mean and worst step, the speed-up of the mean over 1 thread, the mean wall
// time of each phase (StepStats), and whether the final state hash equals the 1-thread run's (it
// must: the step is deterministic at any thread count). Printed, never asserted.
//
//   build/release/tests/bench/bench_threads [--threads 1,2,4] [--steps N] [--heaps boxes_2000,...]
//
// Defaults: threads 1,2; 600 steps; heaps boxes_2000, hull20_2000, boxes_8000, hull20_8000 (8000
// bodies: 80 layers).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tumble/scene.h"
#include "tumble/settings.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using Clock = std::chrono::steady_clock;

struct Heap {
  std::string name;
  bool hull20 = false;
  int count = 0;
};

struct Run {
  std::vector<Real> stepMs;                                     // per step, least over the repeats
  Real broad = 0.0, narrow = 0.0, solver = 0.0, islands = 0.0;  // mean ms per step
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

Run runHeap(const Heap& heap, int threads, int steps, int repeats) {
  Run r;
  r.stepMs.assign(static_cast<size_t>(steps), 1e300);
  for (int k = 0; k < repeats; ++k) {
    std::vector<tumble::BodyDef> defs;
    tumble::appendHeap(defs, heap.hull20, heap.count, 1);
    tumble::Settings s;
    s.threads = threads;
    tumble::World world(s);
    for (const tumble::BodyDef& d : defs) (void)world.createBody(d);
    Real broad = 0.0, narrow = 0.0, solver = 0.0, islands = 0.0;
    for (int i = 0; i < steps; ++i) {
      const auto t0 = Clock::now();
      (void)world.step(s.dt);
      const Real ms = std::chrono::duration<Real, std::milli>(Clock::now() - t0).count();
      r.stepMs[static_cast<size_t>(i)] = std::min(r.stepMs[static_cast<size_t>(i)], ms);
      const tumble::StepStats& st = world.stats();
      broad += st.broadphaseMs, narrow += st.narrowphaseMs, solver += st.solverMs;
      islands += st.islandsMs;
    }
    if (k == 0) {
      r.broad = broad / steps, r.narrow = narrow / steps, r.solver = solver / steps;
      r.islands = islands / steps;
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
  std::vector<Heap> heaps = {{"boxes_2000", false, 2000},
                             {"hull20_2000", true, 2000},
                             {"boxes_8000", false, 8000},
                             {"hull20_8000", true, 8000}};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (arg == "--threads" && hasValue) {
      threads.clear();
      for (const std::string& t : split(argv[++i])) threads.push_back(std::atoi(t.c_str()));
    } else if (arg == "--steps" && hasValue) {
      steps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--heaps" && hasValue) {
      heaps.clear();
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
    } else {
      std::fprintf(stderr,
                   "usage: bench_threads [--threads 1,2,4] [--steps N] [--heaps boxes_2000,...]\n");
      return 2;
    }
  }
  for (int t : threads)
    if (t < 0 || t > 64) {
      std::fprintf(stderr, "bench_threads: --threads %d: expected 0 to 64\n", t);
      return 2;
    }
  const char* env = std::getenv("TUMBLE_THREADS_REPEATS");
  const int repeats = std::clamp(env ? std::atoi(env) : 1, 1, 100);

  std::printf("%d steps of 1/60 s, wall-clock ms per step (least of %d run%s), phases as means\n",
              steps, repeats, repeats == 1 ? "" : "s");
  std::printf("%-12s %7s %8s %8s %8s %8s %8s %8s %8s %5s\n", "heap", "threads", "mean", "worst",
              "speed-up", "broad", "narrow", "solver", "islands", "hash");
  for (const Heap& heap : heaps) {
    Real base = 0.0;
    uint64_t baseHash = 0;
    for (size_t k = 0; k < threads.size(); ++k) {
      const Run r = runHeap(heap, threads[k], steps, repeats);
      Real sum = 0.0, worst = 0.0;
      for (Real ms : r.stepMs) sum += ms, worst = std::max(worst, ms);
      const Real mean = sum / steps;
      if (k == 0) base = mean, baseHash = r.hash;
      std::printf("%-12s %7d %8.2f %8.2f %7.2fx %8.2f %8.2f %8.2f %8.2f %5s\n", heap.name.c_str(),
                  r.threads, mean, worst, base / mean, r.broad, r.narrow, r.solver, r.islands,
                  r.hash == baseHash ? "same" : "DIFF");
      std::fflush(stdout);
    }
  }
  return 0;
}
