#pragma once
/// The narrow phase: the contact manifold of two shapes under two rigid transforms. Stateless: it
/// knows nothing of bodies or of the world, so tests, tools and the world call the same function.
/// The world's contact update (matching feature ids with last step's points to carry impulses,
/// statistics) is built on top of it, as Box2D's b2UpdateContact is on b2CollidePolygons.

#include <cstdint>
#include <vector>

#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/settings.h"
#include "tumble/shape.h"

namespace tumble {

/// One contact point, in world space.
struct CollidePoint {
  Vec3 pointA{0.0};       ///< m, on A's surface
  Vec3 pointB{0.0};       ///< m, on B's surface: pointB = pointA + separation * normal
  Real separation = 0.0;  ///< m, along the normal; negative when the shapes overlap there
  /// Feature key: the same while the same features (faces, clipping edges) make the point, so a
  /// caller can match points across steps. Pack of the two faces, the clipping edge and the
  /// vertex; 0xFFFFFFFF for the single closest-point contact.
  uint32_t id = 0;
};

/// What collide() found: up to four points with one normal, and what GJK and EPA reported.
struct CollideResult {
  /// Unit, from A towards B: moving B along it separates the shapes. The reference face's normal
  /// for a face contact, else EPA's (overlapping) or the direction between GJK's closest points.
  /// Meaningful only when pointCount > 0 (then (0, 1, 0)).
  Vec3 normal{0.0, 1.0, 0.0};
  int pointCount = 0;  ///< 0 when the shapes are farther apart than the speculative distance
  CollidePoint points[4];
  /// GJK's verdict on the shapes themselves (not on the speculative points).
  bool overlapping = false;
  /// m: GJK's distance when separated, minus EPA's depth when overlapping.
  Real distance = 0.0;
  /// GJK's answer: status, iterations, and the simplex to pass as the warm start next time.
  GjkResult gjk;
  /// EPA's answer when `overlapping` (EPA runs only then); default (0 iterations) otherwise.
  EpaResult epa;
  /// m, a cylinder's radius when it touches with its side (the points then ride on the side as
  /// they do on a capsule's radius: the solver measures their separation from the axis), per
  /// shape; 0 otherwise.
  Real sideRadiusA = 0.0, sideRadiusB = 0.0;

  bool touching() const { return pointCount > 0; }
};

/// The contact manifold of A (under `xa`) and B (under `xb`). GJK (warm-started from `warmStart`
/// when given, e.g. last step's gjk.simplex for the same pair and shape order), then EPA when the
/// shapes overlap; the two supporting faces along the normal are clipped against each other and
/// reduced to at most 4 points. Points separated by more than `speculative` (m, >= 0) are dropped;
/// when the shapes are farther apart than that, pointCount is 0. Never fails: degenerate and
/// touching cases give a defined unit normal (see epa.h), iteration caps come from `settings`
/// (gjk, epa). Swapping A and B gives the same verdict and distance, and the same points swapped
/// with the normal negated (up to rounding; feature ids differ), except where the order decides:
/// two faces aligned within 1e-3 of each other (A's face is then the reference), ties in the
/// reduction to 4 points. Precondition: both shapes non-empty and convex (compounds go through
/// collideChildren). No heap allocation after the first
/// calls on a thread (per-thread scratch).
CollideResult collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                      Real speculative, const Settings& settings,
                      const GjkSimplex* warmStart = nullptr);

/// The contact of one pair of convex children (collideChildren).
struct ChildContact {
  /// A's child << 32 | B's: a compound's child index, a mesh's or height field's triangle index,
  /// 0 for a convex shape (its own only child).
  uint64_t key = 0;
  /// m, the two children's round radii (plus a cylinder's side radius, CollideResult)
  Real radiusA = 0.0, radiusB = 0.0;
  CollideResult result;  ///< with at least one point
};

/// The two bodies' filters, for collideChildren to filter compound children (shape.h,
/// CompoundChild): with them, a pair of children is looked at only when neither is a sensor and
/// shouldCollide passes on their filters (a child's own, else its body's; a convex shape, a mesh
/// or a height field has its body's). Without them every pair is looked at.
struct ChildFilters {
  BodyFilter a;  ///< A's body
  BodyFilter b;  ///< B's body
};

/// Contacts of any two shapes: collide() on every pair of convex children within reach (a
/// convex shape is its own only child; a compound's children near the other shape are found
/// through its tree, a mesh's or height field's triangles through its tree or grid, each met by
/// collideTriangle), the pairs with points appended to `out` in increasing key order. Two static
/// kinds (mesh, height field) give nothing. Each
/// result is in world space under xa and xb, its normal from A's child to B's.
void collideChildren(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                     Real speculative, const Settings& settings, std::vector<ChildContact>& out,
                     const ChildFilters* filters = nullptr);

/// One triangle (of a mesh or height field posed by `xt`) against a convex shape B: one-sided (B
/// with its origin behind the triangle's plane gives nothing), GJK on the triangle and B's core
/// (EPA for a hull core in overlap; the face normal for a point or segment core through it); a
/// contact found on an inactive edge or vertex (TriangleRef::active) takes the face normal. Up to
/// four points: B's face clipped to the triangle's prism, or the triangle to B's face, or a
/// capsule's segment to the prism; else the closest points. The normal points from the triangle
/// to B.
CollideResult collideTriangle(const TriangleRef& triangle, const Transform& xt, const Shape& b,
                              const Transform& xb, Real speculative, const Settings& settings);

/// The general path for any two shapes, the reference the closed forms are tested against: GJK on
/// the cores (EPA when they overlap), the radii subtracted, one point at the closest features.
/// collide() uses it for a sphere against a hull where an edge or a vertex of the hull is nearest
/// (a face nearest is one pass over the hull's planes).
CollideResult collideCores(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                           Real speculative, const Settings& settings,
                           const GjkSimplex* warmStart = nullptr);

}  // namespace tumble
