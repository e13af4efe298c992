#pragma once
/// Shapes: the geometry a body is made of, as one small value type that every query takes.
/// A convex shape is a core (a point set: a hull's vertices, a capsule's segment, a sphere's
/// centre, a rounded hull's core hull) plus a radius around it (0 for a hull), as in Box2D and
/// Box3D: GJK, EPA and the LP
/// test run on the core, and the radius is subtracted from their distance. Each kind has its data
/// behind the same interface (core, mass properties, bounds) and its row in the narrow phase's
/// dispatch table (collide.h). A compound is several convex children with poses in one body
/// (a chair, a dumbbell); meshes and height fields will be added as new ShapeType values.

#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tumble/aabb.h"
#include "tumble/filter.h"
#include "tumble/hull.h"
#include "tumble/math.h"
#include "tumble/mesh.h"
#include "tumble/result.h"
#include "tumble/static_bvh.h"
#include "tumble/support.h"

namespace tumble {

/// The kinds of shape. New kinds are appended (the narrow phase's dispatch table is indexed by
/// these values).
enum class ShapeType { Hull, Sphere, Capsule, Compound, Mesh, HeightField, Cylinder, RoundedHull };

/// Number of ShapeType values.
inline constexpr int kShapeTypeCount = 8;

/// The name of a kind as scene files and messages write it: "hull", "sphere", "capsule",
/// "compound", "mesh", "heightfield", "cylinder", "rounded".
const char* shapeTypeName(ShapeType type);

/// The core and radius of a sphere or capsule (shared, immutable).
struct RoundCore {
  Vec3 points[2]{Vec3(0.0), Vec3(0.0)};  ///< the core: points[0 .. count)
  int count = 1;                         ///< 1: a sphere's centre; 2: a capsule's segment
  Real radius = 0.0;                     ///< m, > 0
};

/// A cylinder about the local y axis (shared, immutable; see makeCylinder): its exact support
/// function, and 8 points on each cap's rim for callers that want a point set.
struct CylinderCore {
  CylinderSupport support;
  Vec3 sample[16];
};

/// A rounded hull's geometry (shared, immutable): the points within `radius` of the core hull,
/// the Minkowski sum core + ball(radius).
struct RoundedHullCore {
  ConvexHull hull;          ///< the core (its faces, edges and vertices)
  Real radius = 0.0;        ///< m, finite and > 0
  MassProperties unitMass;  ///< at density 1 kg/m^3 (roundedHullMass)
};

struct Compound;

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
  /// A sphere (one core point) or capsule (two); see makeSphere and makeCapsule.
  Shape(ShapeType type, std::shared_ptr<const RoundCore> round)
      : type_(type), round_(std::move(round)) {}
  /// A cylinder; see makeCylinder.
  explicit Shape(std::shared_ptr<const CylinderCore> cylinder)
      : type_(ShapeType::Cylinder), cylinder_(std::move(cylinder)) {}
  /// A rounded hull; see makeRoundedHull.
  explicit Shape(std::shared_ptr<const RoundedHullCore> rounded)
      : type_(ShapeType::RoundedHull), rounded_(std::move(rounded)) {}
  /// A compound; see makeCompound.
  explicit Shape(std::shared_ptr<const Compound> compound)
      : type_(ShapeType::Compound), compound_(std::move(compound)) {}
  /// A static triangle mesh; see makeMesh.
  explicit Shape(std::shared_ptr<const TriangleMesh> mesh)
      : type_(ShapeType::Mesh), mesh_(std::move(mesh)) {}
  /// A static height field; see makeHeightField.
  explicit Shape(std::shared_ptr<const HeightField> field)
      : type_(ShapeType::HeightField), field_(std::move(field)) {}

  ShapeType type() const { return type_; }
  /// True when the shape has geometry.
  explicit operator bool() const {
    return hull_ != nullptr || round_ != nullptr || rounded_ != nullptr || compound_ != nullptr ||
           mesh_ != nullptr || field_ != nullptr || cylinder_ != nullptr;
  }
  /// True for the convex kinds (hull, sphere, capsule, cylinder, rounded hull): one core and a
  /// radius.
  bool isConvex() const {
    return hull_ != nullptr || round_ != nullptr || cylinder_ != nullptr || rounded_ != nullptr;
  }
  /// True for the kinds only a static body may have (mesh, height field): no volume, no mass.
  bool isStaticOnly() const { return mesh_ != nullptr || field_ != nullptr; }

  /// The hull of a Hull shape; null for other kinds (a RoundedHull included: its core is
  /// roundedHull()->hull, and coreHull() gives either) and for an empty shape. Code that tests
  /// `hull() != nullptr` means "a sharp hull", whose surface is its core.
  const ConvexHull* hull() const { return hull_.get(); }
  /// The shared hull of a Hull shape; a null pointer for other kinds and for an empty shape.
  const std::shared_ptr<const ConvexHull>& hullPtr() const { return hull_; }

  /// The children of a Compound shape; null for other kinds.
  const Compound* compound() const { return compound_.get(); }

  /// The triangles of a Mesh shape; null for other kinds.
  const TriangleMesh* mesh() const { return mesh_.get(); }
  /// The grid of a HeightField shape; null for other kinds.
  const HeightField* heightField() const { return field_.get(); }

  /// The geometry of a Cylinder shape; null for other kinds.
  const CylinderCore* cylinder() const { return cylinder_.get(); }

  /// The core and radius of a Sphere or Capsule shape; null for other kinds.
  const RoundCore* round() const { return round_.get(); }

  /// The core hull and radius of a RoundedHull shape; null for other kinds.
  const RoundedHullCore* roundedHull() const { return rounded_.get(); }

  /// The polyhedral core of a Hull (the hull itself) or a RoundedHull (its core hull): the faces
  /// the narrow phase clips. Null for other kinds.
  const ConvexHull* coreHull() const {
    return hull_ ? hull_.get() : rounded_ ? &rounded_->hull : nullptr;
  }

  /// The radius around the core (m): 0 for a hull, the sphere's, capsule's or rounded hull's
  /// radius.
  Real roundRadius() const { return round_ ? round_->radius : rounded_ ? rounded_->radius : 0.0; }

  /// The core as a support mapping in local coordinates (GJK, EPA and the LP test take this);
  /// a convex shape is the core grown by roundRadius(). For a compound, every child's core points
  /// in the compound's frame (their hull encloses the children's cores; not a collision shape).
  /// The view is valid while a Shape sharing this geometry lives.
  SupportShape support() const;

  /// Mass properties for a uniform density (kg/m^3): volume, mass, centre of mass and inertia
  /// about the centre of mass in local axes (hull.h).
  MassProperties massProperties(Real density) const;

  /// The tight world-space box of the shape under `xf`: for a hull, the box of its transformed
  /// vertices (bit for bit what the world uses for its broad-phase boxes).
  Aabb bounds(const Transform& xf) const;

  /// The ray origin + t direction (local frame), t in [0, maxFraction], against the shape: the
  /// first t where it enters and the outward unit normal there. A ray starting inside hits at
  /// t = 0 with the normal against the ray. False on a miss. Precondition: direction non-zero.
  bool rayCast(const Vec3& origin, const Vec3& direction, Real maxFraction, Real& fraction,
               Vec3& normal) const;

  /// Distance (m) from `localPoint` to the farthest point of the shape (for a hull, the farthest
  /// vertex). Bodies use it about their centre of mass to bound how far a point can move.
  Real radiusAbout(const Vec3& localPoint) const;

  /// radiusAbout the local origin (m): a length scale of the shape for tolerances.
  Real radius() const { return hull_ ? hull_->radius() : radiusAboutOrigin(); }

 private:
  Real radiusAboutOrigin() const;

  ShapeType type_ = ShapeType::Hull;
  std::shared_ptr<const ConvexHull> hull_;
  std::shared_ptr<const RoundCore> round_;
  std::shared_ptr<const RoundedHullCore> rounded_;
  std::shared_ptr<const Compound> compound_;
  std::shared_ptr<const TriangleMesh> mesh_;
  std::shared_ptr<const HeightField> field_;
  std::shared_ptr<const CylinderCore> cylinder_;
};

/// One child of a compound: a convex shape placed by `local` in the compound's frame, with an
/// optional filter and sensor flag of its own.
///
/// Why here: a compound child plays the part of a Box2D v3 shape on a body (b2ShapeDef carries
/// `filter` and `isSensor`, so one body can have a solid hull and a trigger volume), and Jolt
/// reaches a compound's sub-shapes through sub-shape ids that carry their own collision data.
/// Putting them on the child keeps that one place: a scene file's child object, makeCompound and
/// the snapshot (shapes are saved by content) all see the child whole, and bodies sharing a
/// compound share its children's flags, as they share its geometry. The body keeps its own
/// BodyDef::filter for every child without one (and World::setFilter still changes those).
struct CompoundChild {
  Shape shape;
  Transform local;
  /// This child's filter; none: the body's (BodyDef::filter). Two children of two bodies make
  /// contacts iff shouldCollide passes on their filters (groups decide first, as for bodies);
  /// the world's queries test a QueryFilter against it as against a body's.
  std::optional<BodyFilter> filter = std::nullopt;
  /// A sensor child makes no contacts (the rest of the compound collides as usual) and reports
  /// the bodies it overlaps as sensor events naming the body and this child's index
  /// (SensorEvent::sensorChild); queries and other sensors do not see it. It counts in the
  /// compound's mass like any child (Box2D v3 counts a sensor shape's density too).
  bool isSensor = false;
};

/// Several convex children in one rigid body (shared, immutable; see makeCompound). Children
/// may overlap; mass properties then count the overlap twice, as Box2D, Jolt and Bullet do.
struct Compound {
  std::vector<CompoundChild> children;
  std::vector<Aabb> childBounds;  ///< each child's box in the compound's frame
  StaticBvh tree;                 ///< over childBounds: the children near a box
  std::vector<Vec3> corePoints;   ///< every child's core points in the compound's frame
  MassProperties unitMass;        ///< at density 1 kg/m^3 (mass and inertia scale with density)
  bool anyFilter = false;         ///< some child has its own filter
  bool anySensor = false;         ///< some child is a sensor
  /// The distinct own filters of the children that are not sensors, in child order.
  std::vector<BodyFilter> solidFilters;
  /// Some child that is not a sensor has no filter of its own (it takes the body's).
  bool solidInherits = true;
  /// Sets anyFilter, anySensor, solidFilters and solidInherits from the children (makeCompound
  /// calls it; a compound built by hand calls it after filling `children`).
  void summariseChildren();
  /// The filter child `k` collides with: its own, else `body` (the body's).
  const BodyFilter& childFilter(int k, const BodyFilter& body) const {
    const std::optional<BodyFilter>& f = children[static_cast<size_t>(k)].filter;
    return f ? *f : body;
  }
};

/// A box with the given half extents (m, each finite and > 0), centred on its local origin: a
/// convex hull of its 8 corners. Fails naming the bad extent.
Expected<Shape> makeBox(const Vec3& halfExtents);

/// A sphere of `radius` (m, finite and > 0) centred on its local origin. Fails naming the radius.
Expected<Shape> makeSphere(Real radius);

/// A capsule: the points within `radius` of the segment from (0, -halfHeight, 0) to
/// (0, halfHeight, 0) (m; radius finite and > 0, halfHeight finite and >= 0; 0 is a sphere with
/// a capsule's kind). Its total height is 2 (halfHeight + radius). Fails naming the bad value.
Expected<Shape> makeCapsule(Real radius, Real halfHeight);

/// A solid cylinder about the local y axis: radius `radius`, from y = -halfHeight to halfHeight
/// (m; both finite and > 0). Collision uses its exact support function (no polygon). Fails naming
/// the bad value.
Expected<Shape> makeCylinder(Real radius, Real halfHeight);

/// A compound of convex children (1 to 65535; each a hull, sphere, capsule, cylinder or rounded
/// hull, its pose finite with a non-zero quaternion, normalised here), each child's filter and
/// sensor flag kept as given. Fails naming the child that is not.
Expected<Shape> makeCompound(std::span<const CompoundChild> children);

/// A static mesh of `triangles` (vertex indices, counter-clockwise seen from the front) over
/// `vertices` (local, m). Fails naming the first bad triangle or vertex: an index out of range,
/// zero area (below 1e-12 of the mesh's size squared), a non-finite vertex, no triangles.
Expected<Shape> makeMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles);

/// A static height field of heights[r][c] (rows along z, columns along x; at least 2 x 2, every
/// row as long, finite), points spaced dx along x and dz along z (finite, > 0); the local origin
/// is point (0, 0). Fails naming the row or value that is not.
Expected<Shape> makeHeightField(const std::vector<std::vector<Real>>& heights, Real dx, Real dz);

/// The convex hull of `points` (body-local, m) as a shape; fails as ConvexHull::build does
/// (fewer than 4 points, all in a plane, non-finite values).
Expected<Shape> makeHull(std::span<const Vec3> points);

/// A rounded hull: the points within `radius` (m, finite and > 0) of the convex hull of `points`
/// (body-local, m), e.g. a box with rounded edges and corners. Its core (support(), coreHull())
/// is the hull, roundRadius() the radius; mass properties are exact (roundedHullMass). Fails
/// naming the radius, or as ConvexHull::build does.
Expected<Shape> makeRoundedHull(std::span<const Vec3> points, Real radius);

/// Exact mass properties of core + ball(radius) for a uniform density (kg/m^3): the core, one
/// prism per face (the face swept `radius` along its normal), one cylindrical wedge per edge and
/// one spherical sector per vertex (its normal cone). radius >= 0; 0 gives the core's.
MassProperties roundedHullMass(const ConvexHull& core, Real radius, Real density);

}  // namespace tumble
