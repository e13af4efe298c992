// Shape: the per-kind geometry behind one value type. Every shape is a hull today; a new kind adds
// its branch to each query here.
#include "tumble/shape.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace tumble {

SupportShape Shape::support() const {
  return hull_->supportShape();
}

MassProperties Shape::massProperties(Real density) const {
  return hull_->massProperties(density);
}

Aabb Shape::bounds(const Transform& xf) const {
  const auto& verts = hull_->vertices();
  Aabb box{xf.apply(verts[0]), xf.apply(verts[0])};
  for (size_t i = 1; i < verts.size(); ++i) {
    const Vec3 p = xf.apply(verts[i]);
    box.lower = glm::min(box.lower, p);
    box.upper = glm::max(box.upper, p);
  }
  return box;
}

Real Shape::radiusAbout(const Vec3& localPoint) const {
  Real r2 = 0.0;
  for (const Vec3& v : hull_->vertices()) {
    const Vec3 d = v - localPoint;
    r2 = std::max(r2, glm::dot(d, d));
  }
  return std::sqrt(r2);
}

Expected<Shape> makeBox(const Vec3& halfExtents) {
  for (int k = 0; k < 3; ++k)
    if (!(halfExtents[k] > 0.0 && std::isfinite(halfExtents[k])))
      return Expected<Shape>::failure("makeBox: half extent " + std::string(1, "xyz"[k]) + " = " +
                                      std::to_string(halfExtents[k]) +
                                      " (expected finite and > 0 m)");
  Vec3 corners[8];
  for (int i = 0; i < 8; ++i)
    corners[i] =
        Vec3(i & 1 ? halfExtents.x : -halfExtents.x, i & 2 ? halfExtents.y : -halfExtents.y,
             i & 4 ? halfExtents.z : -halfExtents.z);
  return makeHull(corners);
}

Expected<Shape> makeHull(std::span<const Vec3> points) {
  Expected<ConvexHull> hull = ConvexHull::build(points);
  if (!hull) return Expected<Shape>::failure(hull.error());
  return Shape(std::make_shared<const ConvexHull>(std::move(*hull)));
}

}  // namespace tumble
