#pragma once
// The EPA polytope: a closed triangle mesh around the origin with face adjacency, grown one
// support point at a time. Vertices and faces live in arrays sized once per capacity (reused
// across queries); deleted faces go to a free list.
#include <vector>

#include "collision/gjk_pair.h"
#include "tumble/math.h"

namespace tumble::detail {

struct EpaFace {
  int v[3] = {0, 0, 0};        ///< vertex indices, counter-clockwise seen from outside
  int adj[3] = {0, 0, 0};      ///< face across edge i = (v[i], v[i+1])
  int adjEdge[3] = {0, 0, 0};  ///< that edge's index in the neighbour
  Vec3 normal{0.0};            ///< unit, outward
  Real distance = 0.0;         ///< signed distance of the plane from the origin
  int pass = 0;                ///< last expansion that visited (deleted) it
  bool live = false;
};

class EpaPolytope {
 public:
  /// Empties the polytope, with room for `maxVertices` vertices.
  void reset(int maxVertices);
  /// Four affinely independent points (any orientation). False when a face has no normal.
  bool initTetrahedron(const MinkowskiVertex (&p)[4]);
  /// Live face closest to the origin (least signed distance).
  int closestFace() const;
  const EpaFace& face(int i) const { return faces_[static_cast<size_t>(i)]; }
  /// Face slots in use (live or deleted: check EpaFace::live), for walking every face.
  int faceSlots() const { return faceCount_; }
  int vertexCount() const { return vertexCount_; }
  const MinkowskiVertex& vertex(int i) const { return verts_[static_cast<size_t>(i)]; }
  bool containsVertex(int ia, int ib) const;
  bool hasRoom() const { return vertexCount_ < capacity_; }
  /// Adds `m`, deleting the faces it sees (starting with `from`) and closing the hole with a fan.
  /// Faces count as seen when m is more than `eps` above their plane. Returns false, with the
  /// polytope unchanged, when the hole's rim is not one simple loop or a new face is degenerate.
  bool expand(int from, const MinkowskiVertex& m, Real eps);
  /// Among the live faces whose distance is within `eps` of face `best`'s (coplanar pieces of one
  /// face of A - B tie), the one whose triangle holds the origin's projection best (largest least
  /// barycentric coordinate); `best` itself when no other does better.
  int refineClosest(int best, Real eps) const;
  /// Sets the frame's support hints to the vertices of face `f` best along its normal.
  void faceHints(int f, PairFrame& frame) const {
    const EpaFace& face = faces_[static_cast<size_t>(f)];
    int bestA = 0, bestB = 0;
    Real da = 0.0, db = 0.0;
    for (int k = 0; k < 3; ++k) {
      const MinkowskiVertex& m = verts_[static_cast<size_t>(face.v[k])];
      Real a = glm::dot(m.pa, face.normal), b = glm::dot(m.pb, face.normal);
      if (k == 0 || a > da) {
        da = a;
        bestA = m.ia;
      }
      if (k == 0 || b < db) {
        db = b;
        bestB = m.ib;
      }
    }
    frame.setHints(bestA, bestB, true);
  }
  /// Witness points (A's frame) of the projection of the origin onto face `f`.
  void witnesses(int f, Vec3& pa, Vec3& pb) const;

 private:
  Real leastBarycentric(int f) const;
  struct RimEdge {
    int face;
    int edge;
    Vec3 normal{0.0};  ///< unnormalised normal of the new face on this edge (set by expand)
    Real normal2 = 0.0;
  };
  bool makeFace(int slot, int a, int b, int c);
  void setFace(int slot, int a, int b, int c, const Vec3& n, Real nn);
  int allocateFace();
  void walk(int f, int e, const Vec3& w, Real eps);

  std::vector<MinkowskiVertex> verts_;
  std::vector<EpaFace> faces_;
  std::vector<int> free_;
  std::vector<RimEdge> rim_;
  std::vector<int> removed_;
  int capacity_ = 0;
  int vertexCount_ = 0;
  int faceCount_ = 0;
  int pass_ = 0;
};

}  // namespace tumble::detail
