#pragma once
/// Time of impact of a convex set translating towards another (shape casts): conservative
/// advancement on GJK distance. Stateless, on support mappings and transforms; no allocation.

#include "tumble/settings.h"
#include "tumble/support.h"

namespace tumble {

/// Hit: the sets touch at `fraction` (within the tolerance); Miss: they do not within
/// [0, maxFraction] (or move apart); MaxIterations: the cap was reached first, and `fraction` is
/// a lower bound on the time of impact (reported as a hit there).
enum class CastStatus { Hit, Miss, MaxIterations };

struct CastResult {
  CastStatus status = CastStatus::Miss;
  Real fraction = 0.0;  ///< of the translation, in [0, maxFraction]
  Vec3 point{0.0};      ///< m, world: on B's surface (core grown by radiusB)
  /// Unit, world, from B towards A. With the cores overlapping at fraction 0, -translation
  /// normalised (or +y for a zero translation).
  Vec3 normal{0.0};
  int iterations = 0;  ///< GJK distance queries made
  bool hit() const { return status != CastStatus::Miss; }
};

/// The separation (GJK distance less both radii, m) below which a cast counts as touching:
/// 1e-12 m per metre of translation, and at least 1e-12 m.
inline constexpr Real kCastTolerance = 1e-12;
/// The most GJK queries one cast makes (Newton's method on a convex function converges in a
/// handful; the cap bounds a degenerate case).
inline constexpr int kCastMaxIterations = 64;

/// A (core `a` under `xa`, grown by `radiusA` m) translated by `translation` * t, t in
/// [0, maxFraction], against B (core `b` under `xb`, grown by `radiusB`): the first t where they
/// touch. Conservative advancement (Mirtich 1996) for a pure translation: the distance d(t) is
/// convex in t, so each step t += d / (n . translation) (n the unit direction from A's closest
/// point to B's) is Newton's method from below and never passes the time of impact. Stops when
/// d < kCastTolerance scaled, when a step no longer changes t (rounding), or after
/// kCastMaxIterations. Overlapping at t = 0 gives a hit at fraction 0.
CastResult castCores(const SupportShape& a, const Transform& xa, Real radiusA,
                     const Vec3& translation, const SupportShape& b, const Transform& xb,
                     Real radiusB, Real maxFraction, const Settings::Gjk& settings);

}  // namespace tumble
