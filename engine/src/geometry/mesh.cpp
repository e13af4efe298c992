// Static triangle meshes and height fields: validation, normals, active edges, the tree.
#include "tumble/mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "tumble/shape.h"

namespace tumble {
namespace {

Vec3 triangleNormal(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = glm::cross(b - a, c - a);
  const Real len = glm::length(n);
  return len > 0.0 ? n / len : Vec3(0.0, 1.0, 0.0);
}

}  // namespace

// Is the edge shared by triangle a's edge ea and triangle b's edge eb active: convex (b's far
// vertex behind a's plane) with normals more than acos(cosAngle) apart?
bool sharedEdgeActive(const Vec3 (&a)[3], int ea, const Vec3 (&b)[3], int eb, Real cosAngle) {
  const Vec3 n1 = triangleNormal(a[0], a[1], a[2]);
  const Vec3 n2 = triangleNormal(b[0], b[1], b[2]);
  const bool convex = glm::dot(n1, b[(eb + 2) % 3] - a[ea]) < 0.0;
  return convex && glm::dot(n1, n2) < cosAngle;
}

std::vector<uint8_t> activeEdges(std::span<const Vec3> vertices,
                                 std::span<const std::array<int, 3>> triangles, Real angle) {
  // Each undirected edge with the triangles (and which of their edges) along it.
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> edges;
  for (int t = 0; t < static_cast<int>(triangles.size()); ++t)
    for (int e = 0; e < 3; ++e) {
      const int a = triangles[t][e], b = triangles[t][(e + 1) % 3];
      edges[{std::min(a, b), std::max(a, b)}].emplace_back(t, e);
    }
  std::vector<uint8_t> active(triangles.size(), 0);
  const Real cosAngle = std::cos(angle);
  for (const auto& [key, uses] : edges) {
    bool on = uses.size() != 2;
    if (!on) {
      const auto [t1, e1] = uses[0];
      const auto [t2, e2] = uses[1];
      const auto& a = triangles[t1];
      const auto& b = triangles[t2];
      const Vec3 va[3] = {vertices[a[0]], vertices[a[1]], vertices[a[2]]};
      const Vec3 vb[3] = {vertices[b[0]], vertices[b[1]], vertices[b[2]]};
      on = sharedEdgeActive(va, e1, vb, e2, cosAngle);
    }
    if (on)
      for (const auto& [t, e] : uses) active[t] |= static_cast<uint8_t>(1u << e);
  }
  return active;
}

TriangleRef HeightField::triangle(uint32_t i) const {
  const int cell = static_cast<int>(i / 2);
  const int r = cell / (columns - 1), c = cell % (columns - 1);
  TriangleRef t;
  t.index = i;
  if (i % 2 == 0) {
    t.v[0] = point(r, c), t.v[1] = point(r + 1, c), t.v[2] = point(r + 1, c + 1);
  } else {
    t.v[0] = point(r, c), t.v[1] = point(r + 1, c + 1), t.v[2] = point(r, c + 1);
  }
  t.normal = triangleNormal(t.v[0], t.v[1], t.v[2]);
  t.active = active[i];
  return t;
}

// The edges of the kinds of faces the solver may slide across: 2 degrees between neighbours
// still counts as flush (a ramp's crease of 15 degrees is an edge).
constexpr Real kFlushAngle = 2.0 * 3.14159265358979323846 / 180.0;

Expected<Shape> makeMesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles) {
  using E = Expected<Shape>;
  if (triangles.empty()) return E::failure("makeMesh: no triangles");
  for (size_t i = 0; i < vertices.size(); ++i)
    if (!isFinite(vertices[i]))
      return E::failure("makeMesh: vertex " + std::to_string(i) + " is not finite");
  const int n = static_cast<int>(vertices.size());
  Aabb box{vertices.empty() ? Vec3(0.0) : vertices[0], vertices.empty() ? Vec3(0.0) : vertices[0]};
  for (const Vec3& v : vertices) box = merge(box, Aabb{v, v});
  const Vec3 size = box.upper - box.lower;
  const Real areaFloor = 1e-12 * glm::dot(size, size);
  auto mesh = std::make_shared<TriangleMesh>();
  std::vector<Aabb> boxes;
  boxes.reserve(triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    const std::string at = "makeMesh: triangle " + std::to_string(t) + " ";
    for (int k = 0; k < 3; ++k)
      if (tri[k] < 0 || tri[k] >= n)
        return E::failure(at + "has index " + std::to_string(tri[k]) + " out of range [0, " +
                          std::to_string(n) + ")");
    const Vec3 &a = vertices[tri[0]], &b = vertices[tri[1]], &c = vertices[tri[2]];
    const Real area2 = glm::length(glm::cross(b - a, c - a));
    if (!(area2 > 2.0 * areaFloor)) return E::failure(at + "has zero area");
    mesh->normals.push_back(triangleNormal(a, b, c));
    boxes.push_back({glm::min(a, glm::min(b, c)), glm::max(a, glm::max(b, c))});
  }
  mesh->active = activeEdges(vertices, triangles, kFlushAngle);
  mesh->tree = StaticBvh(boxes);
  mesh->box = box;
  mesh->vertices = std::move(vertices);
  mesh->triangles = std::move(triangles);
  return Shape(std::shared_ptr<const TriangleMesh>(std::move(mesh)));
}

Expected<Shape> makeHeightField(const std::vector<std::vector<Real>>& heights, Real dx, Real dz) {
  using E = Expected<Shape>;
  if (!(std::isfinite(dx) && dx > 0.0 && std::isfinite(dz) && dz > 0.0))
    return E::failure("makeHeightField: spacing " + std::to_string(dx) + ", " + std::to_string(dz) +
                      " (expected finite and > 0 m)");
  if (heights.size() < 2) return E::failure("makeHeightField: fewer than 2 rows");
  const size_t columns = heights[0].size();
  if (columns < 2) return E::failure("makeHeightField: row 0 has fewer than 2 heights");
  auto f = std::make_shared<HeightField>();
  f->rows = static_cast<int>(heights.size());
  f->columns = static_cast<int>(columns);
  f->dx = dx;
  f->dz = dz;
  for (size_t r = 0; r < heights.size(); ++r) {
    if (heights[r].size() != columns)
      return E::failure("makeHeightField: row " + std::to_string(r) + " has " +
                        std::to_string(heights[r].size()) + " heights (row 0 has " +
                        std::to_string(columns) + ")");
    for (size_t c = 0; c < columns; ++c) {
      if (!std::isfinite(heights[r][c]))
        return E::failure("makeHeightField: height [" + std::to_string(r) + "][" +
                          std::to_string(c) + "] is not finite");
      f->heights.push_back(heights[r][c]);
    }
  }
  const auto [lo, hi] = std::minmax_element(f->heights.begin(), f->heights.end());
  f->box = {Vec3(0.0, *lo, 0.0), Vec3((f->columns - 1) * dx, *hi, (f->rows - 1) * dz)};
  for (int k = 0; k < 8; ++k)
    f->corners[k] =
        Vec3(k & 1 ? f->box.upper.x : f->box.lower.x, k & 2 ? f->box.upper.y : f->box.lower.y,
             k & 4 ? f->box.upper.z : f->box.lower.z);
  // Active edges from the grid's own adjacency (what activeEdges finds for the same triangles
  // as a mesh, without its edge map): in cell (r, c), triangle 0 is (p00, p10, p11) and 1 is
  // (p00, p11, p01). Triangle 0's edge 0 (x = c) meets triangle 1 of cell (r, c - 1) at its edge
  // 1; its edge 1 (z = r + 1) meets triangle 1 of cell (r + 1, c) at its edge 2; the diagonals
  // (0's edge 2, 1's edge 0) meet each other. Edges on the border are active.
  const int cellsX = f->columns - 1, cellsZ = f->rows - 1;
  f->active.assign(static_cast<size_t>(2) * cellsX * cellsZ, 0);
  const Real cosAngle = std::cos(kFlushAngle);
  auto tri = [&](int r, int c, int k, Vec3(&v)[3]) {
    const TriangleRef t = f->triangle(static_cast<uint32_t>(2 * (r * cellsX + c) + k));
    for (int i = 0; i < 3; ++i) v[i] = t.v[i];
  };
  auto mark = [&](int r, int c, int k, int e) {
    f->active[static_cast<size_t>(2 * (r * cellsX + c) + k)] |= static_cast<uint8_t>(1u << e);
  };
  for (int r = 0; r < cellsZ; ++r)
    for (int c = 0; c < cellsX; ++c) {
      Vec3 t0[3], t1[3];
      tri(r, c, 0, t0);
      tri(r, c, 1, t1);
      if (sharedEdgeActive(t0, 2, t1, 0, cosAngle)) mark(r, c, 0, 2), mark(r, c, 1, 0);
      if (c == 0) {
        mark(r, c, 0, 0);
      } else {
        Vec3 left[3];
        tri(r, c - 1, 1, left);
        if (sharedEdgeActive(t0, 0, left, 1, cosAngle)) mark(r, c, 0, 0), mark(r, c - 1, 1, 1);
      }
      if (r + 1 == cellsZ) {
        mark(r, c, 0, 1);
      } else {
        Vec3 below[3];
        tri(r + 1, c, 1, below);
        if (sharedEdgeActive(t0, 1, below, 2, cosAngle)) mark(r, c, 0, 1), mark(r + 1, c, 1, 2);
      }
      if (c + 1 == cellsX) mark(r, c, 1, 1);
      if (r == 0) mark(r, c, 1, 2);
    }
  return Shape(std::shared_ptr<const HeightField>(std::move(f)));
}

}  // namespace tumble
