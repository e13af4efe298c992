#pragma once
// Conservative advancement over a one-parameter motion of a chain (internal to src/chain).
//
// The motion moves some segments as a function of lambda in [0, total]. For each candidate pair
// the caller gives a rate: an upper bound on how fast the pair's distance can change per unit of
// lambda (a Lipschitz constant; for a rotation, the largest distance of a moving point from the
// axis). A pair measured with gap g at lambda is then safe (gap >= floor) up to
// lambda + (g - floor) / rate. Pairs are kept in a priority queue by the lambda up to which they
// are proven safe, so only the pair whose proof expires first is measured again (a lazy form of
// conservative advancement; Mirtich 1996, "Impulse-based dynamic simulation", ch. 4, and
// Zhang et al. 2006, "Continuous collision detection for articulated models using Taylor models
// and temporal culling", sec. 4).
//
// With T = tolerance * r: a pair measured with gap <= T/2 while closing (the derivative of its
// distance along the motion is <= 0) stops the motion there (contact). Otherwise its floor is
// -T/2, or -T when it is already below -T/4 and opening, so no configuration along the motion
// has a gap < -T, and every step of a pair above -T/4 is at least T / (4 rate).
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "tumble/chain.h"
#include "tumble/segment.h"

namespace tumble::chain_detail {

/// A pair to watch: segments a and b and the Lipschitz rate of their distance in lambda.
struct SweepPair {
  int a = 0;
  int b = 0;
  Real rate = 1.0;
};

/// The outcome of one advancement.
struct SweepOutcome {
  Real applied = 0.0;  ///< lambda reached, in [0, total]
  ChainMotionStatus status = ChainMotionStatus::Completed;
  std::optional<SegmentPair> contact;  ///< the pair that stopped the motion
  int substeps = 0;
};

/// Runs the advancement. `motion.segment(k, lambda, p0, p1)` gives segment k's endpoints at
/// lambda and `motion.velocity(k, u, lambda)` the velocity (d/dlambda) of its point at parameter
/// u in [0, 1].
template <class Motion>
SweepOutcome advance(const Motion& motion, const std::vector<SweepPair>& pairs, Real total,
                     Real radius, Real tolerance, int maxSubsteps) {
  const Real t = tolerance * radius;
  SweepOutcome out;
  if (!(total > 0.0)) return out;  // nothing to move: completed at 0
  struct Key {
    Real until;
    int pair;
    bool operator>(const Key& o) const {
      return until > o.until || (until == o.until && pair > o.pair);
    }
  };
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> queue;

  // Measures pair k at lambda: the lambda up to which it is safe, or contact.
  auto measure = [&](int k, Real lambda, Real& until) -> bool {
    const SweepPair& sp = pairs[k];
    Vec3 a0, a1, b0, b1;
    motion.segment(sp.a, lambda, a0, a1);
    motion.segment(sp.b, lambda, b0, b1);
    const SegmentClosest c = closestPointsSegmentSegment(a0, a1, b0, b1);
    const Real gap = c.distance - 2.0 * radius;
    bool closing = true;
    if (c.distance > 0.0) {
      const Vec3 n = (c.pointA - c.pointB) / c.distance;
      const Real rate =
          glm::dot(n, motion.velocity(sp.a, c.s, lambda) - motion.velocity(sp.b, c.t, lambda));
      closing = rate <= 0.0;
    }
    const Real floor = gap >= -0.25 * t ? -0.5 * t : -t;
    if ((gap <= 0.5 * t && closing) || gap <= floor) {
      out.contact = SegmentPair{std::min(sp.a, sp.b), std::max(sp.a, sp.b), gap};
      return false;
    }
    until = lambda + (gap - floor) / sp.rate;
    return true;
  };

  for (int k = 0; k < static_cast<int>(pairs.size()); ++k) {
    Real until = 0.0;
    if (!measure(k, 0.0, until)) {
      out.status = ChainMotionStatus::Blocked;
      return out;
    }
    if (until < total) queue.push(Key{until, k});
  }
  Real lambda = 0.0;
  while (!queue.empty()) {
    const Key top = queue.top();
    queue.pop();
    if (out.substeps >= maxSubsteps) {
      out.status = ChainMotionStatus::MaxSubsteps;
      out.applied = lambda;
      return out;
    }
    ++out.substeps;
    lambda = std::max(lambda, top.until);
    Real until = 0.0;
    if (!measure(top.pair, lambda, until)) {
      out.status = ChainMotionStatus::Blocked;
      out.applied = lambda;
      return out;
    }
    if (!(until > lambda)) {  // no progress left in floating point
      out.status = ChainMotionStatus::MaxSubsteps;
      out.applied = lambda;
      return out;
    }
    if (until < total) queue.push(Key{until, top.pair});
  }
  out.applied = total;
  out.status = ChainMotionStatus::Completed;
  return out;
}

}  // namespace tumble::chain_detail
