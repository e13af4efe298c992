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
