#pragma once
/// Engine-internal: the narrow phase's work lists (World::updateContacts), kept from step to step
/// so that a step allocates nothing once the world has grown.

#include <array>
#include <cstdint>
#include <vector>

#include "tumble/collide.h"
#include "tumble/contact.h"
#include "tumble/crosscheck.h"
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
struct alignas(64) NarrowJob {
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
  // With threads (World::collideJobs, World::mergeJobs): found by the parallel pass, so that the
  // serial merge and the copy pass read the jobs in order and little else (the fields packed in
  // one cache line).
  bool touching = false;                ///< a point within the touch distance (World::settleTouch)
  bool was = false;                     ///< last step's pair touched
  bool goneTouching = false;            ///< a pair of last step gone before this key touched
  bool aliveA = false, aliveB = false;  ///< World::idAt's test, with the generations below
  Real speculative = 0.0;               ///< m, the pair's reach (Convex, Children)
  Real bound = 0.0;                     ///< m, the distance bound (Bounded)
  int oldBegin = 0;  ///< last step's first pair whose key is not below this one's
  int count = 0;     ///< manifolds the pair keeps (Convex: 0 or 1)
  int late = -1;     ///< Convex collided again in the merge: its index in NarrowScratch::late
  /// The bodies' generations: the copy pass writes the pair's ids without reading the bodies.
  uint32_t generationA = 0, generationB = 0;
};

static_assert(sizeof(NarrowJob) == 64);

/// What collide() and the manifold update of one pair counted and decided.
struct NarrowSummary {
  NarrowPhaseCounters counters;
  bool recycled = false;  ///< Convex: last step's manifold kept (contact recycling)
  /// GJK's verdict: the shapes overlap (Convex), some pair of children overlaps (Children).
  bool overlapping = false;
};

/// What the parallel pass found for one Convex or Children job that the copy pass reads: one
/// cache line per job (the copy pass reads a heap's thousands of them in a stream). A Convex
/// job's manifold is NarrowScratch::convex[worker][slot]; a Children job's are
/// NarrowScratch::childManifolds[job]; the counters are summed per chunk by the parallel pass
/// (NarrowChunk::counters) and kept per job in NarrowScratch::jobCounters for a chunk the merge
/// changes.
struct alignas(64) NarrowResult {
  /// Convex: what the new ContactPair keeps of the manifold (its GJK warm start and distance),
  /// so that a manifold without points leaves the worker's list at once.
  GjkSimplex cache;
  int worker = 0;  ///< Convex: the worker that made the manifold
  Real distance = 0.0;
  int slot = -1;             ///< Convex: its index in that worker's list, -1 when it has no points
  PackedAxis axis;           ///< ContactPair::axis
  bool recycled = false;     ///< NarrowSummary::recycled
  bool overlapping = false;  ///< NarrowSummary::overlapping
};
static_assert(sizeof(NarrowResult) == 64);

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
  /// The counters of the chunk's Convex and Children jobs and how many Convex jobs were recycled
  /// (integer sums and maxima: any order gives the same); summed again from
  /// NarrowScratch::jobCounters when the merge decided a job of the chunk again (`recount`).
  NarrowPhaseCounters counters;
  int recycled = 0;
  bool recount = false;
};

/// One sampled cross-check of the narrow phase with threads (dynamics/world_crosscheck.h): the
/// pair (or its touching children), its sequence number, and the result of its parallel run.
struct CrossCheckRun {
  int indexA = 0, indexB = 0;
  bool children = false;  ///< `key` names the touching pair of children (crossCheckChildren)
  uint64_t key = 0;
  uint64_t sequence = 0;
  bool skipped = false;  ///< a cylinder core: the LP test takes point sets only
  CrossCheckResult result;
};

struct NarrowScratch {
  std::vector<NarrowJob> jobs;      ///< one per sorted pair key
  std::vector<NarrowChunk> chunks;  ///< one per chunk of jobs of the parallel passes
  /// Per job (Convex and Children jobs of the parallel pass); never shrunk, so the vectors keep
  /// their capacity.
  std::vector<NarrowResult> results;
  std::vector<NarrowPhaseCounters> jobCounters;
  std::vector<std::vector<Manifold>> childManifolds;  ///< Children: one per touching child pair
  /// Per worker: the Convex jobs' manifolds with points, in the order the worker made them. Only
  /// the pairs that need work take one (a slot per pair key was 20 MB of sparse writes in a
  /// 2000-box heap), and a chunk's are contiguous, so the merge reads them in streams.
  std::vector<std::vector<Manifold>> convex;
  std::vector<std::vector<ChildContact>> childContacts;  ///< per worker
  /// Convex jobs collided again by the merge (a body woken by an earlier pair changed them).
  std::vector<Manifold> late;
  /// The cross-checks the merge sampled, in sequence order.
  std::vector<CrossCheckRun> checks;
};

}  // namespace tumble
