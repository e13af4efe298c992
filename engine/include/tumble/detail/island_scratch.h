#pragma once
/// Engine-internal: per-body arrays the island update reuses from step to step, so that a step
/// allocates nothing once the world has grown.

#include <vector>

#include "tumble/math.h"

namespace tumble {

struct IslandScratch {
  std::vector<int> parent;    ///< union-find forest over body indices
  std::vector<Real> minTime;  ///< per root: the least sleep time of its island
  std::vector<int> index;     ///< per root: the island's number this step
  std::vector<int> tail;      ///< per root: last member linked so far (islands falling asleep)
  std::vector<int> islandOf;  ///< per body: its awake island this step, -1 for none
  // The threaded path's (updateIslands with a task system):
  std::vector<int> rootOf;       ///< per body: its island's root, -1 for an inactive body
  std::vector<int> chunkRoots;   ///< per chunk of bodies: roots before it (a running count)
  std::vector<int> chunkAsleep;  ///< per chunk of bodies: its roots whose island falls asleep
};

}  // namespace tumble
