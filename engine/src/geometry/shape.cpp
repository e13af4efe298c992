// Shape: the per-kind geometry behind one value type. Every shape is a hull today; a new kind adds
// its branch to each query here.
#include "tumble/shape.h"

#include <algorithm>
#include <cmath>

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

}  // namespace tumble
