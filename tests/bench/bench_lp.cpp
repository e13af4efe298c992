// The LP test (lp.h) against GLPK solving the same LP (Kreuzer's P2, built with glp_* from the
// world points, normalised the same way), on the same pairs: box corners, and 8, 32, 128 and 512
// points on ellipsoids, half of each family intersecting. Prints ns per query and the ratio
// LP / GLPK per family (target: <= 0.05). Run by hand, e.g.
//   taskset -c 1 build/release/tests/bench/bench_lp --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <glpk.h>

#include <benchmark/benchmark.h>
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "../unit/pair_families.h"
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

// GLPK on the same LP, built from scratch per query as the LP test does.
Real glpkObjective(const std::vector<Vec3>& a, const std::vector<Vec3>& b, std::vector<int>& ia,
                   std::vector<int>& ja, std::vector<double>& ar) {
  Vec3 lo = a[0], hi = a[0];
  for (const auto* set : {&a, &b})
    for (const Vec3& p : *set) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  const Vec3 c = 0.5 * (lo + hi);
  const Real h = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) * 0.5;
  const int m = static_cast<int>(a.size() + b.size());
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_rows(lp, 5);
  for (int i = 1; i <= 5; ++i) glp_set_row_bnds(lp, i, GLP_UP, 0.0, i <= 3 ? 0.0 : 1.0);
  glp_add_cols(lp, m);
  ia.assign(1, 0);
  ja.assign(1, 0);
  ar.assign(1, 0.0);
  for (int j = 1; j <= m; ++j) {
    const bool inA = j <= static_cast<int>(a.size());
    const Vec3& p = inA ? a[static_cast<size_t>(j - 1)] : b[static_cast<size_t>(j - 1) - a.size()];
    const Vec3 col = (inA ? 1.0 : -1.0) * ((p - c) / h);
    glp_set_col_bnds(lp, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, j, -(col.x + col.y + col.z + 1.0));
    for (int i = 0; i < 3; ++i) {
      ia.push_back(i + 1);
      ja.push_back(j);
      ar.push_back(col[i]);
    }
    ia.push_back(inA ? 4 : 5);
    ja.push_back(j);
    ar.push_back(1.0);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  glp_simplex(lp, &parm);
  Real f = 2.0 + glp_get_obj_val(lp);
  glp_delete_prob(lp);
  return f;
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
  std::vector<int> ia, ja;
  std::vector<double> ar;
  size_t i = 0;
  for (auto _ : state) {
    Real r = glpkObjective(f.a[i], f.b[i], ia, ja, ar);
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
  glp_term_out(GLP_OFF);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  families();  // build the pairs before timing
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printRatios();
  benchmark::Shutdown();
  return 0;
}
