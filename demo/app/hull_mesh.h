#pragma once
// Turns an engine ConvexHull into renderable float arrays (no GL here): flat-shaded triangles
// (each polygonal face fanned, every corner carrying the face normal and its edge coordinates, so
// the face shader outlines the polygon and not the fan's diagonals) and the hull's edges.
#include <vector>

#include <glm/glm.hpp>

#include "tumble/hull.h"

namespace tumble::demo {

/// Float geometry of one body in its local frame.
struct MeshData {
  /// Interleaved position (x, y, z), normal (x, y, z: a hull's face normal, a round shape's
  /// surface normal at the vertex) and edge coordinates (e0, e1, e2), three vertices per triangle.
  /// Edge coordinates are the triangle's barycentric coordinates, plus 1 (or more) on the
  /// component opposite an edge inside the polygon (a fan diagonal): the distance to the nearest
  /// polygon edge is then min(e0, e1, e2) in barycentric units.
  std::vector<float> triangles;
  /// Position (x, y, z) pairs, two per edge.
  std::vector<float> lines;

  /// A run of `triangles` (vertices [first, first + count)) and its box in the local frame.
  struct Part {
    int first = 0;
    int count = 0;
    glm::vec3 lo{0.0f}, hi{0.0f};
  };
  /// For large meshes (a terrain): the triangles in compact runs the renderer leaves out when
  /// their box is outside the view. Empty: the mesh is drawn whole.
  std::vector<Part> parts;

  static constexpr int kTriangleStride = 9;  ///< floats per triangle vertex

  int triangleVertexCount() const { return static_cast<int>(triangles.size() / kTriangleStride); }
  int lineVertexCount() const { return static_cast<int>(lines.size() / 3); }
};

/// The hull's faces fanned into triangles (counter-clockwise seen from outside) with flat normals,
/// and its edges as line segments.
MeshData hullMesh(const ConvexHull& hull);

}  // namespace tumble::demo
