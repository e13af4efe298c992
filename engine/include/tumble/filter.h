#pragma once
/// Collision filters (Box2D's b2Filter with 64 bits): the data a body, or one child of a compound
/// (shape.h, CompoundChild::filter), carries to decide what it collides with.

#include <cstdint>

namespace tumble {

/// Collision filter data of a body (Box2D's b2Filter, 64 bits). It decides which pairs of bodies
/// make contacts and which bodies a sensor sees (shouldCollide), and which bodies the world's
/// queries accept (World::castRay*, overlap*, castShape with a QueryFilter). The defaults
/// (category bit 0, every mask bit, group 0) let everything through.
struct BodyFilter {
  uint64_t category = 1;         ///< the bits this body belongs to
  uint64_t mask = ~uint64_t{0};  ///< the categories this body accepts
  /// 0: none; two bodies of the same negative group never collide, of the same positive group
  /// always do, whatever their bits. Queries do not read it (a query has no group).
  int group = 0;
  friend bool operator==(const BodyFilter&, const BodyFilter&) = default;
};

/// Whether bodies with filters `a` and `b` may touch: a shared nonzero group decides alone
/// (negative: never, positive: always); otherwise (a.category & b.mask) != 0 and
/// (b.category & a.mask) != 0 (Box2D's b2ShouldShapesCollide).
inline bool shouldCollide(const BodyFilter& a, const BodyFilter& b) {
  if (a.group == b.group && a.group != 0) return a.group > 0;
  return (a.category & b.mask) != 0 && (b.category & a.mask) != 0;
}

}  // namespace tumble
