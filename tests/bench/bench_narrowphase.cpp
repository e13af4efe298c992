// Narrow-phase side by side on the same pairs: Tumble's GJK (boolean and distance) and EPA beside
// libccd (ccdGJKIntersect, ccdMPRIntersect) and Bullet (btGjkEpaSolver2::Distance, ::Penetration
// on btConvexHullShape, margin 0). Families: box corners, and 8, 32, 128, 512 points on an
// ellipsoid; 256 poses per family, exactly half of them overlapping (EPA runs on those).
// Tumble's hulls carry their vertex adjacency (hill climbing from 32 points); libccd and Bullet
// search all points, as their users' support functions do. Cold queries: no warm start.
// The table at the end gives ns per query (median over repetitions) and the ratios the issue
// targets: GJK boolean <= 0.35x libccd GJK (<= 0.15x at 512 points), GJK distance <= 0.35x
// Bullet distance, EPA <= 0.5x Bullet penetration. Printed, never asserted.
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>
#include <ccd/ccd.h>

#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/hull.h"

using namespace tumble;

namespace {

constexpr int kPoses = 256;

// libccd object: world support by brute force over the local points.
struct CcdObject {
  const std::vector<Vec3>* points = nullptr;
  Mat3 rot{1.0};
  Mat3 rotT{1.0};
  Vec3 position{0.0};
};

void ccdSupport(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const auto* o = static_cast<const CcdObject*>(obj);
  Vec3 d = o->rotT * Vec3{dir->v[0], dir->v[1], dir->v[2]};
  const std::vector<Vec3>& pts = *o->points;
  size_t best = 0;
  Real bestDot = glm::dot(pts[0], d);
  for (size_t i = 1; i < pts.size(); ++i) {
    Real v = glm::dot(pts[i], d);
    if (v > bestDot) {
      bestDot = v;
      best = i;
    }
  }
  Vec3 w = o->rot * pts[best] + o->position;
  out->v[0] = w.x;
  out->v[1] = w.y;
  out->v[2] = w.z;
}

void ccdCenter(const void* obj, ccd_vec3_t* c) {
  const auto* o = static_cast<const CcdObject*>(obj);
  c->v[0] = o->position.x;
  c->v[1] = o->position.y;
  c->v[2] = o->position.z;
}

void ccdFirstDir(const void* a, const void* b, ccd_vec3_t* dir) {
  Vec3 d = static_cast<const CcdObject*>(b)->position - static_cast<const CcdObject*>(a)->position;
  if (glm::dot(d, d) == 0.0) d = Vec3{1.0, 0.0, 0.0};
  dir->v[0] = d.x;
  dir->v[1] = d.y;
  dir->v[2] = d.z;
}

struct Pose {
  Transform xa, xb;
  btTransform ta, tb;
  CcdObject ca, cb;
  bool hit = false;
};

struct Family {
  std::string name;
  std::unique_ptr<ConvexHull> hullA, hullB;
  std::vector<Vec3> pointsA, pointsB;
  SupportShape a, b;
  std::unique_ptr<btConvexHullShape> btA, btB;
  std::vector<Pose> all;
  std::vector<Pose> overlapping;
};

std::vector<std::unique_ptr<Family>>& families() {
  static std::vector<std::unique_ptr<Family>> f;
  return f;
}

Real uniform(std::mt19937_64& g) {
  return static_cast<Real>(g() >> 11) * 0x1.0p-53;
}

Quat randomRotation(std::mt19937_64& g) {
  for (;;) {
    Quat q{uniform(g) * 2 - 1, uniform(g) * 2 - 1, uniform(g) * 2 - 1, uniform(g) * 2 - 1};
    Real l = glm::length(q);
    if (l > 1e-2 && l <= 1.0) return q / l;
  }
}

Vec3 randomUnit(std::mt19937_64& g) {
  for (;;) {
    Vec3 v{uniform(g) * 2 - 1, uniform(g) * 2 - 1, uniform(g) * 2 - 1};
    Real l = glm::length(v);
    if (l > 1e-2 && l <= 1.0) return v / l;
  }
}

std::vector<Vec3> ellipsoidPoints(std::mt19937_64& g, int n) {
  std::vector<Vec3> p;
  for (int i = 0; i < n; ++i) p.push_back(randomUnit(g) * Vec3{1.0, 0.7, 0.5});
  return p;
}

std::vector<Vec3> boxPoints(const Vec3& h) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
  return p;
}

btTransform toBullet(const Transform& x) {
  return btTransform(
      btQuaternion(static_cast<btScalar>(x.rotation.x), static_cast<btScalar>(x.rotation.y),
                   static_cast<btScalar>(x.rotation.z), static_cast<btScalar>(x.rotation.w)),
      btVector3(static_cast<btScalar>(x.position.x), static_cast<btScalar>(x.position.y),
                static_cast<btScalar>(x.position.z)));
}

std::unique_ptr<btConvexHullShape> toBullet(const std::vector<Vec3>& pts) {
  auto s = std::make_unique<btConvexHullShape>();
  for (const Vec3& p : pts)
    s->addPoint(btVector3(static_cast<btScalar>(p.x), static_cast<btScalar>(p.y),
                          static_cast<btScalar>(p.z)),
                false);
  s->recalcLocalAabb();
  s->setMargin(0);
  return s;
}

CcdObject toCcd(const std::vector<Vec3>* pts, const Transform& x) {
  CcdObject o;
  o.points = pts;
  o.rot = glm::mat3_cast(x.rotation);
  o.rotT = glm::transpose(o.rot);
  o.position = x.position;
  return o;
}

void buildFamily(const std::string& name, const std::vector<Vec3>& a, const std::vector<Vec3>& b,
                 uint64_t seed) {
  auto f = std::make_unique<Family>();
  f->name = name;
  auto ha = ConvexHull::build(a);
  auto hb = ConvexHull::build(b);
  if (!ha || !hb) {
    std::fprintf(stderr, "bench_narrowphase: hull of %s failed: %s%s\n", name.c_str(),
                 ha.error().c_str(), hb.error().c_str());
    std::exit(1);
  }
  f->hullA = std::make_unique<ConvexHull>(std::move(*ha));
  f->hullB = std::make_unique<ConvexHull>(std::move(*hb));
  f->pointsA = f->hullA->vertices();
  f->pointsB = f->hullB->vertices();
  f->a = f->hullA->supportShape();
  f->b = f->hullB->supportShape();
  f->btA = toBullet(f->pointsA);
  f->btB = toBullet(f->pointsB);
  // Random poses, kept until there are kPoses / 2 of each verdict.
  std::mt19937_64 g(seed);
  Settings::Gjk gs;
  int hits = 0, misses = 0;
  while (hits < kPoses / 2 || misses < kPoses / 2) {
    Pose p;
    p.xa = Transform{Vec3{uniform(g) * 10 - 5, uniform(g) * 10 - 5, uniform(g) * 10 - 5},
                     randomRotation(g)};
    p.xb = Transform{p.xa.position + randomUnit(g) * (0.3 + 1.7 * uniform(g)), randomRotation(g)};
    GjkResult r = gjkDistance(f->a, p.xa, f->b, p.xb, gs);
    p.hit = r.intersecting();
    if (p.hit && hits >= kPoses / 2) continue;
    if (!p.hit && misses >= kPoses / 2) continue;
    (p.hit ? hits : misses)++;
    p.ta = toBullet(p.xa);
    p.tb = toBullet(p.xb);
    f->all.push_back(p);
  }
  Family* fp = f.get();
  families().push_back(std::move(f));
  for (Pose& p : fp->all) {
    p.ca = toCcd(&fp->pointsA, p.xa);
    p.cb = toCcd(&fp->pointsB, p.xb);
    if (p.hit) fp->overlapping.push_back(p);
  }
}

ccd_t makeCcd() {
  ccd_t c;
  CCD_INIT(&c);
  c.support1 = ccdSupport;
  c.support2 = ccdSupport;
  c.center1 = ccdCenter;
  c.center2 = ccdCenter;
  c.first_dir = ccdFirstDir;
  c.max_iterations = 1000;
  return c;
}

enum class Method {
  TumbleGjk,
  CcdGjk,
  CcdMpr,
  TumbleDistance,
  BulletDistance,
  TumbleEpa,
  BulletEpa
};
const char* kMethodNames[] = {"tumble_gjk_bool",   "ccd_gjk_bool",    "ccd_mpr_bool",
                              "tumble_gjk_dist",   "bullet_distance", "tumble_gjk_epa",
                              "bullet_penetration"};

void runMethod(benchmark::State& state, const Family* f, Method m) {
  const std::vector<Pose>& poses =
      (m == Method::TumbleEpa || m == Method::BulletEpa) ? f->overlapping : f->all;
  Settings settings;
  ccd_t ccd = makeCcd();
  btVector3 guess(1, 0, 0);
  size_t hits = 0;
  long iterations = 0;  // GJK iterations (support evaluations) of Tumble's queries
  for (auto _ : state) {
    for (const Pose& p : poses) {
      switch (m) {
        case Method::TumbleGjk: {
          GjkResult r = gjkIntersect(f->a, p.xa, f->b, p.xb, settings.gjk);
          hits += r.intersecting();
          iterations += r.iterations;
          break;
        }
        case Method::CcdGjk:
          hits += static_cast<size_t>(ccdGJKIntersect(&p.ca, &p.cb, &ccd));
          break;
        case Method::CcdMpr:
          hits += static_cast<size_t>(ccdMPRIntersect(&p.ca, &p.cb, &ccd));
          break;
        case Method::TumbleDistance: {
          GjkResult r = gjkDistance(f->a, p.xa, f->b, p.xb, settings.gjk);
          benchmark::DoNotOptimize(r.distance);
          hits += r.intersecting();
          iterations += r.iterations;
          break;
        }
        case Method::BulletDistance: {
          btGjkEpaSolver2::sResults res;
          bool separated =
              btGjkEpaSolver2::Distance(f->btA.get(), p.ta, f->btB.get(), p.tb, guess, res);
          benchmark::DoNotOptimize(res.distance);
          hits += !separated;
          break;
        }
        case Method::TumbleEpa: {
          GjkResult g = gjkDistance(f->a, p.xa, f->b, p.xb, settings.gjk);
          EpaResult e = epaPenetration(f->a, p.xa, f->b, p.xb, settings.epa, g);
          benchmark::DoNotOptimize(e.depth);
          hits += g.intersecting();
          break;
        }
        case Method::BulletEpa: {
          btGjkEpaSolver2::sResults res;
          bool pen =
              btGjkEpaSolver2::Penetration(f->btA.get(), p.ta, f->btB.get(), p.tb, guess, res);
          benchmark::DoNotOptimize(res.distance);
          hits += pen;
          break;
        }
      }
    }
  }
  benchmark::DoNotOptimize(hits);
  state.counters["pairs"] = static_cast<double>(poses.size());
  if (iterations > 0)
    state.counters["gjk_iterations"] =
        static_cast<double>(iterations) / static_cast<double>(poses.size() * state.iterations());
  state.counters["hit_fraction"] =
      static_cast<double>(hits) / static_cast<double>(poses.size() * state.iterations());
}

// Verdicts and depths of the three libraries on the same pairs, so the timings compare like
// with like.
void printAgreement() {
  Settings settings;
  ccd_t ccd = makeCcd();
  btVector3 guess(1, 0, 0);
  std::printf("Agreement on the bench pairs (same verdicts; EPA depth vs Bullet, relative):\n");
  for (const auto& f : families()) {
    int gjkVsCcd = 0, mprVsCcd = 0, distVsBullet = 0;
    Real worstDepth = 0.0;
    for (const Pose& p : f->all) {
      bool ours = gjkIntersect(f->a, p.xa, f->b, p.xb, settings.gjk).intersecting();
      bool c = ccdGJKIntersect(&p.ca, &p.cb, &ccd) != 0;
      bool mpr = ccdMPRIntersect(&p.ca, &p.cb, &ccd) != 0;
      btGjkEpaSolver2::sResults res;
      bool bulletHit =
          !btGjkEpaSolver2::Distance(f->btA.get(), p.ta, f->btB.get(), p.tb, guess, res);
      gjkVsCcd += ours != c;
      mprVsCcd += mpr != c;
      distVsBullet += ours != bulletHit;
      if (p.hit) {
        GjkResult g = gjkDistance(f->a, p.xa, f->b, p.xb, settings.gjk);
        EpaResult e = epaPenetration(f->a, p.xa, f->b, p.xb, settings.epa, g);
        btGjkEpaSolver2::sResults pr;
        if (btGjkEpaSolver2::Penetration(f->btA.get(), p.ta, f->btB.get(), p.tb, guess, pr)) {
          Real bd = -static_cast<Real>(pr.distance);
          worstDepth = std::max(worstDepth, std::fabs(e.depth - bd) / std::max(bd, 1e-9));
        }
      }
    }
    std::printf(
        "  %-8s %zu pairs: tumble-vs-ccd GJK %d differ, ccd MPR-vs-GJK %d, tumble-vs-bullet %d;"
        " worst EPA depth difference %.2e (Bullet is float)\n",
        f->name.c_str(), f->all.size(), gjkVsCcd, mprVsCcd, distVsBullet, worstDepth);
  }
}

// Console output plus a summary of medians and ratios at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.iterations == 0) continue;
      auto it = r.counters.find("pairs");
      if (it == r.counters.end()) continue;
      double ns = r.cpu_accumulated_time * 1e9 /
                  (static_cast<double>(r.iterations) * static_cast<double>(it->second.value));
      samples_[r.run_name.function_name].push_back(ns);
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf(
        "\nNarrow phase, CPU ns per query (median over repetitions; EPA on the overlapping half"
        " and including its GJK)\n");
    std::printf("%-8s %9s %9s %9s %7s %7s | %9s %9s %7s | %9s %9s %7s\n", "family", "gjk_bool",
                "ccd_gjk", "ccd_mpr", "r_gjk", "r_mpr", "gjk_dist", "bt_dist", "r_dist", "epa",
                "bt_pen", "r_epa");
    for (const auto& f : families()) {
      double v[7];
      for (int m = 0; m < 7; ++m) v[m] = median(f->name + "/" + kMethodNames[m]);
      std::printf("%-8s %9.1f %9.1f %9.1f %7.3f %7.3f | %9.1f %9.1f %7.3f | %9.1f %9.1f %7.3f\n",
                  f->name.c_str(), v[0], v[1], v[2], v[0] / v[1], v[0] / v[2], v[3], v[4],
                  v[3] / v[4], v[5], v[6], v[5] / v[6]);
    }
    std::printf("targets: r_gjk <= 0.35 (<= 0.15 at 512 points), r_dist <= 0.35, r_epa <= 0.5\n");
  }

 private:
  double median(const std::string& name) {
    auto it = samples_.find(name);
    if (it == samples_.end() || it->second.empty()) return std::nan("");
    std::vector<double> s = it->second;
    std::sort(s.begin(), s.end());
    size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  }
  std::map<std::string, std::vector<double>> samples_;
};

}  // namespace

int main(int argc, char** argv) {
  std::mt19937_64 g(0xbe7c4);
  buildFamily("box", boxPoints({0.5, 0.4, 0.3}), boxPoints({0.45, 0.35, 0.25}), 1);
  for (int n : {8, 32, 128, 512})
    buildFamily("hull" + std::to_string(n), ellipsoidPoints(g, n), ellipsoidPoints(g, n),
                static_cast<uint64_t>(n));
  for (const auto& f : families()) {
    for (int m = 0; m < 7; ++m) {
      const Family* fp = f.get();
      Method method = static_cast<Method>(m);
      benchmark::RegisterBenchmark((f->name + "/" + kMethodNames[m]).c_str(),
                                   [fp, method](benchmark::State& s) { runMethod(s, fp, method); })
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  printAgreement();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
