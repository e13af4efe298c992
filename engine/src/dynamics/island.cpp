// Islands by union-find (Tarjan 1975, path halving and union by index for determinism) and the
// sleep rule of Box2D/Jolt: an island sleeps when all of its bodies have stayed slower than the
// thresholds for the sleep time.
#include "dynamics/island.h"

#include <algorithm>
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

}  // namespace

IslandUpdate updateIslands(std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                           const std::vector<char>& keepAwake, const Settings& s, Real dt,
                           IslandScratch& scratch, const std::vector<std::pair<int, int>>& links) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int>& parent = scratch.parent;
  parent.resize(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  // The manifolds are 656 bytes apart and their bodies and point count span two lines: fetched a
  // few ahead (as the solver's scan of them does).
  const size_t count = manifolds.size();
  for (size_t i = 0; i < count; ++i) {
    if (i + 8 < count) {
      const char* ahead = reinterpret_cast<const char*>(&manifolds[i + 8]);
      detail::prefetch(ahead);
      detail::prefetch(ahead + offsetof(Manifold, pointCount));
    }
    const Manifold& m = manifolds[i];
    if (!m.touching()) continue;
    if (active(bodies[m.a.index]) && active(bodies[m.b.index])) unite(parent, m.a.index, m.b.index);
  }
  for (const auto& [a, b] : links)
    if (active(bodies[a]) && active(bodies[b])) unite(parent, a, b);
  // Sleep clocks.
  const Real lin2 = s.sleep.linear * s.sleep.linear, ang2 = s.sleep.angular * s.sleep.angular;
  for (int i = 0; i < n; ++i) {
    Body& b = bodies[i];
    if (!active(b)) continue;
    const bool still = glm::dot(b.linearVelocity, b.linearVelocity) <= lin2 &&
                       glm::dot(b.angularVelocity, b.angularVelocity) <= ang2;
    b.sleepTime = (still && !keepAwake[i]) ? b.sleepTime + dt : 0.0;
  }
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
    if (!active(b) || b.sleepIsland < 0) continue;
    b.awake = false;
    b.linearVelocity = Vec3(0.0);
    b.angularVelocity = Vec3(0.0);
    b.sleepTime = 0.0;
  }
  return out;
}

}  // namespace tumble
