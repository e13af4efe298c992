// World queries and interaction: ray casts, drag constraints, energy, debug drawing.
#include <cmath>
#include <cstring>
#include <map>
#include <string>

#include "dynamics/drag.h"
#include "tumble/world.h"

namespace tumble {

RayHit World::rayCast(const Vec3& origin, const Vec3& direction) const {
  RayHit best;
  if (!(glm::dot(direction, direction) > 0.0)) return best;
  RayInput input{origin, direction, 1.0};
  broadPhase_.tree().rayCast(input, [&](const RayInput& ray, int proxy) -> Real {
    const int index = broadPhase_.tree().userData(proxy);
    const Body& b = bodies_[index];
    const Transform xf = b.transform();
    Real t;
    Vec3 n;
    if (!b.shape.rayCast(xf.applyInverse(ray.origin), xf.rotateInverse(ray.direction),
                         ray.maxFraction, t, n))
      return ray.maxFraction;
    // Ties between bodies go to the lower index, whatever the tree order.
    if (best.hit && (t > best.fraction || (t == best.fraction && index > best.body.index)))
      return ray.maxFraction;
    best.hit = true;
    best.body = idAt(index);
    best.fraction = t;
    best.point = ray.origin + t * ray.direction;
    best.normal = xf.rotate(n);
    return t;
  });
  return best;
}

Expected<DragId> World::createDrag(BodyId body, const Vec3& worldPoint, const DragDef& def) {
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

void World::setDragTarget(DragId drag, const Vec3& target) {
  if (!checkDrag(drag, "setDragTarget")) return;
  if (!isFinite(target)) return;
  drags_[drag.index]->target = target;
  wakeBody(drags_[drag.index]->body);
}

void World::destroyDrag(DragId drag) {
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
