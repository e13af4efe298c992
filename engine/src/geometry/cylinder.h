#pragma once
// The cylinder's answers to Shape's queries (shape.cpp calls these for ShapeType::Cylinder).
#include "tumble/aabb.h"
#include "tumble/hull.h"
#include "tumble/shape.h"

namespace tumble::detail {

/// Analytic: m = density pi r^2 2h; about the axis m r^2 / 2, across it m (r^2 / 4 + h^2 / 3).
MassProperties cylinderMass(const CylinderCore& c, Real density);
/// The tight box under `xf`: along world axis i, h |a_i| + r sqrt(1 - a_i^2) (a: the axis).
Aabb cylinderBounds(const CylinderCore& c, const Transform& xf);
/// Ray (local frame) against the solid cylinder, as Shape::rayCast.
bool rayCylinder(const CylinderCore& c, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
                 Vec3& nHit);
/// Distance from `p` (local) to the farthest point of the cylinder (on a rim).
Real cylinderRadiusAbout(const CylinderCore& c, const Vec3& p);

}  // namespace tumble::detail
