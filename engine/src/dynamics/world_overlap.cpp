// World queries on convex shapes: overlaps (AABB, sphere, convex shape) and shape casts.
#include <algorithm>
#include <cmath>

#include "dynamics/body_cores.h"
#include "tumble/gjk.h"
#include "tumble/shape_cast.h"
#include "tumble/world.h"

namespace tumble {

std::vector<BodyId> World::overlapAabb(const Aabb& box, const QueryFilter& filter) const {
  std::vector<BodyId> out;
  refreshStale();
  auto consider = [&](int index) {
    const Body& b = bodies_[index];
    if (!accepts(filter, index) || !bodyAabb(b).overlaps(box)) return;
    if (const Compound* c = flaggedCompound(b)) {
      // Only the children the filter accepts count: one of their boxes must overlap.
      const Transform xf = b.transform();
      bool any = false;
      for (int k = 0; k < static_cast<int>(c->children.size()) && !any; ++k) {
        const CompoundChild& ch = c->children[static_cast<size_t>(k)];
        any = acceptsPiece(filter, b, k) && ch.shape.bounds(compose(xf, ch.local)).overlaps(box);
      }
      if (!any) return;
    }
    out.push_back({index, b.generation});
  };
  broadPhase_.tree().query(box, [&](int proxy) {
    const int index = broadPhase_.tree().userData(proxy);
    if (!isStale_[index]) consider(index);
    return true;
  });
  for (const int index : stale_) consider(index);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<BodyId> World::overlapCore(const SupportShape& core, const Transform& xf, Real radius,
                                       const Aabb& box, const QueryFilter& filter) const {
  std::vector<BodyId> out;
  refreshStale();
  auto consider = [&](int index) {
    const Body& b = bodies_[index];
    if (!accepts(filter, index) || !bodyAabb(b).overlaps(box)) return;
    bool touched = false;
    forEachCore(b, b.transform(), box,
                [&](const SupportShape& s, const Transform& xs, Real r, int child) {
                  if (touched || !acceptsPiece(filter, b, child)) return;
                  const GjkResult g = gjkDistance(core, xf, s, xs, settings_.gjk);
                  touched = g.intersecting() || g.distance <= radius + r;
                });
    if (touched) out.push_back({index, b.generation});
  };
  broadPhase_.tree().query(box, [&](int proxy) {
    const int index = broadPhase_.tree().userData(proxy);
    if (!isStale_[index]) consider(index);
    return true;
  });
  for (const int index : stale_) consider(index);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<BodyId> World::overlapShape(const Shape& shape, const Transform& xf,
                                        const QueryFilter& filter) const {
  if (!shape || !shape.isConvex()) return {};
  return overlapCore(shape.support(), xf, shape.roundRadius(), shape.bounds(xf), filter);
}

std::vector<BodyId> World::overlapSphere(const Vec3& center, Real radius,
                                         const QueryFilter& filter) const {
  if (!(radius >= 0.0) || !std::isfinite(radius) || !isFinite(center)) return {};
  const Vec3 origin(0.0);
  SupportShape point;
  point.points = std::span<const Vec3>(&origin, 1);
  const Aabb box{center - Vec3(radius), center + Vec3(radius)};
  return overlapCore(point, Transform{center, Quat(1.0, 0.0, 0.0, 0.0)}, radius, box, filter);
}

std::optional<ShapeCastHit> World::castShape(const Shape& shape, const Transform& xf,
                                             const Vec3& translation,
                                             const QueryFilter& filter) const {
  std::optional<ShapeCastHit> best;
  if (!shape || !shape.isConvex() || !isFinite(translation)) return best;
  const SupportShape core = shape.support();
  const Real radius = shape.roundRadius();
  const Aabb start = shape.bounds(xf);
  const Aabb swept =
      merge(start, Aabb{start.lower + translation, start.upper + translation}).fattened(1e-9);
  refreshStale();
  auto consider = [&](int index) {
    const Body& b = bodies_[index];
    if (!accepts(filter, index) || !bodyAabb(b).overlaps(swept)) return;
    forEachCore(
        b, b.transform(), swept,
        [&](const SupportShape& s, const Transform& xs, Real r, int child) {
          if (!acceptsPiece(filter, b, child)) return;
          const CastResult c = castCores(core, xf, radius, translation, s, xs, r,
                                         best ? best->fraction : 1.0, settings_.gjk);
          if (!c.hit()) return;
          // The lowest (fraction, body index, child), whatever the tree's order.
          if (best &&
              (c.fraction > best->fraction ||
               (c.fraction == best->fraction &&
                (index > best->body.index || (index == best->body.index && child > best->child)))))
            return;
          best = ShapeCastHit{{index, b.generation}, c.fraction, c.point, c.normal, child,
                              c.iterations};
        });
  };
  broadPhase_.tree().query(swept, [&](int proxy) {
    const int index = broadPhase_.tree().userData(proxy);
    if (!isStale_[index]) consider(index);
    return true;
  });
  for (const int index : stale_) consider(index);
  return best;
}

// Continuous collision of bullets against moving bodies (Box2D v3's b2SolveContinuous, in its
// spirit): the solver has moved every body; each awake bullet is swept, at its new rotation, from
// its centre at the step's start to its new one against the new poses of the non-bullet bodies,
// and put back where it first touches one. Its velocity is kept: the next step's contact (the
// pair is then within the speculative distance) stops it. A body the bullet touches at the start
// (fraction 0) is left to the contact solver, as a resting contact would otherwise hold the
// bullet in place for ever. Only the earliest fraction matters, so the tree's order does not.
void World::sweepBullets() {
  ++queryEpoch_;  // the solver moved the bodies: the stale list is rebuilt below
  refreshStale();
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    Body& b = bodies_[i];
    if (!b.alive || !b.bullet || !b.awake || !b.shape.isConvex()) continue;
    const Vec3 translation = b.center - bulletStart_[i];
    if (!(glm::dot(translation, translation) > 0.0)) continue;
    const Transform start{bulletStart_[i] - b.rotation * b.localCenter, b.rotation};
    const Aabb from = b.shape.bounds(start);
    const Aabb swept =
        merge(from, Aabb{from.lower + translation, from.upper + translation}).fattened(1e-9);
    const Real radius = b.shape.roundRadius();
    Real best = 1.0;
    auto consider = [&](int index) {
      const Body& o = bodies_[index];
      if (index == i || !o.alive || o.bullet || !bodyAabb(o).overlaps(swept)) return;
      // Jointed bodies that do not collide (JointBase::collideConnected) do not stop it either.
      if (jointFiltered(std::min(i, index), std::max(i, index))) return;
      // Nor do sensors, bodies or children whose filter rejects the bullet's (a sensor child is
      // not matter).
      const bool byChild = flaggedCompound(o) != nullptr;
      if (o.isSensor || (!byChild && !shouldCollide(b.filter, o.filter))) return;
      forEachCore(
          o, o.transform(), swept, [&](const SupportShape& s, const Transform& xs, Real r, int k) {
            if (byChild) {
              const BodyFilter* f = pieceFilter(o, k);
              if (!f || !shouldCollide(b.filter, *f)) return;
            }
            const CastResult c =
                castCores(b.support, start, radius, translation, s, xs, r, best, settings_.gjk);
            if (c.hit() && c.fraction > 0.0 && c.fraction < best) best = c.fraction;
          });
    };
    broadPhase_.tree().query(swept, [&](int proxy) {
      const int index = broadPhase_.tree().userData(proxy);
      if (!isStale_[index]) consider(index);
      return true;
    });
    for (const int index : stale_) consider(index);
    if (best < 1.0) b.center = bulletStart_[i] + best * translation;
  }
  ++queryEpoch_;
}

}  // namespace tumble
