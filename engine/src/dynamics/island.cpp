// Islands by union-find (Tarjan 1975, path halving and union by index for determinism) and the
// sleep rule of Box2D/Jolt: an island sleeps when all of its bodies have stayed slower than the
// thresholds for the sleep time.
#include "dynamics/island.h"

#include <algorithm>

namespace tumble {
namespace {

int findRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

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
                           std::map<int, std::vector<int>>& sleeping, int& nextIsland,
                           std::vector<int>& islandOf) {
  const int n = static_cast<int>(bodies.size());
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = i;
  for (const Manifold& m : manifolds) {
    if (!m.touching()) continue;
    if (active(bodies[m.a.index]) && active(bodies[m.b.index])) unite(parent, m.a.index, m.b.index);
  }
  // Sleep clocks.
  const Real lin2 = s.sleep.linear * s.sleep.linear, ang2 = s.sleep.angular * s.sleep.angular;
  for (int i = 0; i < n; ++i) {
    Body& b = bodies[i];
    if (!active(b)) continue;
    const bool still = glm::dot(b.linearVelocity, b.linearVelocity) <= lin2 &&
                       glm::dot(b.angularVelocity, b.angularVelocity) <= ang2;
    b.sleepTime = (still && !keepAwake[i]) ? b.sleepTime + dt : 0.0;
  }
  // Per island: the least sleep time and the member list, in body order.
  std::vector<Real> minTime(n, 1e300);
  std::vector<int> index(n, -1);
  IslandUpdate out;
  islandOf.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    if (!active(bodies[i])) continue;
    const int r = findRoot(parent, i);
    if (index[r] < 0) index[r] = out.islands++;
    islandOf[i] = index[r];
    minTime[r] = std::min(minTime[r], bodies[i].sleepTime);
  }
  if (!s.sleep.enabled) return out;
  std::map<int, std::vector<int>> toSleep;  // root -> members
  for (int i = 0; i < n; ++i) {
    if (!active(bodies[i])) continue;
    const int r = findRoot(parent, i);
    if (minTime[r] >= s.sleep.time) toSleep[r].push_back(i);
  }
  for (auto& [root, members] : toSleep) {
    const int id = nextIsland++;
    for (int i : members) {
      Body& b = bodies[i];
      b.awake = false;
      b.linearVelocity = Vec3(0.0);
      b.angularVelocity = Vec3(0.0);
      b.sleepIsland = id;
      b.sleepTime = 0.0;
    }
    sleeping[id] = std::move(members);
    ++out.fellAsleep;
  }
  return out;
}

}  // namespace tumble
