#pragma once
// Internal: the convex pieces of a body (itself, its compound children, its mesh or height-field
// triangles) near a box, for the world's overlap queries and its sensors.
#include <algorithm>
#include <cmath>

#include "tumble/detail/body_state.h"

namespace tumble {

// A world box in the frame `xf` (the box of the rotated box), grown by a rounding slack so a
// triangle or child whose box only touches the query's is still looked at.
inline Aabb toLocal(const Aabb& box, const Transform& xf) {
  const Vec3 c = 0.5 * (box.lower + box.upper), e = 0.5 * (box.upper - box.lower);
  const Mat3 r = glm::mat3_cast(glm::conjugate(xf.rotation));
  Vec3 ext;
  for (int k = 0; k < 3; ++k)
    ext[k] = std::abs(r[0][k]) * e.x + std::abs(r[1][k]) * e.y + std::abs(r[2][k]) * e.z;
  const Vec3 lc = xf.applyInverse(c);
  const Real slack = 1e-9 * (1.0 + std::max({ext.x, ext.y, ext.z}));
  return Aabb{lc - ext, lc + ext}.fattened(slack);
}

// The compound of `b` when some child has its own filter or is a sensor (shape.h,
// CompoundChild); null otherwise, and then the body's filter and sensor flag speak for it whole.
inline const Compound* flaggedCompound(const Body& b) {
  const Compound* c = b.shape.compound();
  return c && (c->anyFilter || c->anySensor) ? c : nullptr;
}

// The filter the piece `child` of `b` (forEachCore's index) collides with: a compound child's
// own, else the body's; null for a sensor child (it is not matter: nothing collides with it).
inline const BodyFilter* pieceFilter(const Body& b, int child) {
  const Compound* c = b.shape.compound();
  if (!c || child < 0) return &b.filter;
  const CompoundChild& ch = c->children[static_cast<size_t>(child)];
  return ch.isSensor ? nullptr : ch.filter ? &*ch.filter : &b.filter;
}

// True when f(filter) is true for one of the filters the solid (non-sensor) pieces of `b`
// collide with: the body's alone unless its compound is flagged, else each distinct child filter
// (Compound::solidFilters) and the body's when a solid child has none of its own.
template <class F>
bool anySolidFilter(const Body& b, F&& f) {
  const Compound* c = flaggedCompound(b);
  if (!c) return f(b.filter);
  for (const BodyFilter& x : c->solidFilters)
    if (f(x)) return true;
  return c->solidInherits && f(b.filter);
}

// Calls visit(core, pose, radius, child) for each convex piece of `b` (posed by `xf`) whose box
// may overlap `box`: the body itself when convex (child -1), its compound children, its mesh or
// height-field triangles (radius 0, child = triangle index), in a fixed order.
template <class Visit>
void forEachCore(const Body& b, const Transform& xf, const Aabb& box, Visit&& visit) {
  if (b.shape.isConvex()) {
    visit(b.support, xf, b.shape.roundRadius(), -1);
    return;
  }
  const Aabb local = toLocal(box, xf);
  auto triangle = [&](const TriangleRef& t) {
    SupportShape s;
    s.points = std::span<const Vec3>(t.v, 3);
    visit(s, xf, 0.0, static_cast<int>(t.index));
  };
  if (const Compound* c = b.shape.compound()) {
    c->tree.query(local, [&](int k) {
      const CompoundChild& ch = c->children[k];
      visit(ch.shape.support(), compose(xf, ch.local), ch.shape.roundRadius(), k);
    });
  } else if (const TriangleMesh* m = b.shape.mesh()) {
    m->forTriangles(local, triangle);
  } else if (const HeightField* f = b.shape.heightField()) {
    f->forTriangles(local, triangle);
  }
}

}  // namespace tumble
