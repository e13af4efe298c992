#pragma once
/// Contact manifolds between two bodies: up to four points with one normal, kept across steps so
/// the solver can warm start from last step's impulses.

#include <cmath>
#include <cstdint>

#include "tumble/body.h"
#include "tumble/gjk.h"

namespace tumble {

/// One contact point: anchors on both bodies in body axes, relative to each centre of mass (the
/// world point on B's surface is B.center + B.rotation * localB). Kept small: a heap holds tens of
/// thousands of manifolds and copies them every step.
struct ContactPoint {
  Vec3 localA{0.0};       ///< m, anchor on A in A's body frame (relative to the centre of mass)
  Vec3 localB{0.0};       ///< m, anchor on B in B's body frame
  Real separation = 0.0;  ///< m, along the normal; negative when penetrating
  uint32_t id = 0;        ///< feature key, matched across steps
  /// m, the separation when the narrow phase found the point (float: it only decides when a
  /// recycled manifold has drifted, see contact.recycle_distance)
  float foundSeparation = 0.0f;
  Real normalImpulse = 0.0;  ///< N s, accumulated this step
  /// m, separation minus dot(normal, world anchor on B - world anchor on A) when the narrow phase
  /// found the point: a recycled manifold (Manifold::found) gets its separation back from it.
  Real baseSeparation = 0.0;
};

/// Where the two bodies were when the narrow phase last computed a manifold's points. While
/// they stay close to that relative pose (setting contact.recycle_distance) and neither turns
/// far, the points, normal and ids are kept ("recycled") and only the separations are updated.
struct ContactPose {
  Vec3 centerA{0.0}, centerB{0.0};  ///< m, centres of mass
  Quat rotationA{1.0, 0.0, 0.0, 0.0}, rotationB{1.0, 0.0, 0.0, 0.0};
  bool valid = false;  ///< the points came from the narrow phase at this pose
};

/// The contact between bodies A and B (A.index < B.index), or between one child of each.
struct Manifold {
  BodyId a;
  BodyId b;
  Vec3 normal{0.0, 1.0, 0.0};  ///< unit, from A towards B
  Vec3 tangent1{1.0, 0.0, 0.0};
  Vec3 tangent2{0.0, 0.0, 1.0};
  Real friction = 0.5;     ///< mixed: sqrt(fa fb)
  Real restitution = 0.0;  ///< mixed: max(ra, rb)
  int pointCount = 0;
  /// m, the most rolling torque per unit normal force: max over the two touching children of
  /// body rollingResistance * rolling radius (a sphere's or capsule's radius, 0 for a hull).
  /// 0: no rolling resistance.
  float rollingResistance = 0.0f;
  ContactPoint points[4];
  /// Friction acts at the centre of the points (two tangents) and as a twist about the normal.
  Real frictionImpulse[2] = {0.0, 0.0};  ///< N s along tangent1, tangent2
  Real twistImpulse = 0.0;               ///< N m s about the normal
  GjkSimplex cache;                      ///< GJK warm start for the next step
  /// N m s, the rolling resistance's angular impulse about tangent1, tangent2 (on B; -it on A).
  /// Float, as the solver's rows are by default: with the four-byte fields beside it the manifold
  /// keeps its 656 bytes, and the 2000-sphere heap its speed.
  float rollingImpulse[2] = {0.0f, 0.0f};
  int gjkIterations = 0;
  ContactPose found;    ///< the pose of the last narrow phase (recycling)
  Real distance = 0.0;  ///< m, GJK distance when separated, minus EPA depth when overlapping
  /// Which children touch (ChildContact::key: A's child << 32 | B's, a child being a compound's
  /// child or a mesh's triangle; 0 between convex shapes): a pair of bodies has one manifold per
  /// touching pair of children.
  uint64_t key = 0;
  /// m, the round radii of the touching children (spheres, capsules; 0 for hulls): the solver
  /// measures their separation from the cores.
  float radiusA = 0.0f, radiusB = 0.0f;
  int epaIterations = 0;
  bool overlapping = false;  ///< GJK's verdict for the shapes (not the speculative points)
  bool touching() const { return pointCount > 0; }
};

/// A direction in 4 bytes (octahedral: the unit vector's point on the octahedron |x|+|y|+|z| = 1,
/// the lower half folded over the upper, x and y in 1/32767 steps; about 1e-4 rad): a pair's
/// separating axis (ContactPair::axis). Encoding and decoding are the same operations on every
/// machine. Both codes -32768: no direction.
struct PackedAxis {
  static constexpr int16_t kNone = -32768;
  int16_t u = kNone, v = kNone;

  bool valid() const { return u != kNone; }
  /// `d` non-zero and finite.
  static PackedAxis encode(const Vec3& d) {
    const Real s = std::abs(d.x) + std::abs(d.y) + std::abs(d.z);
    Real x = d.x / s, y = d.y / s;
    if (d.z < 0.0) fold(x, y);
    return {static_cast<int16_t>(std::lround(x * 32767.0)),
            static_cast<int16_t>(std::lround(y * 32767.0))};
  }
  /// The direction, not normalised (length between 1/sqrt(3) and 1). Precondition: valid().
  Vec3 decode() const {
    Real x = u / 32767.0, y = v / 32767.0;
    const Real z = 1.0 - std::abs(x) - std::abs(y);
    if (z < 0.0) fold(x, y);
    return Vec3(x, y, z);
  }

 private:
  // The lower half's point and its folded code, either way (the fold is its own inverse).
  static void fold(Real& x, Real& y) {
    const Real fx = (1.0 - std::abs(y)) * (x >= 0.0 ? 1.0 : -1.0);
    const Real fy = (1.0 - std::abs(x)) * (y >= 0.0 ? 1.0 : -1.0);
    x = fx, y = fy;
  }
};

/// What the world keeps for every broad-phase pair of the last step, touching or not: GJK's warm
/// start and the last distance. A pair with contact points also has a Manifold; the rest cost
/// these few bytes instead of a whole manifold (a heap has three times as many pairs as contacts).
struct ContactPair {
  BodyId a;
  BodyId b;
  GjkSimplex cache;          ///< GJK warm start for the next step
  Real distance = 0.0;       ///< m, as Manifold::distance (or a lower bound when GJK was skipped)
  bool overlapping = false;  ///< GJK's verdict for the shapes
  /// A manifold of the pair has a point with separation <= 0 (events.h, ContactBeginEvent)
  bool touching = false;
  /// World axes: the direction from A's closest point to B's of the last GJK that found the pair
  /// farther apart than its reach, while the pair has no points since (or none). The next steps
  /// try it as a separating axis before GJK (world_narrow.cpp, classifyPair).
  PackedAxis axis;
  int manifold = -1;  ///< index into World::manifolds(), -1 when the pair has no points
  /// Its manifolds are manifolds()[manifold .. manifold + manifoldCount): one for convex shapes,
  /// one per touching pair of children with a compound.
  int manifoldCount = 0;
};

}  // namespace tumble
