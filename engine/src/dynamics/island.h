#pragma once
// Internal: islands (union-find over touching contacts between awake dynamic bodies) and sleeping.
#include <map>
#include <vector>

#include "tumble/body.h"
#include "tumble/contact.h"
#include "tumble/settings.h"

namespace tumble {

struct IslandUpdate {
  int islands = 0;     ///< awake islands found
  int fellAsleep = 0;  ///< islands put to sleep this step
};

/// Builds islands, advances each body's time under the sleep thresholds by `dt`, and puts to sleep
/// every island whose bodies have all been still for `sleep.time` (when sleeping is enabled).
/// `keepAwake[i]` marks bodies that must not sleep (dragged, touching a moving kinematic body).
/// Sleeping islands are recorded in `sleeping` under fresh ids from `nextIsland`; `islandOf`
/// receives each body's island index this step (-1 for none).
IslandUpdate updateIslands(std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                           const std::vector<char>& keepAwake, const Settings& s, Real dt,
                           std::map<int, std::vector<int>>& sleeping, int& nextIsland,
                           std::vector<int>& islandOf);

}  // namespace tumble
