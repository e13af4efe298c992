// Contact filtering, contact events (begin, end, hit) and sensors (docs/ARCHITECTURE.md, "Events
// and filtering"). Events are arrays read after the step, as Box2D v3's; nothing here calls back
// into user code but the contact filter, which the step asks in pair order.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dynamics/body_cores.h"
#include "tumble/gjk.h"
#include "tumble/world.h"

namespace tumble {
namespace {

// A touching pair stays touching while a point is this close (m): the points of a contact that
// settles or rocks cross separation 0 by micrometres from step to step, which must not end and
// begin the episode again (Box2D counts speculative points instead, which this engine does not).
constexpr Real kTouchRelease = 0.005;

// The first point of the pair's manifolds with separation <= `within` (m), or null.
const ContactPoint* touchingPoint(const Manifold* first, int count, Real within,
                                  const Manifold** owner) {
  for (int k = 0; k < count; ++k) {
    const Manifold& m = first[k];
    for (int i = 0; i < m.pointCount; ++i)
      if (m.points[i].separation <= within) {
        *owner = &m;
        return &m.points[i];
      }
  }
  return nullptr;
}

// Midway between the two anchors of a contact point (both on the surfaces), world.
Vec3 worldPoint(const Body& a, const Body& b, const ContactPoint& cp) {
  return 0.5 * (a.center + a.rotation * cp.localA + b.center + b.rotation * cp.localB);
}

template <class T>
void append(std::vector<T>& to, std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
  from.clear();
}

}  // namespace

void World::countFlags(const Body& b, int sign) {
  const Compound* c = b.shape.compound();
  if (!(b.filter == BodyFilter{}) || (c && c->anyFilter)) filteredBodies_ += sign;
  if (b.isSensor || (c && c->anySensor)) sensorBodies_ += sign;
  if (b.hitEventSpeed < std::numeric_limits<Real>::infinity()) hitBodies_ += sign;
  if (b.bullet) bullets_ += sign;
  if (b.type == BodyType::Kinematic) kinematicBodies_ += sign;
}

void World::setFilter(BodyId id, const BodyFilter& filter) {
  ++edits_;
  if (!checkBody(id, "setFilter")) return;
  Body& b = bodies_[id.index];
  countFlags(b, -1);
  b.filter = filter;
  countFlags(b, +1);
  // Sleeping pairs it now accepts would wait for something to wake them; those it now rejects
  // would leave their bodies resting on nothing. The broad phase holds no pair its filters
  // rejected, so the partners are every body whose fat box meets this one's, and the proxy is
  // queried again at the next update for the pairs the new filter accepts.
  wakeBody(id.index);
  broadPhase_.tree().query(broadPhase_.tree().fatAabb(b.proxy), [&](int proxy) {
    const int other = broadPhase_.tree().userData(proxy);
    if (other != id.index) wakeBody(other);
    return true;
  });
  broadPhase_.requery(b.proxy);
}

bool World::bodyFiltersReject(const Body& a, const Body& b) const {
  return filteredBodies_ > 0 && !flaggedCompound(a) && !flaggedCompound(b) &&
         !shouldCollide(a.filter, b.filter);
}

void World::setContactFilter(ContactFilter filter) {
  ++edits_;
  contactFilter_ = std::move(filter);
}

// `keys` sorted: joints, then the bodies' filters, then sensors (they make no contacts), then the
// user's filter, asked in key order. Each test runs only while some body needs it. A compound
// with filtered or sensor children passes when one pair of solid children could collide (the
// narrow phase, collideChildren, then filters child by child).
void World::filterPairs(std::vector<std::pair<int, int>>& keys) {
  // No test applies: nothing to ask per pair (two calls and a pass over the keys cost a heap of
  // 1000 boxes 2% of its step).
  if (!anyJoint() && filteredBodies_ == 0 && sensorBodies_ == 0 && !contactFilter_) return;
  std::erase_if(keys, [&](const std::pair<int, int>& k) {
    if (jointFiltered(k.first, k.second)) return true;
    const Body& a = bodies_[k.first];
    const Body& b = bodies_[k.second];
    if ((filteredBodies_ > 0 || sensorBodies_ > 0) && (flaggedCompound(a) || flaggedCompound(b))) {
      if (!anySolidFilter(a, [&](const BodyFilter& fa) {
            return anySolidFilter(b, [&](const BodyFilter& fb) { return shouldCollide(fa, fb); });
          }))
        return true;
    } else if (bodyFiltersReject(a, b)) {
      return true;
    }
    if (sensorBodies_ > 0 && (a.isSensor || b.isSensor)) return true;
    return contactFilter_ && !contactFilter_(idAt(k.first), idAt(k.second));
  });
}

// A pair the narrow phase just looked at (its manifolds the last of `manifolds`, still in
// cache): it begins when a point touches (separation <= 0) and it did not touch (or was not a
// pair); it ends when it touched and no point is within kTouchRelease. A kept sleeping pair keeps
// its flag and its points and is not settled, so sleeping and waking report nothing.
void World::settleTouch(ContactPair& p, bool was, const std::vector<Manifold>& manifolds) {
  const Manifold* m = nullptr;
  const ContactPoint* cp = p.manifold >= 0
                               ? touchingPoint(manifolds.data() + p.manifold, p.manifoldCount,
                                               was ? kTouchRelease : 0.0, &m)
                               : nullptr;
  p.touching = cp != nullptr;
  if (p.touching && !was)
    contactEvents_.begin.push_back(
        {p.a, p.b, worldPoint(bodies_[p.a.index], bodies_[p.b.index], *cp), m->normal});
  else if (!p.touching && was)
    contactEvents_.end.push_back({p.a, p.b});
}

// settleTouch in two halves for the narrow phase with threads: the test, on the pair's manifolds
// [first, first + count), runs in the parallel pass, so the merge settles each pair without
// reading its points; the events, in the merge.
bool World::touches(const Manifold* first, int count, bool was) {
  const Manifold* m = nullptr;
  return touchingPoint(first, count, was ? kTouchRelease : 0.0, &m) != nullptr;
}

void World::touchEvent(BodyId a, BodyId b, bool was, bool touching, const Manifold* first,
                       int count) {
  if (touching && !was) {
    const Manifold* m = nullptr;
    const ContactPoint* cp = touchingPoint(first, count, 0.0, &m);
    contactEvents_.begin.push_back(
        {a, b, worldPoint(bodies_[a.index], bodies_[b.index], *cp), m->normal});
  } else if (!touching && was) {
    contactEvents_.end.push_back({a, b});
  }
}

// Last step's pair that is no longer a pair (apart, filtered away).
void World::pairGone(const ContactPair& old) {
  if (old.touching) contactEvents_.end.push_back({old.a, old.b});
}

// Before the solver: each manifold whose bodies ask for hits keeps its fastest approaching point
// above the smaller threshold (Box2D's approach speed: minus the relative normal velocity).
void World::findHitCandidates() {
  hitCandidates_.clear();
  constexpr Real kOff = std::numeric_limits<Real>::infinity();
  for (int mi = 0; mi < static_cast<int>(manifolds_.size()); ++mi) {
    const Manifold& m = manifolds_[mi];
    const Body& A = bodies_[m.a.index];
    const Body& B = bodies_[m.b.index];
    const Real threshold = std::min(A.hitEventSpeed, B.hitEventSpeed);
    if (!(threshold < kOff)) continue;
    int best = -1;
    Real bestSpeed = threshold;
    Vec3 bestPoint(0.0);
    for (int i = 0; i < m.pointCount; ++i) {
      const Vec3 p = worldPoint(A, B, m.points[i]);
      const Real approach = -glm::dot(B.velocityAt(p) - A.velocityAt(p), m.normal);
      if (approach > bestSpeed) best = i, bestSpeed = approach, bestPoint = p;
    }
    if (best >= 0) hitCandidates_.push_back({mi, {m.a, m.b, bestPoint, m.normal, bestSpeed}});
  }
}

// After the solver: a candidate whose contact pushed (a point's normal impulse > 0) is a hit; a
// speculative point that never closed is not. A hit comes with or after its pair's begin, never
// before (Box2D's order): a speculative contact that stops a falling body within the step pushes
// a step before the narrow phase first measures a point at separation <= 0, so a pair that does
// not touch yet begins with its hit (at the hit's point and normal), and the next step's
// narrow phase finds it touching (points within kTouchRelease) or ends it.
void World::reportHits() {
  std::vector<ContactBeginEvent>& begins = contactEvents_.begin;
  const auto narrowBegins = static_cast<std::ptrdiff_t>(begins.size());
  for (const auto& [mi, hit] : hitCandidates_) {
    const Manifold& m = manifolds_[mi];
    bool pushed = false;
    for (int i = 0; i < m.pointCount; ++i) pushed = pushed || m.points[i].normalImpulse > 0.0;
    if (!pushed) continue;
    const std::pair key(m.a.index, m.b.index);
    const auto pair = std::partition_point(pairs_.begin(), pairs_.end(), [&](const ContactPair& p) {
      return std::pair(p.a.index, p.b.index) < key;
    });
    if (pair != pairs_.end() && pair->a.index == key.first && pair->b.index == key.second &&
        !pair->touching) {
      pair->touching = true;
      // A pair the narrow phase ended this step (its points drifted apart) that pushes again
      // goes on touching: its end is taken back instead of a begin after it.
      // (Searched whole: the ends of World calls before the step come first, out of order.)
      std::vector<ContactEndEvent>& ends = contactEvents_.end;
      const auto end = std::find_if(ends.begin(), ends.end(), [&](const ContactEndEvent& e) {
        return e.a.index == key.first && e.b.index == key.second;
      });
      if (end != ends.end())
        ends.erase(end);
      else
        begins.push_back({m.a, m.b, hit.point, hit.normal});
    }
    contactEvents_.hit.push_back(hit);
  }
  hitCandidates_.clear();
  // The narrow phase's begins are in (a, b) order and no pair is in both runs: the hits' begins
  // sorted and merged in, the array stays sorted (ContactEvents).
  auto byPair = [](const ContactBeginEvent& x, const ContactBeginEvent& y) {
    return std::pair(x.a.index, x.b.index) < std::pair(y.a.index, y.b.index);
  };
  std::sort(begins.begin() + narrowBegins, begins.end(), byPair);
  std::inplace_merge(begins.begin(), begins.begin() + narrowBegins, begins.end(), byPair);
}

// At the end of the step, each sensor (in index order) looks for visitors in the broad-phase tree
// at the bodies' final poses: non-sensor, non-static bodies its filter accepts (Box2D v3's rule),
// overlapping or touching by GJK on the cores with the radii (compound children and mesh
// triangles one by one). A sensor is a sensor body (child -1: all its pieces, its children's
// sensor flags aside) or a sensor child of a solid body's compound (that piece alone); a visitor's
// sensor children are not matter and are not seen, and with compound child filters each pair of
// pieces is filtered (pieceFilter) instead of the bodies.
void World::updateSensors() {
  if (sensorBodies_ == 0 && sensorOverlaps_.empty()) return;
  refreshStale();
  sensorScratch_.clear();
  for (int s = 0; s < static_cast<int>(bodies_.size()); ++s) {
    const Body& S = bodies_[s];
    if (!S.alive) continue;
    const Compound* cs = flaggedCompound(S);
    if (!S.isSensor && !(cs && cs->anySensor)) continue;
    const Transform xs = S.transform();
    // child -1: the sensor body whole; else the sensor child `child` of a solid body.
    auto detect = [&](int child, const Aabb& boxS) {
      std::vector<int>& found = sensorCandidates_;
      found.clear();
      broadPhase_.tree().query(boxS, [&](int proxy) {
        const int index = broadPhase_.tree().userData(proxy);
        if (!isStale_[index]) found.push_back(index);
        return true;
      });
      for (const int index : stale_) found.push_back(index);
      std::sort(found.begin(), found.end());
      for (const int v : found) {
        const Body& V = bodies_[v];
        if (v == s || !V.alive || V.isSensor || V.type == BodyType::Static) continue;
        const bool byPiece = cs || flaggedCompound(V);
        if (!byPiece && filteredBodies_ > 0 && !shouldCollide(S.filter, V.filter)) continue;
        const Aabb boxV = bodyAabb(V);
        if (!boxS.overlaps(boxV)) continue;
        const Transform xv = V.transform();
        bool overlap = false;
        forEachCore(S, xs, boxV, [&](const SupportShape& sc, const Transform& xsc, Real rs, int i) {
          if (overlap || (child >= 0 && i != child)) return;
          const BodyFilter& fs = cs && i >= 0 ? cs->childFilter(i, S.filter) : S.filter;
          forEachCore(V, xv, boxS,
                      [&](const SupportShape& cv, const Transform& xcv, Real rv, int j) {
                        if (overlap) return;
                        if (byPiece) {
                          const BodyFilter* fv = pieceFilter(V, j);
                          if (!fv || !shouldCollide(fs, *fv)) return;
                        }
                        const GjkResult g = gjkDistance(sc, xsc, cv, xcv, settings_.gjk);
                        overlap = g.intersecting() || g.distance <= rs + rv;
                      });
        });
        if (overlap) sensorScratch_.push_back({idAt(s), idAt(v), child});
      }
    };
    if (S.isSensor) {
      detect(-1, bodyAabb(S));
      continue;  // a sensor body is one sensor, its children's flags aside
    }
    for (int k = 0; k < static_cast<int>(cs->children.size()); ++k) {
      const CompoundChild& ch = cs->children[static_cast<size_t>(k)];
      if (ch.isSensor) detect(k, ch.shape.bounds(compose(xs, ch.local)));
    }
  }
  // Both sorted by (sensor, sensor child, visitor): the difference is the events.
  auto less = [](const SensorEvent& x, const SensorEvent& y) {
    if (x.sensor.index != y.sensor.index) return x.sensor.index < y.sensor.index;
    if (x.sensorChild != y.sensorChild) return x.sensorChild < y.sensorChild;
    return x.visitor.index < y.visitor.index;
  };
  size_t oi = 0;
  for (const SensorEvent& e : sensorScratch_) {
    while (oi < sensorOverlaps_.size() && less(sensorOverlaps_[oi], e))
      sensorEvents_.end.push_back(sensorOverlaps_[oi++]);
    if (oi < sensorOverlaps_.size() && !less(e, sensorOverlaps_[oi]))
      ++oi;
    else
      sensorEvents_.begin.push_back(e);
  }
  for (; oi < sensorOverlaps_.size(); ++oi) sensorEvents_.end.push_back(sensorOverlaps_[oi]);
  sensorOverlaps_.swap(sensorScratch_);
}

// Start of a step: last step's events go; those of World calls since then come first.
void World::beginEvents() {
  contactEvents_.begin.clear();
  contactEvents_.end.clear();
  contactEvents_.hit.clear();
  sensorEvents_.begin.clear();
  sensorEvents_.end.clear();
  append(contactEvents_.end, pendingContact_.end);
  append(sensorEvents_.end, pendingSensor_.end);
}

// End of a step: bodies the step removed (non-finite) end their contacts and overlaps.
void World::endEvents() {
  append(contactEvents_.end, pendingContact_.end);
  append(sensorEvents_.end, pendingSensor_.end);
}

// A body about to be destroyed ends its touching pairs and its overlaps (reported with the next
// step's events, or this step's when the step removes it).
void World::eventsOnDestroy(BodyId id) {
  for (const ContactPair& p : pairs_)
    if (p.touching && (p.a == id || p.b == id)) pendingContact_.end.push_back({p.a, p.b});
  for (const SensorEvent& e : sensorOverlaps_)
    if (e.sensor == id || e.visitor == id) pendingSensor_.end.push_back(e);
  std::erase_if(sensorOverlaps_,
                [&](const SensorEvent& e) { return e.sensor == id || e.visitor == id; });
  countFlags(bodies_[id.index], -1);
}

}  // namespace tumble
