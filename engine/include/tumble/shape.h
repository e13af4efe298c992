#pragma once
/// Shapes: the geometry a body is made of, as one small value type that every query takes.
/// Today a shape is a convex hull; spheres, capsules, compounds and meshes will be added as new
/// ShapeType values, each with its own data behind the same interface (support mapping, mass
/// properties, bounds) and its own row in the narrow phase's dispatch table (collide.h).

#include <memory>
#include <span>
#include <utility>

#include "tumble/aabb.h"
#include "tumble/hull.h"
#include "tumble/math.h"
#include "tumble/result.h"
#include "tumble/support.h"

namespace tumble {

/// The kinds of shape. New kinds are appended (the narrow phase's dispatch table is indexed by
/// these values).
enum class ShapeType { Hull };

/// Number of ShapeType values.
inline constexpr int kShapeTypeCount = 1;

/// A shape in its own local frame (metres). A cheap value: copies share the immutable geometry
/// (one reference count). An empty Shape (default constructed, or made from a null pointer) is
/// false and has no geometry: only type(), operator bool and the accessors returning pointers may
/// be called on it.
class Shape {
 public:
  Shape() = default;
  /// A convex hull shape (implicit, so `BodyDef{.shape = hull}` keeps reading as it does).
  Shape(std::shared_ptr<const ConvexHull> hull)
      : hull_(std::move(hull)) {}  // NOLINT: implicit on purpose

  ShapeType type() const { return ShapeType::Hull; }
  /// True when the shape has geometry.
  explicit operator bool() const { return hull_ != nullptr; }

  /// The hull of a Hull shape; null for other kinds and for an empty shape.
  const ConvexHull* hull() const { return hull_.get(); }
  /// The shared hull of a Hull shape; a null pointer for other kinds and for an empty shape.
  const std::shared_ptr<const ConvexHull>& hullPtr() const { return hull_; }

  /// The shape as a support mapping in local coordinates (GJK, EPA and the LP test take this).
  /// The view is valid while a Shape sharing this geometry lives.
  SupportShape support() const;

  /// Mass properties for a uniform density (kg/m^3): volume, mass, centre of mass and inertia
  /// about the centre of mass in local axes (hull.h).
  MassProperties massProperties(Real density) const;

  /// The tight world-space box of the shape under `xf`: for a hull, the box of its transformed
  /// vertices (bit for bit what the world uses for its broad-phase boxes).
  Aabb bounds(const Transform& xf) const;

  /// Distance (m) from `localPoint` to the farthest point of the shape (for a hull, the farthest
  /// vertex). Bodies use it about their centre of mass to bound how far a point can move.
  Real radiusAbout(const Vec3& localPoint) const;

  /// radiusAbout the local origin (m), cached: a length scale of the shape for tolerances.
  Real radius() const { return hull_->radius(); }

 private:
  std::shared_ptr<const ConvexHull> hull_;
};

/// A box with the given half extents (m, each finite and > 0), centred on its local origin: a
/// convex hull of its 8 corners. Fails naming the bad extent.
Expected<Shape> makeBox(const Vec3& halfExtents);

/// The convex hull of `points` (body-local, m) as a shape; fails as ConvexHull::build does
/// (fewer than 4 points, all in a plane, non-finite values).
Expected<Shape> makeHull(std::span<const Vec3> points);

}  // namespace tumble
