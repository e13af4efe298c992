#pragma once
// Internal: the narrow-phase of one body pair. GJK (with a speculative margin), EPA when the
// shapes overlap, then a manifold of up to 4 points by clipping one supporting face against the
// other, and feature ids matched with last step's manifold for warm starting.
#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/settings.h"

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

/// Rebuilds `m` (its bodies a and b already set, a's index lower) for the current poses. Points
/// closer than `speculative` (m) are kept, negative separation meaning overlap. Impulses of points
/// whose feature id matches a point of `previous` are carried over (warm start).
void collideBodies(const Body& a, const Body& b, const Settings& s, Real speculative,
                   const Manifold* previous, Manifold& m, NarrowPhaseCounters& counters);

/// Builds the two unit tangents of `normal` (a right-handed, deterministic basis).
void tangentBasis(const Vec3& normal, Vec3& t1, Vec3& t2);

}  // namespace tumble
