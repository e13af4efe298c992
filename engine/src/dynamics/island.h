#pragma once
// Internal: islands (union-find over touching contacts between awake dynamic bodies) and sleeping.
#include <vector>

#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/detail/island_scratch.h"
#include "tumble/settings.h"
#include "tumble/task.h"

namespace tumble {

/// Union-find: the root of i's set, halving the path on the way (parent[r] == r at a root).
inline int findRoot(std::vector<int>& parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

struct IslandUpdate {
  int islands = 0;     ///< awake islands found
  int fellAsleep = 0;  ///< islands put to sleep this step
};

/// Builds islands, advances each body's time under the sleep thresholds by `dt`, and puts to sleep
/// every island whose bodies have all been still for `sleep.time` (when sleeping is enabled).
/// `keepAwake[i]` marks bodies that must not sleep (dragged, touching a moving kinematic body).
/// An island that falls asleep is named by its lowest body index (Body::sleepIsland) and its
/// members are linked in index order through Body::sleepNext. `scratch.islandOf` receives each
/// body's awake island this step (-1 for none). `links` (jointed bodies) join islands as touching
/// contacts do. Allocates only when the body count grew. With `tasks` (more than one worker) the
/// unions, the sleep clocks and the numbering run in parallel, with the same result: the islands
/// are the graph's connected components whatever the order of the unions, each named by its
/// lowest index, and numbered in the order of those.
IslandUpdate updateIslands(std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                           const std::vector<char>& keepAwake, const Settings& s, Real dt,
                           IslandScratch& scratch,
                           const std::vector<std::pair<int, int>>& links = {},
                           TaskSystem* tasks = nullptr);

}  // namespace tumble
