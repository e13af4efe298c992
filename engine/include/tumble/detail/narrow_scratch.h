#pragma once
/// Engine-internal: the narrow phase's work lists (World::updateContacts), kept from step to step
/// so that a step allocates nothing once the world has grown.

#include <array>
#include <cstdint>
#include <vector>

#include "tumble/collide.h"
#include "tumble/contact.h"
#include "tumble/math.h"

namespace tumble {

/// Iteration counts of the queries run, summed over pairs.
struct NarrowPhaseCounters {
  int gjkCalls = 0;
  long gjkIterations = 0;
  int gjkIterationsMax = 0;
  int gjkCapHits = 0;
  int epaCalls = 0;
  long epaIterations = 0;
  int epaIterationsMax = 0;
  int epaCapHits = 0;
};

/// One body pair of this step's narrow phase and what it needs.
struct NarrowJob {
  enum class Kind : uint8_t {
    Asleep,    ///< neither body awake: last step's pair (if any) is kept as it was
    Apart,     ///< the grown tight boxes do not overlap: no contact, no GJK
    Bounded,   ///< last distance minus both motions still exceeds the reach: no GJK
    Convex,    ///< two convex shapes: one manifold, recycled or from collide()
    Children,  ///< a compound, mesh or height field: a manifold per touching pair of children
  };
  int a = 0, b = 0;  ///< body indices, a < b
  int oldPair = -1;  ///< index into last step's pairs, -1 for a new pair
  Kind kind = Kind::Asleep;
  bool activeA = false, activeB = false;    ///< the bodies' awake flags when classified
  bool dynamicA = false, dynamicB = false;  ///< and whether they are dynamic
  Real speculative = 0.0;                   ///< m, the pair's reach (Convex, Children)
  Real bound = 0.0;                         ///< m, the distance bound (Bounded)
  // With threads (World::collideJobs, World::mergeJobs): found by the parallel pass, so that the
  // serial merge reads the jobs in order and little else.
  int oldBegin = 0;           ///< last step's first pair whose key is not below this one's
  int count = 0;              ///< manifolds the pair keeps (Convex: 0 or 1)
  bool touching = false;      ///< a point within the touch distance (World::settleTouch)
  bool was = false;           ///< last step's pair touched
  bool goneTouching = false;  ///< a pair of last step gone before this key touched
  int late = -1;  ///< Convex collided again in the merge: its index in NarrowScratch::late
  int pair = -1;  ///< its index in the new pair list, -1 for a pair that is dropped
  int first = 0;  ///< the index of its first manifold in the new manifold list
};

/// What collide() and the manifold update of one pair counted and decided.
struct NarrowSummary {
  NarrowPhaseCounters counters;
  bool recycled = false;  ///< Convex: last step's manifold kept (contact recycling)
  /// GJK's verdict: the shapes overlap (Convex), some pair of children overlaps (Children).
  bool overlapping = false;
};

/// What the parallel pass found for one Convex or Children job (a Convex job's manifold is
/// NarrowScratch::convex[worker][slot]).
struct NarrowResult {
  std::vector<Manifold> manifolds;  ///< Children: one per touching pair of children, key order
  NarrowSummary summary;
  int worker = 0;  ///< Convex: the worker that made the manifold
  int slot = -1;   ///< Convex: its index in that worker's list, -1 when it has no points
  /// Convex: what the new ContactPair keeps of the manifold (its GJK warm start and distance;
  /// the verdict is summary.overlapping), so that a manifold without points leaves the worker's
  /// list at once.
  GjkSimplex cache;
  Real distance = 0.0;
  PackedAxis axis;  ///< ContactPair::axis
};

/// One chunk of the parallel pass's jobs (World::collideJobs): what the serial merge needs to
/// visit only the jobs that ask something of it.
struct NarrowChunk {
  /// Bit j of word j / 64: the chunk's job j needs the serial merge (a touch event, a pair gone
  /// touching before it, a wake, the cross-check). Typically under 1% of the jobs.
  std::array<uint64_t, 4> attention{};
  int pairs = 0;         ///< jobs that keep a pair in the new list
  int manifolds = 0;     ///< the manifolds they keep
  int oldBegin = 0;      ///< last step's first pair above the previous chunk's last key
  int oldEnd = 0;        ///< last step's first pair above this chunk's last key
  int basePair = 0;      ///< the merge: the chunk's first index in the new pair list
  int baseManifold = 0;  ///< ... and in the new manifold list
};

struct NarrowScratch {
  std::vector<NarrowJob> jobs;      ///< one per sorted pair key
  std::vector<NarrowChunk> chunks;  ///< one per chunk of jobs of the parallel passes
  /// Per job (Convex and Children jobs of the parallel pass); never shrunk, so the vectors keep
  /// their capacity.
  std::vector<NarrowResult> results;
  /// Per worker: the Convex jobs' manifolds with points, in the order the worker made them. Only
  /// the pairs that need work take one (a slot per pair key was 20 MB of sparse writes in a
  /// 2000-box heap), and a chunk's are contiguous, so the merge reads them in streams.
  std::vector<std::vector<Manifold>> convex;
  std::vector<std::vector<ChildContact>> childContacts;  ///< per worker
  /// Convex jobs collided again by the merge (a body woken by an earlier pair changed them).
  std::vector<Manifold> late;
  /// Per chunk of the merge's copy pass: the counters of its jobs, and how many were recycled.
  std::vector<NarrowPhaseCounters> chunkCounters;
  std::vector<int> chunkRecycled;
};

}  // namespace tumble
