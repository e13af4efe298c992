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
    // A convex polygon fans from its first corner.
    for (size_t i = 1; i + 1 < face.vertices.size(); ++i) {
      for (const int corner : {face.vertices[0], face.vertices[i], face.vertices[i + 1]}) {
        push(mesh.triangles, vertices[static_cast<size_t>(corner)]);
        push(mesh.triangles, face.normal);
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
