#pragma once
/// Engine-internal: the narrow phase's work lists (World::updateContacts), kept from step to step
/// so that a step allocates nothing once the world has grown.

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
  int result = -1;   ///< Convex, Children: index into NarrowScratch::results
  Kind kind = Kind::Asleep;
  bool activeA = false, activeB = false;  ///< the bodies' awake flags when classified
  Real speculative = 0.0;                 ///< m, the pair's reach (Convex, Children)
  Real bound = 0.0;                       ///< m, the distance bound (Bounded)
};

/// What collide() and the manifold update of one pair counted and decided.
struct NarrowSummary {
  NarrowPhaseCounters counters;
  bool recycled = false;     ///< Convex: last step's manifold kept (contact recycling)
  bool overlapping = false;  ///< some pair of children overlaps (GJK's verdict)
};

/// What the parallel pass found for one Convex or Children job (a Convex job's manifold is in
/// NarrowScratch::convex).
struct NarrowResult {
  std::vector<Manifold> manifolds;  ///< Children: one per touching pair of children, key order
  NarrowSummary summary;
};

struct NarrowScratch {
  std::vector<NarrowJob> jobs;  ///< one per sorted pair key
  /// Per job (Convex and Children jobs of the parallel pass); never shrunk, so the vectors keep
  /// their capacity.
  std::vector<NarrowResult> results;
  /// Per job: a Convex job's manifold (with or without points), contiguous so that the merge
  /// reads them in one stream.
  std::vector<Manifold> convex;
  std::vector<std::vector<ChildContact>> childContacts;  ///< per worker
};

}  // namespace tumble
