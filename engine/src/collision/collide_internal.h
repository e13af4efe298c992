#pragma once
// Pieces of the narrow phase shared by its files (collide.cpp: hulls, round shapes, triangles;
// collide_cylinder.cpp: cylinders): face clipping, the reduction to four points, constants.
#include <cstdint>
#include <vector>

#include "tumble/collide.h"
#include "tumble/hull.h"
#include "tumble/math.h"

namespace tumble::detail {

inline constexpr uint32_t kSinglePointId = 0xFFFFFFFFu;
// Below this cosine between a face normal and the contact normal the face does not support the
// contact (a sliver face seen edge-on); the single closest-point contact is used instead.
inline constexpr Real kMinFaceAlignment = 0.05;
// Above this cosine (about 5.7 degrees) the contact is a face contact and the reference face's
// normal replaces EPA's; B is the reference only when clearly better aligned than A.
inline constexpr Real kSnapAlignment = 0.995;
inline constexpr Real kReferenceBias = 1e-3;

// Two hulls (sharp or rounded) through GJK and EPA even when both are boxes: collide() without
// its separating-axis path for two sharp boxes (HullBox). For tests.
CollideResult collideHullsGeneral(const Shape& a, const Transform& xa, const Shape& b,
                                  const Transform& xb, Real speculative, const Settings& settings,
                                  const GjkSimplex* warmStart = nullptr);

/// What collideBounded found instead of a contact: two sharp boxes farther apart than the
/// speculative distance along one of the separating-axis test's axes.
struct BoxBound {
  bool bounded = false;
  Real distance = 0.0;  ///< m, their separation along `axis`: a lower bound on their distance
  Vec3 axis{0.0};       ///< unit, from A towards B
};

/// collide(), except that two sharp boxes the separating-axis test finds farther apart than
/// `speculative` come back with no points and no GJK run: `bound` says so and gives the axis and
/// the separation along it (collide() runs GJK for their exact distance). The world's narrow
/// phase needs no more of a pair out of reach than a lower bound on its distance (the next
/// steps' bound) and a separating axis (ContactPair::axis).
CollideResult collideBounded(const Shape& a, const Transform& xa, const Shape& b,
                             const Transform& xb, Real speculative, const Settings& settings,
                             const GjkSimplex* warmStart, BoxBound& bound);

struct ClipVertex {
  Vec3 p;
  uint32_t id;
};

struct Candidate {
  Vec3 onA, onB;
  Real separation;
  uint32_t id;
};

/// The face of `hull` (turned by `rotation`) whose normal is most along `worldDir`.
int supportFace(const ConvexHull& hull, const Quat& rotation, const Vec3& worldDir);

/// A feature id from the faces and edge that made a clipped point.
uint32_t makeId(int faceA, int faceB, int edgeA, uint32_t sub);

/// Keeps the part of the polygon in[0..n) with dot(m, p) >= d; writes it to `out` (room for
/// n + 1 vertices) and returns its vertex count.
int clipPolygon(const ClipVertex* in, int n, const Vec3& m, Real d, int faceA, int faceB, int edgeA,
                ClipVertex* out);

/// Keeps at most 4 of the candidates: the deepest, the farthest from it, the one spanning the
/// largest triangle with those two, and the largest on the other side (Gregorius 2015). With
/// `tie` > 0 a later candidate replaces an earlier pick only when better by that fraction: a
/// polygon with many near-equal choices (a cylinder's cap) then keeps its picks from step to step
/// instead of flipping between them as the body trembles, which would lose the warm start.
void reduce(std::vector<Candidate>& c, const Vec3& normal, Real tie = 0.0);
/// The tie for a cylinder's contacts.
inline constexpr Real kCapReduceTie = 0.05;
/// The tie for two hulls' contacts: rounding's. A face clipped against a box's face has picks
/// that tie exactly (two corners of a rectangle spanning equal triangles, two points on a side
/// parallel to a picked edge); rounding then decided, so two computations of one contact (the
/// box path's and the general path's) or one contact a step later could keep different points.
inline constexpr Real kHullReduceTie = 1e-9;

/// One contact point from points on the two cores (cA on A's core) and the unit normal from A to
/// B, `coreSep` their distance along it: the surfaces lie the radii further in.
CollidePoint roundPoint(const Vec3& cA, const Vec3& normal, Real coreSep, Real rA, Real rB,
                        uint32_t id);

/// Two spheres' one contact point, on the line between their centres, and `normal`, unit from A
/// to B ((0, 1, 0) when the centres coincide): collideSpheres without its CollideResult (the
/// world writes a sphere pair's point straight into its manifold, updateSphereManifold).
CollidePoint spherePoint(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                         Vec3& normal);

/// A cylinder (A) against any convex shape (B): GJK/EPA on the exact support function, then the
/// features along the normal clipped against each other: a cap standing on a face gives up to
/// four points, a side lying on a face two.
CollideResult collideCylinder(const Shape& a, const Transform& xa, const Shape& b,
                              const Transform& xb, Real speculative, const Settings& settings,
                              const GjkSimplex* warmStart);

/// A cylinder's radius when `u` (unit, world, out of the shape) meets its side (within about 3
/// degrees of perpendicular to its axis); 0 for other shapes and directions (CollideResult's
/// sideRadius).
Real cylinderSideRadius(const Shape& s, const Transform& x, const Vec3& u);

/// The contact points of a cylinder (B) on a triangle (world vertices `v`, unit normal nT) along
/// the contact normal n (from the triangle to B): its cap clipped to the triangle's prism, or its
/// side segment; appended to `out` as (on triangle, on cylinder). Nothing when n is not along the
/// triangle's normal or the cylinder shows it neither a cap nor a side.
void cylinderOnTriangle(const Vec3 (&v)[3], const Vec3& nT, const Vec3& n, const Shape& b,
                        const Transform& xb, Real speculative, std::vector<Candidate>& out);

}  // namespace tumble::detail
