#include <glm/gtc/matrix_access.hpp>

#include "tumble/hull.h"

namespace tumble {

// Exact integrals over the polytope by splitting it into tetrahedra (r, p0, pi, pi+1), one fan per
// face, with r the mean of the vertices (Blow & Binstock 2004, "How to find the inertia tensor
// of a 3D solid body represented by a triangle mesh"; Tonon 2004 for the closed forms). With the
// edges a, b, c of a tetrahedron from r and d = det[a b c]:
//   volume            d / 6
//   integral of x     d (a + b + c) / 24
//   integral of x x^T d (a a^T + b b^T + c c^T + s s^T) / 120,   s = a + b + c
// (the canonical tetrahedron's covariance is (I + 1 1^T) / 120). Working relative to r keeps the
// products small when the hull sits far from the origin.
MassProperties ConvexHull::massProperties(Real density) const {
  MassProperties out;
  if (vertices_.empty()) return out;
  Vec3 reference(0.0);
  for (const Vec3& v : vertices_) reference += v;
  reference /= static_cast<Real>(vertices_.size());

  Real sixVolume = 0.0;
  Vec3 firstMoment(0.0);   // times 24
  Mat3 secondMoment(0.0);  // times 120
  for (const HullFace& face : faces_) {
    const auto& cycle = face.vertices;
    Vec3 a = vertices_[static_cast<size_t>(cycle[0])] - reference;
    for (size_t i = 1; i + 1 < cycle.size(); ++i) {
      Vec3 b = vertices_[static_cast<size_t>(cycle[i])] - reference;
      Vec3 c = vertices_[static_cast<size_t>(cycle[i + 1])] - reference;
      Real d = glm::dot(a, glm::cross(b, c));
      Vec3 s = a + b + c;
      sixVolume += d;
      firstMoment += d * s;
      secondMoment += d * (glm::outerProduct(a, a) + glm::outerProduct(b, b) +
                           glm::outerProduct(c, c) + glm::outerProduct(s, s));
    }
  }
  Real volume = sixVolume / 6.0;
  Vec3 center = firstMoment / (24.0 * volume);  // relative to the reference point
  // Covariance about the centre of mass, then I = trace(C) Id - C.
  Mat3 covariance = secondMoment / 120.0 - volume * glm::outerProduct(center, center);
  Real trace = covariance[0][0] + covariance[1][1] + covariance[2][2];
  out.volume = volume;
  out.mass = density * volume;
  out.centerOfMass = reference + center;
  out.inertia = density * (Mat3(trace) - covariance);
  return out;
}

}  // namespace tumble
