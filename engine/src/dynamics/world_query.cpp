// World queries and interaction: ray casts, drag constraints, energy, debug drawing.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "dynamics/body_cores.h"
#include "dynamics/drag.h"
#include "tumble/world.h"

namespace tumble {

RayHit World::rayCast(const Vec3& origin, const Vec3& direction) const {
  RayHit best;
  QueryFilter every;
  every.includeSensors = true;
  const std::optional<RayCastHit> hit = castRayClosest(origin, direction, every);
  if (!hit) return best;
  best.hit = true;
  best.body = hit->body;
  best.point = hit->point;
  best.normal = hit->normal;
  best.fraction = hit->fraction;
  return best;
}

namespace {
bool passesBits(const QueryFilter& q, const BodyFilter& f) {
  return (f.category & q.mask) != 0 && (q.category & f.mask) != 0;
}
}  // namespace

bool World::accepts(const QueryFilter& filter, int index) const {
  const Body& b = bodies_[index];
  if (b.isSensor && !filter.includeSensors) return false;
  // A compound with filtered or sensor children: some solid child's filter must pass (each child
  // is then tested by acceptsPiece).
  if (!anySolidFilter(b, [&](const BodyFilter& f) { return passesBits(filter, f); })) return false;
  const BodyId id{index, b.generation};
  if (filter.ignore == id) return false;
  return !filter.predicate || filter.predicate(id);
}

void World::refreshStale() const {
  if (staleEpoch_ == queryEpoch_) return;
  staleEpoch_ = queryEpoch_;
  stale_.clear();
  isStale_.assign(bodies_.size(), 0);
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    const Body& b = bodies_[i];
    // Static bodies move only by setTransform, which refits their proxy at once.
    if (!b.alive || b.type == BodyType::Static) continue;
    if (broadPhase_.tree().fatAabb(b.proxy).contains(bodyAabb(b))) continue;
    stale_.push_back(i);
    isStale_[i] = 1;
  }
}

bool World::acceptsPiece(const QueryFilter& filter, const Body& b, int child) const {
  if (!flaggedCompound(b)) return true;  // accepts() has tested the body's filter
  const BodyFilter* f = pieceFilter(b, child);
  return f && passesBits(filter, *f);
}

bool World::rayBody(int index, const RayInput& ray, const QueryFilter& filter,
                    RayCastHit& hit) const {
  const Body& b = bodies_[index];
  const Transform xf = b.transform();
  const Vec3 o = xf.applyInverse(ray.origin), d = xf.rotateInverse(ray.direction);
  Real t = 0.0;
  Vec3 n(0.0);
  int child = -1;
  if (const Compound* c = b.shape.compound()) {
    // Shape::rayCast's loop, keeping the child: the nearest, ties to the lower child.
    bool any = false;
    for (int k = 0; k < static_cast<int>(c->children.size()); ++k) {
      if (!acceptsPiece(filter, b, k)) continue;
      const CompoundChild& ch = c->children[k];
      Real tk;
      Vec3 nk;
      if (!ch.shape.rayCast(ch.local.applyInverse(o), ch.local.rotateInverse(d),
                            any ? t : ray.maxFraction, tk, nk) ||
          (any && !(tk < t)))
        continue;
      any = true, t = tk, n = ch.local.rotate(nk), child = k;
    }
    if (!any) return false;
  } else if (!b.shape.rayCast(o, d, ray.maxFraction, t, n)) {
    return false;
  }
  hit.body = {index, b.generation};
  hit.fraction = t;
  hit.point = ray.origin + t * ray.direction;
  hit.normal = xf.rotate(n);
  hit.child = child;
  return true;
}

std::optional<RayCastHit> World::castRayClosest(const Vec3& origin, const Vec3& translation,
                                                const QueryFilter& filter) const {
  std::optional<RayCastHit> best;
  if (!(glm::dot(translation, translation) > 0.0)) return best;
  refreshStale();
  auto consider = [&](int index, const RayInput& ray) {
    RayCastHit h;
    if (!accepts(filter, index) || !rayBody(index, ray, filter, h)) return;
    // Ties go to the lower index, whatever the tree order.
    if (best &&
        (h.fraction > best->fraction || (h.fraction == best->fraction && index > best->body.index)))
      return;
    best = h;
  };
  broadPhase_.tree().rayCast(RayInput{origin, translation, 1.0},
                             [&](const RayInput& ray, int proxy) -> Real {
                               const int index = broadPhase_.tree().userData(proxy);
                               if (!isStale_[index]) consider(index, ray);
                               return best ? best->fraction : ray.maxFraction;
                             });
  for (const int index : stale_) consider(index, RayInput{origin, translation, 1.0});
  return best;
}

std::optional<RayCastHit> World::castRayAny(const Vec3& origin, const Vec3& translation,
                                            const QueryFilter& filter) const {
  std::optional<RayCastHit> found;
  if (!(glm::dot(translation, translation) > 0.0)) return found;
  refreshStale();
  broadPhase_.tree().rayCast(
      RayInput{origin, translation, 1.0}, [&](const RayInput& ray, int proxy) -> Real {
        const int index = broadPhase_.tree().userData(proxy);
        RayCastHit h;
        if (isStale_[index] || !accepts(filter, index) || !rayBody(index, ray, filter, h))
          return ray.maxFraction;
        found = h;
        return 0.0;
      });
  for (const int index : stale_) {
    if (found) break;
    RayCastHit h;
    if (accepts(filter, index) && rayBody(index, RayInput{origin, translation, 1.0}, filter, h))
      found = h;
  }
  return found;
}

std::vector<RayCastHit> World::castRayAll(const Vec3& origin, const Vec3& translation,
                                          const QueryFilter& filter) const {
  std::vector<RayCastHit> hits;
  if (!(glm::dot(translation, translation) > 0.0)) return hits;
  refreshStale();
  auto consider = [&](int index, const RayInput& ray) {
    RayCastHit h;
    if (accepts(filter, index) && rayBody(index, ray, filter, h)) hits.push_back(h);
  };
  broadPhase_.tree().rayCast(RayInput{origin, translation, 1.0},
                             [&](const RayInput& ray, int proxy) -> Real {
                               const int index = broadPhase_.tree().userData(proxy);
                               if (!isStale_[index]) consider(index, ray);
                               return ray.maxFraction;
                             });
  for (const int index : stale_) consider(index, RayInput{origin, translation, 1.0});
  std::sort(hits.begin(), hits.end(), [](const RayCastHit& a, const RayCastHit& b) {
    return a.fraction < b.fraction || (a.fraction == b.fraction && a.body.index < b.body.index);
  });
  return hits;
}

Expected<DragId> World::createDrag(BodyId body, const Vec3& worldPoint, const DragDef& def) {
  ++edits_;
  using E = Expected<DragId>;
  if (!isAlive(body)) return E::failure("createDrag: the body is not alive");
  const Body& b = bodies_[body.index];
  if (!b.isDynamic()) return E::failure("createDrag: the body is not dynamic");
  if (!isFinite(worldPoint)) return E::failure("createDrag: the point is not finite");
  if (!(def.frequency > 0.0 && def.frequency <= 1e6))
    return E::failure("createDrag: frequency " + std::to_string(def.frequency) +
                      " Hz out of range (0, 1e6]");
  if (!(def.dampingRatio >= 0.0 && def.dampingRatio <= 1e3))
    return E::failure("createDrag: damping ratio " + std::to_string(def.dampingRatio) +
                      " out of range [0, 1000]");
  if (!(def.maxForcePerMass >= 0.0 && std::isfinite(def.maxForcePerMass)))
    return E::failure("createDrag: max force per mass " + std::to_string(def.maxForcePerMass) +
                      " N/kg must be finite and >= 0");
  auto d = std::make_unique<DragConstraint>();
  d->body = body.index;
  d->localAnchor = glm::conjugate(b.rotation) * (worldPoint - b.center);
  d->target = worldPoint;
  d->def = def;
  size_t slot = 0;
  while (slot < drags_.size() && drags_[slot]) ++slot;
  if (slot == drags_.size()) {
    drags_.emplace_back();
    dragGenerations_.push_back(0);
  }
  drags_[slot] = std::move(d);
  wakeBody(body.index);
  return DragId{static_cast<int>(slot), dragGenerations_[slot]};
}

bool World::isAlive(DragId drag) const {
  return drag.index >= 0 && drag.index < static_cast<int>(drags_.size()) && drags_[drag.index] &&
         dragGenerations_[drag.index] == drag.generation;
}

std::vector<DragId> World::dragIds() const {
  std::vector<DragId> ids;
  for (size_t k = 0; k < drags_.size(); ++k)
    if (drags_[k]) ids.push_back({static_cast<int>(k), dragGenerations_[k]});
  return ids;
}

void World::setDragTarget(DragId drag, const Vec3& target) {
  ++edits_;
  if (!checkDrag(drag, "setDragTarget")) return;
  if (!isFinite(target)) return;
  drags_[drag.index]->target = target;
  wakeBody(drags_[drag.index]->body);
}

void World::destroyDrag(DragId drag) {
  ++edits_;
  if (!checkDrag(drag, "destroyDrag")) return;
  drags_[drag.index].reset();
  ++dragGenerations_[drag.index];
}

uint64_t World::stateHash() const {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 (Fowler, Noll, Vo)
  auto add = [&](Real x) {
    unsigned char bytes[sizeof(Real)];
    std::memcpy(bytes, &x, sizeof(Real));
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  };
  for (const Body& b : bodies_) {
    if (!b.alive) continue;
    for (int k = 0; k < 3; ++k)
      add(b.center[k]), add(b.linearVelocity[k]), add(b.angularVelocity[k]);
    add(b.rotation.w), add(b.rotation.x), add(b.rotation.y), add(b.rotation.z);
  }
  return h;
}

Energy World::energy() const {
  Energy e;
  for (const Body& b : bodies_) {
    if (!b.alive || !b.isDynamic()) continue;
    const Mat3 r = glm::mat3_cast(b.rotation);
    const Vec3 wl = glm::transpose(r) * b.angularVelocity;
    e.kinetic += 0.5 * b.mass * glm::dot(b.linearVelocity, b.linearVelocity) +
                 0.5 * glm::dot(wl, b.localInertia * wl);
    e.potential -= b.mass * glm::dot(settings_.gravity, b.center);
  }
  return e;
}

void World::debugDraw(DebugDraw& draw, const DebugDrawFlags& flags) const {
  if (flags.bodies)
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
      const Body& b = bodies_[i];
      if (!b.alive) continue;
      const int island = i < static_cast<int>(islandOf_.size()) ? islandOf_[i] : -1;
      draw.drawBody(viewOf(i), island);
    }
  if (flags.aabbs || flags.treeNodes)
    broadPhase_.tree().forEachNode([&](const Aabb& box, int depth, bool leaf) {
      if (leaf && flags.aabbs) draw.drawAabb(box, depth, Color{0.9f, 0.6f, 0.2f});
      if (!leaf && flags.treeNodes) draw.drawAabb(box, depth, Color{0.3f, 0.6f, 0.9f});
    });
  if (flags.contacts)
    for (const Manifold& m : manifolds_) {
      const Body& b = bodies_[m.b.index];
      for (int k = 0; k < m.pointCount; ++k)
        draw.drawContact(b.center + b.rotation * m.points[k].localB, m.normal,
                         m.points[k].normalImpulse, m.points[k].separation);
    }
  if (flags.islands) {
    std::map<int, Aabb> boxes;
    for (int i = 0; i < static_cast<int>(islandOf_.size()); ++i) {
      if (islandOf_[i] < 0 || !bodies_[i].alive) continue;
      const Aabb box = bodyAabb(bodies_[i]);
      auto [it, fresh] = boxes.emplace(islandOf_[i], box);
      if (!fresh) it->second = merge(it->second, box);
    }
    for (const auto& [island, box] : boxes) draw.drawAabb(box, island, Color{0.2f, 0.9f, 0.3f});
  }
  if (flags.joints) drawJoints(draw);
}

}  // namespace tumble
