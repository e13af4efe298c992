// Chain benchmarks (issue 5): the self-intersection query of a 10,000-segment chain through the
// segment hierarchy against the page's all-pairs loop (same answers, checked before timing), and
// one pi fold at the middle joint of a 1,000-segment chain.
// Run: bench_chain --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tumble/chain.h"

using namespace tumble;

namespace {

Real uniform01(std::mt19937_64& rng) {
  return static_cast<Real>(rng() >> 11) * 0x1.0p-53;
}

// A self-avoiding-looking random walk of unit segments that turns at most ~60 degrees per joint.
std::vector<Vec3> randomWalk(int segments, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Vec3> p{Vec3(0.0)};
  Vec3 d(1, 0, 0);
  for (int k = 0; k < segments; ++k) {
    Vec3 r(uniform01(rng) - 0.5, uniform01(rng) - 0.5, uniform01(rng) - 0.5);
    d = glm::normalize(d + 1.2 * r);
    p.push_back(p.back() + d);
  }
  return p;
}

std::vector<Vec3> straight(int segments) {
  std::vector<Vec3> p;
  for (int k = 0; k <= segments; ++k) p.push_back(Vec3(k, 0, 0));
  return p;
}

std::vector<Vec3> helix(int segments) {
  std::vector<Vec3> p;
  const Real turn = 0.5, pitch = 0.05;
  const Real radius = std::sqrt(1.0 - pitch * pitch) / (2.0 * std::sin(0.5 * turn));
  for (int k = 0; k <= segments; ++k)
    p.push_back(Vec3(radius * std::cos(k * turn), pitch * k, radius * std::sin(k * turn)));
  return p;
}

constexpr Real kRadius = 0.1;

void checkSameAnswers(const std::vector<Vec3>& p) {
  const auto fast = chainPairsWithin(p, kRadius, 0.0);
  const auto slow = chainPairsWithinAllPairs(p, kRadius, 0.0);
  bool same = fast.size() == slow.size();
  for (size_t k = 0; same && k < fast.size(); ++k)
    same = fast[k].i == slow[k].i && fast[k].j == slow[k].j;
  std::printf("self-query of %zu segments: %zu intersecting pairs, hierarchy %s all-pairs\n",
              p.size() - 1, fast.size(), same ? "==" : "!=");
  if (!same) std::abort();
}

void BM_SelfQueryHierarchy(benchmark::State& state) {
  const auto p = randomWalk(static_cast<int>(state.range(0)), 7);
  for (auto _ : state) benchmark::DoNotOptimize(chainContactFlags(p, kRadius, 0.0));
}
BENCHMARK(BM_SelfQueryHierarchy)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// The page's collisions(p): all pairs i, j >= i + 2.
void BM_SelfQueryAllPairs(benchmark::State& state) {
  const auto p = randomWalk(static_cast<int>(state.range(0)), 7);
  for (auto _ : state) {
    std::vector<bool> c(p.size() - 1, false);
    for (const auto& pair : chainPairsWithinAllPairs(p, kRadius, 0.0)) c[pair.i] = c[pair.j] = true;
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_SelfQueryAllPairs)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// One pi fold at the middle joint of a 1,000-segment chain (a fresh copy each time).
void foldBench(benchmark::State& state, const std::vector<Vec3>& p, const Vec3& axis) {
  Real radius = kRadius;
  auto made = Chain::create(p, radius);
  while (!made && radius > 1e-3) made = Chain::create(p, radius *= 0.5);  // a thinner chain
  if (!made) {
    state.SkipWithError(made.error().c_str());
    return;
  }
  FoldResult last;
  for (auto _ : state) {
    Chain chain = *made;
    auto r = chain.fold(chain.segmentCount() / 2, axis, M_PI);
    last = *r;
    benchmark::DoNotOptimize(chain.points().data());
  }
  state.counters["applied"] = last.applied;
  state.counters["blocked"] = last.blocked ? 1 : 0;
  state.counters["substeps"] = last.substeps;
  state.counters["pairs"] = last.candidatePairs;
  state.counters["radius"] = radius;
}

void BM_FoldPiStraight(benchmark::State& state) {
  foldBench(state, straight(1000), Vec3(0, 1, 0));  // a hairpin: blocks near pi
}
BENCHMARK(BM_FoldPiStraight)->Unit(benchmark::kMillisecond);

void BM_FoldPiHelix(benchmark::State& state) {
  foldBench(state, helix(1000), Vec3(1, 0, 0));
}
BENCHMARK(BM_FoldPiHelix)->Unit(benchmark::kMillisecond);

void BM_FoldPiWalk(benchmark::State& state) {
  foldBench(state, randomWalk(1000, 11), Vec3(0, 0, 1));
}
BENCHMARK(BM_FoldPiWalk)->Unit(benchmark::kMillisecond);

// Keeps each benchmark's CPU time (the median when repeated) for the summary printed at the end.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      ms_[r.run_name.str()] = r.GetAdjustedCPUTime();  // in the benchmark's unit: ms
    }
  }
  void printSummary() const {
    std::printf(
        "\nSelf-intersection query, CPU ms (median when repeated); target speed-up >= 50 at "
        "10000\n%-9s %12s %12s %9s\n",
        "segments", "hierarchy", "all-pairs", "speed-up");
    for (const char* n : {"1000", "10000"}) {
      auto fast = ms_.find(std::string("BM_SelfQueryHierarchy/") + n);
      auto slow = ms_.find(std::string("BM_SelfQueryAllPairs/") + n);
      if (fast == ms_.end() || slow == ms_.end()) continue;
      std::printf("%-9s %12.3f %12.3f %9.1f\n", n, fast->second, slow->second,
                  slow->second / fast->second);
    }
    std::printf("\nPi fold at the middle joint of 1000 segments, CPU ms; target < 5\n");
    for (const char* b : {"BM_FoldPiStraight", "BM_FoldPiHelix", "BM_FoldPiWalk"}) {
      auto t = ms_.find(b);
      if (t != ms_.end()) std::printf("%-18s %8.3f\n", b + 3, t->second);
    }
  }

 private:
  std::map<std::string, double> ms_;
};

}  // namespace

int main(int argc, char** argv) {
  checkSameAnswers(randomWalk(10000, 7));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printSummary();
  benchmark::Shutdown();
  return 0;
}
