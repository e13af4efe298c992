#include "hull_mesh.h"

namespace tumble::demo {
namespace {

void push(std::vector<float>& out, const Vec3& v) {
  out.push_back(static_cast<float>(v.x));
  out.push_back(static_cast<float>(v.y));
  out.push_back(static_cast<float>(v.z));
}

}  // namespace

MeshData hullMesh(const ConvexHull& hull) {
  MeshData mesh;
  const auto& vertices = hull.vertices();
  for (const HullFace& face : hull.faces()) {
    // A convex polygon fans from its first corner: triangle (v0, vi, vi+1). Its edge opposite v0
    // is always on the polygon's boundary; the one opposite vi only for the last triangle, the one
    // opposite vi+1 only for the first.
    const size_t n = face.vertices.size();
    for (size_t i = 1; i + 1 < n; ++i) {
      const Vec3 interior(0.0, i + 2 == n ? 0.0 : 1.0, i == 1 ? 0.0 : 1.0);
      const int corners[3] = {face.vertices[0], face.vertices[i], face.vertices[i + 1]};
      for (int k = 0; k < 3; ++k) {
        Vec3 edge = interior;
        edge[k] += 1.0;
        push(mesh.triangles, vertices[static_cast<size_t>(corners[k])]);
        push(mesh.triangles, face.normal);
        push(mesh.triangles, edge);
      }
    }
  }
  for (const HullEdge& edge : hull.edges()) {
    push(mesh.lines, vertices[static_cast<size_t>(edge.a)]);
    push(mesh.lines, vertices[static_cast<size_t>(edge.b)]);
  }
  return mesh;
}

}  // namespace tumble::demo
