#pragma once
// Turns an engine ConvexHull into renderable float arrays (no GL here): flat-shaded triangles
// (each polygonal face fanned, every corner carrying the face normal) and the hull's edges.
#include <vector>

#include "tumble/hull.h"

namespace tumble::demo {

/// Float geometry of one body in its local frame.
struct MeshData {
  /// Interleaved position (x, y, z) and normal (x, y, z), three vertices per triangle.
  std::vector<float> triangles;
  /// Position (x, y, z) pairs, two per edge.
  std::vector<float> lines;

  int triangleVertexCount() const { return static_cast<int>(triangles.size() / 6); }
  int lineVertexCount() const { return static_cast<int>(lines.size() / 3); }
};

/// The hull's faces fanned into triangles (counter-clockwise seen from outside) with flat normals,
/// and its edges as line segments.
MeshData hullMesh(const ConvexHull& hull);

}  // namespace tumble::demo
