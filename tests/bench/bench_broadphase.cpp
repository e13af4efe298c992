// Broad-phase alone: 10,000 boxes moving every frame, Tumble's BroadPhase beside Bullet's
// btDbvtBroadphase fed the same tight boxes. Printed, never asserted.
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <random>
#include <vector>

#include "tumble/aabb_tree.h"

namespace {

using tumble::Real;
using tumble::Vec3;

struct MovingSet {
  std::vector<Vec3> center, velocity;
  Vec3 half{0.5, 0.5, 0.5};
  Real bound = 0.0;

  explicit MovingSet(int n) {
    std::mt19937_64 rng(2024);
    auto u = [&](Real lo, Real hi) {
      return lo + (hi - lo) * static_cast<Real>(rng() >> 11) * (1.0 / 9007199254740992.0);
    };
    bound = std::cbrt(static_cast<Real>(n)) * 2.0;  // about one box per 8 m^3
    for (int i = 0; i < n; ++i) {
      center.emplace_back(u(-bound, bound), u(-bound, bound), u(-bound, bound));
      velocity.emplace_back(u(-2, 2), u(-2, 2), u(-2, 2));  // m/s
    }
  }
  void advance(Real dt) {
    for (size_t i = 0; i < center.size(); ++i) {
      center[i] += velocity[i] * dt;
      for (int k = 0; k < 3; ++k)
        if (std::abs(center[i][k]) > bound) velocity[i][k] = -velocity[i][k];
    }
  }
  tumble::Aabb box(size_t i) const { return {center[i] - half, center[i] + half}; }
};

void BM_TumbleBroadphase(benchmark::State& state) {
  MovingSet set(static_cast<int>(state.range(0)));
  tumble::BroadPhase bp;
  const Real margin = 0.1;
  std::vector<int> proxies;
  for (size_t i = 0; i < set.center.size(); ++i)
    proxies.push_back(bp.createProxy(set.box(i), margin, int(i)));
  bp.updatePairs([](int, int) { return true; });
  size_t pairs = 0;
  for (auto _ : state) {
    set.advance(1.0 / 60.0);
    for (size_t i = 0; i < proxies.size(); ++i) bp.moveProxy(proxies[i], set.box(i), margin);
    pairs = bp.updatePairs([](int, int) { return true; }).size();
    benchmark::DoNotOptimize(pairs);
  }
  state.counters["pairs"] = static_cast<double>(pairs);
}

void BM_BulletDbvtBroadphase(benchmark::State& state) {
  MovingSet set(static_cast<int>(state.range(0)));
  btDbvtBroadphase bp;
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcherObject(&config);
  btCollisionDispatcher* dispatcher = &dispatcherObject;
  std::vector<btBroadphaseProxy*> proxies;
  auto bt = [](const Vec3& v) { return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z)); };
  for (size_t i = 0; i < set.center.size(); ++i) {
    const auto b = set.box(i);
    proxies.push_back(bp.createProxy(bt(b.lower), bt(b.upper), BOX_SHAPE_PROXYTYPE, nullptr,
                                     btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter,
                                     dispatcher));
  }
  bp.calculateOverlappingPairs(dispatcher);
  size_t pairs = 0;
  for (auto _ : state) {
    set.advance(1.0 / 60.0);
    for (size_t i = 0; i < proxies.size(); ++i) {
      const auto b = set.box(i);
      bp.setAabb(proxies[i], bt(b.lower), bt(b.upper), dispatcher);
    }
    bp.calculateOverlappingPairs(dispatcher);
    pairs = static_cast<size_t>(bp.getOverlappingPairCache()->getNumOverlappingPairs());
    benchmark::DoNotOptimize(pairs);
  }
  state.counters["pairs"] = static_cast<double>(pairs);
}

}  // namespace

BENCHMARK(BM_TumbleBroadphase)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BulletDbvtBroadphase)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
