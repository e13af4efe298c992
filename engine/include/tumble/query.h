#pragma once
/// What the world's queries take and return: the filter choosing which bodies a query sees, and
/// the hits of ray casts, overlaps and shape casts (World::castRayClosest and the rest).

#include <cstdint>
#include <functional>

#include "tumble/body.h"
#include "tumble/math.h"

namespace tumble {

/// Which bodies a query considers (Box2D's b2QueryFilter, plus an ignored body and a predicate).
/// A body is considered iff (body.filter.category & mask) != 0 and (category & body.filter.mask)
/// != 0, it is not `ignore`, and `predicate` (when set) returns true for it. The defaults
/// consider every body with the default BodyFilter. Group indices do not apply to queries.
struct QueryFilter {
  uint64_t category = 1;         ///< the bits the query belongs to
  uint64_t mask = ~uint64_t{0};  ///< the body categories the query accepts
  BodyId ignore;                 ///< a body to skip (invalid id: none)
  /// Sensor bodies are skipped unless set (a trigger volume is not a wall: a ray, a shape cast or
  /// the character mover passes through it). Sensor children of a compound are always skipped.
  bool includeSensors = false;
  /// Called last, only for bodies that passed the bits; false skips the body. Must not change
  /// or query the world (the tree's walk is under way).
  std::function<bool(BodyId)> predicate;
};

/// One body a ray meets: where it enters it.
struct RayCastHit {
  BodyId body;
  Vec3 point{0.0};      ///< m, world
  Vec3 normal{0.0};     ///< unit outward surface normal at the point (against the ray at t = 0)
  Real fraction = 0.0;  ///< in [0, 1] of the cast segment
  int child = -1;       ///< the compound child hit; -1 for other kinds
};

/// The first body a swept convex shape meets (World::castShape).
struct ShapeCastHit {
  BodyId body;
  Real fraction = 0.0;  ///< in [0, 1] of the translation; 0 when overlapping at the start
  Vec3 point{0.0};      ///< m, world: the contact point on the body's surface
  /// Unit, world: the body's surface normal at the point (from the body towards the cast shape).
  /// At fraction 0 with the cores overlapping: against the translation.
  Vec3 normal{0.0};
  int child = -1;  ///< compound child or mesh / height-field triangle index; -1 for convex bodies
  int iterations = 0;  ///< conservative-advancement steps taken on the winning body
};

}  // namespace tumble
