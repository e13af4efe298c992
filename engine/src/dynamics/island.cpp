// Islands by union-find (Tarjan 1975, path halving and union by index for determinism) and the
// sleep rule of Box2D/Jolt: an island sleeps when all of its bodies have stayed slower than the
// thresholds for the sleep time.
#include "dynamics/island.h"

#include <algorithm>
#include <atomic>
#include <cstddef>

#include "core/prefetch.h"

namespace tumble {
namespace {

void unite(std::vector<int>& parent, int a, int b) {
  a = findRoot(parent, a);
  b = findRoot(parent, b);
  if (a == b) return;
  // The lower index becomes the root: the result does not depend on the order of the unions.
  if (a < b) {
    parent[b] = a;
  } else {
    parent[a] = b;
  }
}

bool active(const Body& b) {
  return b.alive && b.isDynamic() && b.awake;
}

// The threaded path's union-find, on the same forest from several threads at once (Anderson and
// Woll's wait-free union-find, 1991, without ranks). A link makes the higher of two roots a child
// of the lower, by a compare-and-swap that fails if the higher root was linked meanwhile (then both
// roots are looked up again); a parent only ever moves to a lower index. Whatever the order of the
// unions, the result is the graph's connected components, each a tree whose root is its lowest
// index: the serial path's result, whatever the thread count. Path halving may store a parent
// that another thread has halved further: still an ancestor, so any order of the stores is fine.
int findShared(std::vector<int>& parent, int i) {
  for (;;) {
    const int p = std::atomic_ref<int>(parent[i]).load(std::memory_order_relaxed);
    if (p == i) return i;
    const int g = std::atomic_ref<int>(parent[p]).load(std::memory_order_relaxed);
    if (g != p) std::atomic_ref<int>(parent[i]).store(g, std::memory_order_relaxed);
    i = g;
  }
}

void uniteShared(std::vector<int>& parent, int a, int b) {
  for (;;) {
    a = findShared(parent, a);
    b = findShared(parent, b);
    if (a == b) return;
    if (a > b) std::swap(a, b);
    int root = b;
    if (std::atomic_ref<int>(parent[b]).compare_exchange_strong(root, a, std::memory_order_relaxed,
                                                                std::memory_order_relaxed))
      return;
  }
}

// Bodies per chunk of the threaded path's body loops (fixed: the chunks' counts are summed in
// chunk order) and manifolds per chunk of its unions.
constexpr int kBodyGrain = 1024;
constexpr int kManifoldGrain = 512;

// The manifolds are 656 bytes apart and their bodies and point count span two lines: fetched a
// few ahead (as the solver's scan of them does).
void fetchManifold(const std::vector<Manifold>& manifolds, size_t i, size_t end) {
  if (i + 8 < end) {
    const char* ahead = reinterpret_cast<const char*>(&manifolds[i + 8]);
    detail::prefetch(ahead);
    detail::prefetch(ahead + offsetof(Manifold, pointCount));
  }
}

// Advances a body's sleep clock: its time under the sleep thresholds.
void advanceClock(Body& b, bool keepAwake, Real lin2, Real ang2, Real dt) {
  const bool still = glm::dot(b.linearVelocity, b.linearVelocity) <= lin2 &&
                     glm::dot(b.angularVelocity, b.angularVelocity) <= ang2;
  b.sleepTime = (still && !keepAwake) ? b.sleepTime + dt : 0.0;
}

// Puts a body to sleep (its island's list is linked).
void putToSleep(Body& b) {
  b.awake = false;
  b.linearVelocity = Vec3(0.0);
  b.angularVelocity = Vec3(0.0);
  b.sleepTime = 0.0;
}

// updateIslands on a task system: the same result, in parallel passes over the manifolds and the
// bodies. Only the linking of the islands that fall asleep is serial (a step where one does).
IslandUpdate updateIslandsParallel(std::vector<Body>& bodies,
                                   const std::vector<Manifold>& manifolds,
                                   const std::vector<char>& keepAwake, const Settings& s, Real dt,
                                   IslandScratch& scratch,
                                   const std::vector<std::pair<int, int>>& links,
                                   TaskSystem* tasks) {
  const int n = static_cast<int>(bodies.size());
  const int chunks = (n + kBodyGrain - 1) / kBodyGrain;
  std::vector<int>& parent = scratch.parent;
  std::vector<int>& rootOf = scratch.rootOf;
  std::vector<Real>& minTime = scratch.minTime;
  std::vector<int>& index = scratch.index;
  std::vector<int>& islandOf = scratch.islandOf;
  parent.resize(static_cast<size_t>(n));
  rootOf.resize(static_cast<size_t>(n));
  minTime.resize(static_cast<size_t>(n));
  index.resize(static_cast<size_t>(n));
  islandOf.resize(static_cast<size_t>(n));
  scratch.chunkRoots.assign(static_cast<size_t>(chunks) + 1, 0);
  scratch.chunkAsleep.assign(static_cast<size_t>(chunks), 0);
  parallelFor(tasks, n, kBodyGrain, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) parent[static_cast<size_t>(i)] = i;
  });
  const int count = static_cast<int>(manifolds.size());
  parallelFor(tasks, count, kManifoldGrain, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      fetchManifold(manifolds, static_cast<size_t>(i), static_cast<size_t>(end));
      const Manifold& m = manifolds[static_cast<size_t>(i)];
      if (!m.touching()) continue;
      if (active(bodies[m.a.index]) && active(bodies[m.b.index]))
        uniteShared(parent, m.a.index, m.b.index);
    }
  });
  for (const auto& [a, b] : links)
    if (active(bodies[a]) && active(bodies[b])) unite(parent, a, b);
  // The sleep clocks, each body's root, and the roots per chunk.
  const Real lin2 = s.sleep.linear * s.sleep.linear, ang2 = s.sleep.angular * s.sleep.angular;
  parallelFor(tasks, n, kBodyGrain, [&](int begin, int end, int) {
    int roots = 0;
    for (int i = begin; i < end; ++i) {
      const size_t k = static_cast<size_t>(i);
      minTime[k] = 1e300;
      index[k] = -1;
      Body& b = bodies[k];
      if (!active(b)) {
        rootOf[k] = -1;
        continue;
      }
      advanceClock(b, keepAwake[k] != 0, lin2, ang2, dt);
      rootOf[k] = findShared(parent, i);
      roots += rootOf[k] == i ? 1 : 0;
    }
    scratch.chunkRoots[static_cast<size_t>(begin / kBodyGrain) + 1] = roots;
  });
  for (int c = 0; c < chunks; ++c)
    scratch.chunkRoots[static_cast<size_t>(c) + 1] += scratch.chunkRoots[static_cast<size_t>(c)];
  IslandUpdate out;
  out.islands = scratch.chunkRoots[static_cast<size_t>(chunks)];
  // Each root's number (the roots in index order, as the serial path numbers them), and each
  // island's least sleep time (a minimum: the same whatever the order).
  parallelFor(tasks, n, kBodyGrain, [&](int begin, int end, int) {
    int next = scratch.chunkRoots[static_cast<size_t>(begin / kBodyGrain)];
    for (int i = begin; i < end; ++i) {
      const int r = rootOf[static_cast<size_t>(i)];
      if (r < 0) continue;
      if (r == i) index[static_cast<size_t>(i)] = next++;
      std::atomic_ref<Real> least(minTime[static_cast<size_t>(r)]);
      const Real t = bodies[static_cast<size_t>(i)].sleepTime;
      for (Real seen = least.load(std::memory_order_relaxed);
           t < seen && !least.compare_exchange_weak(seen, t, std::memory_order_relaxed);) {
      }
    }
  });
  const bool sleeping = s.sleep.enabled;
  parallelFor(tasks, n, kBodyGrain, [&](int begin, int end, int) {
    int asleep = 0;
    for (int i = begin; i < end; ++i) {
      const int r = rootOf[static_cast<size_t>(i)];
      islandOf[static_cast<size_t>(i)] = r < 0 ? -1 : index[static_cast<size_t>(r)];
      if (r == i && sleeping && minTime[static_cast<size_t>(i)] >= s.sleep.time) ++asleep;
    }
    scratch.chunkAsleep[static_cast<size_t>(begin / kBodyGrain)] = asleep;
  });
  for (int a : scratch.chunkAsleep) out.fellAsleep += a;
  if (out.fellAsleep == 0) return out;
  // The islands that fall asleep: their members linked in index order (as the serial path does).
  std::vector<int>& tail = scratch.tail;
  tail.assign(static_cast<size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    const int r = rootOf[static_cast<size_t>(i)];
    if (r < 0 || minTime[static_cast<size_t>(r)] < s.sleep.time) continue;
    Body& b = bodies[static_cast<size_t>(i)];
    b.sleepIsland = r;
    b.sleepNext = -1;
    if (tail[static_cast<size_t>(r)] >= 0)
      bodies[static_cast<size_t>(tail[static_cast<size_t>(r)])].sleepNext = i;
    tail[static_cast<size_t>(r)] = i;
  }
  parallelFor(tasks, n, kBodyGrain, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      const int r = rootOf[static_cast<size_t>(i)];
      if (r >= 0 && minTime[static_cast<size_t>(r)] >= s.sleep.time)
        putToSleep(bodies[static_cast<size_t>(i)]);
    }
  });
  return out;
}

}  // namespace

IslandUpdate updateIslands(std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                           const std::vector<char>& keepAwake, const Settings& s, Real dt,
                           IslandScratch& scratch, const std::vector<std::pair<int, int>>& links,
                           TaskSystem* tasks) {
  if (tasks && tasks->workerCount() > 1)
    return updateIslandsParallel(bodies, manifolds, keepAwake, s, dt, scratch, links, tasks);
  const int n = static_cast<int>(bodies.size());
  std::vector<int>& parent = scratch.parent;
  parent.resize(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  const size_t count = manifolds.size();
  for (size_t i = 0; i < count; ++i) {
    fetchManifold(manifolds, i, count);
    const Manifold& m = manifolds[i];
    if (!m.touching()) continue;
    if (active(bodies[m.a.index]) && active(bodies[m.b.index])) unite(parent, m.a.index, m.b.index);
  }
  for (const auto& [a, b] : links)
    if (active(bodies[a]) && active(bodies[b])) unite(parent, a, b);
  // Sleep clocks.
  const Real lin2 = s.sleep.linear * s.sleep.linear, ang2 = s.sleep.angular * s.sleep.angular;
  for (int i = 0; i < n; ++i)
    if (active(bodies[i])) advanceClock(bodies[i], keepAwake[i] != 0, lin2, ang2, dt);
  // Per island: the least sleep time. Roots are the lowest index of their island (unite).
  std::vector<Real>& minTime = scratch.minTime;
  std::vector<int>& index = scratch.index;
  std::vector<int>& islandOf = scratch.islandOf;
  minTime.assign(n, 1e300);
  index.assign(n, -1);
  islandOf.assign(n, -1);
  IslandUpdate out;
  for (int i = 0; i < n; ++i) {
    if (!active(bodies[i])) continue;
    const int r = findRoot(parent, i);
    if (index[r] < 0) index[r] = out.islands++;
    islandOf[i] = index[r];
    minTime[r] = std::min(minTime[r], bodies[i].sleepTime);
  }
  if (!s.sleep.enabled) return out;
  // Islands still long enough fall asleep; members are visited in index order, so each list is
  // in index order and its head (the root) is the island's name.
  std::vector<int>& tail = scratch.tail;
  tail.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    if (!active(bodies[i])) continue;
    const int r = findRoot(parent, i);
    if (minTime[r] < s.sleep.time) continue;
    Body& b = bodies[i];
    b.sleepIsland = r;
    b.sleepNext = -1;
    if (tail[r] < 0) {
      ++out.fellAsleep;
    } else {
      bodies[tail[r]].sleepNext = i;
    }
    tail[r] = i;
  }
  for (int i = 0; i < n; ++i) {
    Body& b = bodies[i];
    if (active(b) && b.sleepIsland >= 0) putToSleep(b);
  }
  return out;
}

}  // namespace tumble
