#pragma once
/// Convex hulls of point clouds: vertices, polygonal faces (coplanar triangles merged), edges,
/// planes, vertex adjacency, and exact mass properties.

#include <span>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"
#include "tumble/support.h"

namespace tumble {

/// A polygonal face. `vertices` index ConvexHull::vertices() counter-clockwise seen from outside;
/// the plane is dot(normal, x) = offset with the unit normal pointing out. Every vertex of the
/// hull lies on or below the plane up to roundoff (about 1e-15 of the hull's size); the vertices
/// of a merged face lie within about 3e-14 of the size of its plane (figures in hull.cpp).
struct HullFace {
  std::vector<int> vertices;
  Vec3 normal{0.0};
  Real offset = 0.0;
};

/// An edge between vertices a < b, shared by two faces: `faceA` is the face whose
/// counter-clockwise cycle runs a -> b, `faceB` the one that runs b -> a.
struct HullEdge {
  int a = 0;
  int b = 0;
  int faceA = -1;
  int faceB = -1;
};

/// A hull that is a rectangular box: its centre, three unit axes (each the outward normal of one
/// face) and half extents along them, in the hull's own frame, and for each axis k the index of
/// the face whose outward normal is +axis[k] (face[k][0]) and -axis[k] (face[k][1]). The narrow
/// phase takes two boxes through the separating-axis test instead of GJK and EPA.
struct HullBox {
  Vec3 center{0.0};
  Vec3 axis[3];
  Vec3 half{0.0};
  int face[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
  /// Per face f of the hull (its index): the axis whose face it is (faceAxis[f]), and for each
  /// edge j of its cycle (vertices j and j + 1) the axis across it, k = edgeAxis[f][j], and the
  /// side that edge is on, s = edgeSign[f][j] (+1 or -1): the plane through the edge
  /// perpendicular to the face is axis k's face plane on side s, so a point p is on the face's
  /// side of it when s * dot(p - center, axis[k]) <= half[k]. The narrow phase clips a face
  /// against a box's face with these planes.
  int faceAxis[6] = {};
  int edgeAxis[6][4] = {};
  Real edgeSign[6][4] = {};
};

/// Mass properties for a uniform density. The inertia tensor is about the centre of mass, in the
/// hull's own (local) axes, in kg m^2.
struct MassProperties {
  Real volume = 0.0;  ///< m^3
  Real mass = 0.0;    ///< kg
  Vec3 centerOfMass{0.0};
  Mat3 inertia{0.0};
};

class ConvexHull {
 public:
  /// Builds the hull of `points` (any order; duplicate and interior points are dropped).
  /// Fails, with a message saying which, on an empty set, NaN or infinite coordinates, or fewer
  /// than 4 non-coplanar points.
  /// A set thinner than 1e-10 of its diameter (plus 16 ulps of its coordinates) counts as
  /// coplanar, one narrower than that as collinear; the message gives the measured distances.
  /// Vertices keep the exact input coordinates and are numbered in input order; points within
  /// roundoff of a face or an edge are not vertices, and coplanar facets are merged into one
  /// polygon. Deterministic and thread-safe (Qhull's reentrant library, one state per call).
  static Expected<ConvexHull> build(std::span<const Vec3> points);

  const std::vector<Vec3>& vertices() const { return vertices_; }
  const std::vector<HullFace>& faces() const { return faces_; }
  const std::vector<HullEdge>& edges() const { return edges_; }
  /// Neighbours of vertex i along hull edges: neighbours()[neighbourOffsets()[i] ..
  /// neighbourOffsets()[i+1]).
  const std::vector<int>& neighbourOffsets() const { return neighbourOffsets_; }
  const std::vector<int>& neighbours() const { return neighbours_; }
  /// For each vertex, the index of the input point it was copied from.
  const std::vector<int>& sourceIndices() const { return sourceIndices_; }

  /// The hull as a support mapping (with adjacency, for hill climbing on large hulls). The view
  /// is valid while this hull lives and is not moved.
  SupportShape supportShape() const;

  /// Exact polyhedral integrals (divergence theorem over the faces) for a density in kg/m^3.
  MassProperties massProperties(Real density) const;

  /// Local axis-aligned bounds.
  Vec3 boundsMin() const;
  Vec3 boundsMax() const;
  /// Distance from the local origin to the farthest vertex (m), computed once by build().
  Real radius() const { return radius_; }
  /// The hull's box frame when it is a rectangular box (8 vertices, 6 faces of 4 in three pairs
  /// of opposite, mutually perpendicular planes, every vertex a corner within 1e-12 of the
  /// hull's size), else nullptr. Found by build().
  const HullBox* box() const { return isBox_ ? &box_ : nullptr; }

 private:
  void findBox();
  friend struct SnapshotCodec;  // snapshot.h: a hull is restored array for array
  std::vector<Vec3> vertices_;
  std::vector<HullFace> faces_;
  std::vector<HullEdge> edges_;
  std::vector<int> neighbourOffsets_;
  std::vector<int> neighbours_;
  std::vector<int> sourceIndices_;
  Real radius_ = 0.0;
  HullBox box_;
  bool isBox_ = false;
};

}  // namespace tumble
