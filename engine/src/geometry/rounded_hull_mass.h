#pragma once
// The vertices' normal cones of a convex hull, as the rounded hull's mass properties integrate
// them (rounded_hull_mass.cpp; tests check them against the sphere's integrals).
#include <vector>

#include "tumble/hull.h"

namespace tumble {

/// One vertex's normal cone: the directions u (unit) in which the vertex is the hull's support.
struct NormalCone {
  Real solidAngle = 0.0;  ///< sr: its area on the unit sphere
  Vec3 first{0.0};        ///< the integral of u over it
  Mat3 second{0.0};       ///< the integral of u u^T over it
};

/// The normal cone of each vertex (indexed as core.vertices()); exact closed forms. The cones
/// tile the sphere: solid angles sum to 4 pi, first moments to 0, second moments to 4 pi / 3 Id.
std::vector<NormalCone> normalCones(const ConvexHull& core);

}  // namespace tumble
