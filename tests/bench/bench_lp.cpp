// The LP test (lp.h) against GLPK solving the same LP (Kreuzer's P2, built with glp_* from the
// world points, normalised the same way), on the same pairs: box corners, and 8, 32, 128 and 512
// points on ellipsoids, half of each family intersecting. Prints ns per query and the ratio
// LP / GLPK per family (target: <= 0.05). Run by hand, e.g.
//   taskset -c 1 build/release/tests/bench/bench_lp --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "glpk_oracle.h"
#include "pair_families.h"
#include "tumble/lp.h"

namespace {

using namespace tumble;

struct Family {
  std::string name;
  std::vector<std::vector<Vec3>> a, b;  // world points
};

// 64 pairs per family, 32 intersecting and 32 separated (the LP's verdict).
Family makeFamily(const std::string& name, test::ShapeKind kind, int points) {
  Family f;
  f.name = name;
  test::PairGenerator gen(1000 + static_cast<uint64_t>(points));
  int hits = 0, misses = 0;
  const Settings::Lp s;
  while (hits + misses < 64) {
    test::ConvexPair p = gen.next(kind, kind, points, points);
    auto a = p.worldA(), b = p.worldB();
    bool hit = lpIntersect(a, b, s).intersect;
    if ((hit && hits >= 32) || (!hit && misses >= 32)) continue;
    (hit ? hits : misses)++;
    f.a.push_back(std::move(a));
    f.b.push_back(std::move(b));
  }
  return f;
}

const std::vector<Family>& families() {
  static const std::vector<Family> fs = {
      makeFamily("box", test::ShapeKind::Box, 0),
      makeFamily("ellipsoid8", test::ShapeKind::Ellipsoid, 8),
      makeFamily("ellipsoid32", test::ShapeKind::Ellipsoid, 32),
      makeFamily("ellipsoid128", test::ShapeKind::Ellipsoid, 128),
      makeFamily("ellipsoid512", test::ShapeKind::Ellipsoid, 512),
  };
  return fs;
}

void bmLp(benchmark::State& state) {
  const Family& f = families()[static_cast<size_t>(state.range(0))];
  const Settings::Lp s;
  LpWorkspace ws;
  LpOptions o;
  o.workspace = &ws;
  size_t i = 0;
  long pivots = 0;
  for (auto _ : state) {
    LpResult r = lpIntersect(f.a[i], f.b[i], s, o);
    benchmark::DoNotOptimize(r);
    pivots += r.pivots;
    i = (i + 1) % f.a.size();
  }
  state.counters["pivots"] =
      benchmark::Counter(static_cast<double>(pivots), benchmark::Counter::kAvgIterations);
  state.SetLabel(f.name);
}

void bmGlpk(benchmark::State& state) {
  const Family& f = families()[static_cast<size_t>(state.range(0))];
  test::GlpkScratch scratch;
  size_t i = 0;
  for (auto _ : state) {
    test::GlpkAnswer r = test::glpkObjective(f.a[i], f.b[i], false, &scratch);
    benchmark::DoNotOptimize(r);
    i = (i + 1) % f.a.size();
  }
  state.SetLabel(f.name);
}

BENCHMARK(bmLp)->DenseRange(0, 4);
BENCHMARK(bmGlpk)->DenseRange(0, 4);

// Collects the per-run (or, with repetitions, median) time of each benchmark for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      ns_[r.run_name.str()] = r.GetAdjustedCPUTime();
    }
  }
  void printRatios() const {
    std::printf("\nLP vs GLPK, CPU ns per query (median when repeated), target ratio <= 0.05\n");
    std::printf("%-14s %12s %12s %8s\n", "family", "LP", "GLPK", "ratio");
    for (size_t k = 0; k < families().size(); ++k) {
      auto lp = ns_.find("bmLp/" + std::to_string(k));
      auto gl = ns_.find("bmGlpk/" + std::to_string(k));
      if (lp == ns_.end() || gl == ns_.end()) continue;
      std::printf("%-14s %12.0f %12.0f %8.3f\n", families()[k].name.c_str(), lp->second, gl->second,
                  lp->second / gl->second);
    }
  }

 private:
  std::map<std::string, double> ns_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  families();  // build the pairs before timing
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printRatios();
  benchmark::Shutdown();
  return 0;
}
