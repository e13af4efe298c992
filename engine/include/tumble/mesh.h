#pragma once
/// Static triangle meshes and height fields: the ground and walls of a level. Both are sets of
/// one-sided triangles (the front is counter-clockwise; a body behind a triangle's plane does not
/// touch it) found near a box through a tree (a mesh) or by cell (a height field). Each triangle
/// knows which of its edges are "active": an edge shared with a coplanar or concave neighbour is
/// not, and a contact found on it takes the triangle's face normal instead, so a body sliding or
/// rolling across two flush triangles does not bump on their shared edge (Jolt's internal edge
/// removal, Bullet's btAdjustInternalEdgeContacts: the idea, written here).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "tumble/aabb.h"
#include "tumble/math.h"
#include "tumble/static_bvh.h"

namespace tumble {

/// One triangle as the narrow phase sees it (local frame).
struct TriangleRef {
  Vec3 v[3];
  Vec3 normal;         ///< unit, the front (counter-clockwise seen from it)
  uint32_t index = 0;  ///< the triangle's index in its mesh or height field
  uint8_t active = 7;  ///< bit i: edge v[i] -> v[(i + 1) % 3] is active
};

/// Which edges of each triangle are active (bits as TriangleRef::active). An edge is active
/// when it is a boundary (one triangle), shared by more than two, or convex between two whose
/// normals differ by more than `angle` (radians); coplanar and concave edges are not.
std::vector<uint8_t> activeEdges(std::span<const Vec3> vertices,
                                 std::span<const std::array<int, 3>> triangles, Real angle);

/// A static triangle mesh (shared, immutable; see makeMesh).
struct TriangleMesh {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  std::vector<Vec3> normals;    ///< per triangle
  std::vector<uint8_t> active;  ///< per triangle, bits as TriangleRef::active
  StaticBvh tree;               ///< over the triangles' boxes
  Aabb box;                     ///< of the vertices

  TriangleRef triangle(uint32_t i) const {
    const auto& t = triangles[i];
    return {{vertices[t[0]], vertices[t[1]], vertices[t[2]]}, normals[i], i, active[i]};
  }
  /// Calls visit(TriangleRef) for each triangle whose box overlaps `box` (local frame).
  template <class Visit>
  void forTriangles(const Aabb& query, Visit&& visit) const {
    tree.query(query, [&](int i) { visit(triangle(static_cast<uint32_t>(i))); });
  }
};

/// A height field (shared, immutable; see makeHeightField): heights on a grid of `rows` x
/// `columns` points, point (r, c) at (c dx, heights[r columns + c], r dz) in the local frame.
/// Each cell is two triangles facing +y: (r, c), (r+1, c), (r+1, c+1) with index 2 (r (columns
/// - 1) + c), and (r, c), (r+1, c+1), (r, c+1) after it.
struct HeightField {
  int rows = 0, columns = 0;
  Real dx = 1.0, dz = 1.0;
  std::vector<Real> heights;    ///< rows * columns, row-major
  std::vector<uint8_t> active;  ///< per triangle
  Aabb box;
  Vec3 corners[8];  ///< of box: the core points a static body's centre is taken from

  Vec3 point(int r, int c) const {
    return {c * dx, heights[static_cast<size_t>(r) * columns + c], r * dz};
  }
  TriangleRef triangle(uint32_t i) const;
  template <class Visit>
  void forTriangles(const Aabb& query, Visit&& visit) const;
};

template <class Visit>
void HeightField::forTriangles(const Aabb& query, Visit&& visit) const {
  if (!query.overlaps(box)) return;
  // The cell range, clamped in floating point before the conversion: a huge box or a tiny spacing
  // would overflow int (NaN, from inf / inf, clamps to 0).
  auto cell = [](Real coordinate, Real spacing, int last) {
    const Real c = std::floor(coordinate / spacing);
    return !(c >= 0.0) ? 0 : (c >= static_cast<Real>(last) ? last : static_cast<int>(c));
  };
  const int c0 = cell(query.lower.x, dx, columns - 2), c1 = cell(query.upper.x, dx, columns - 2);
  const int r0 = cell(query.lower.z, dz, rows - 2), r1 = cell(query.upper.z, dz, rows - 2);
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      const Real h00 = heights[static_cast<size_t>(r) * columns + c];
      const Real h01 = heights[static_cast<size_t>(r) * columns + c + 1];
      const Real h10 = heights[static_cast<size_t>(r + 1) * columns + c];
      const Real h11 = heights[static_cast<size_t>(r + 1) * columns + c + 1];
      const Real lo = std::min(std::min(h00, h01), std::min(h10, h11));
      const Real hi = std::max(std::max(h00, h01), std::max(h10, h11));
      if (hi < query.lower.y || lo > query.upper.y) continue;
      const uint32_t t = 2u * static_cast<uint32_t>(r * (columns - 1) + c);
      visit(triangle(t));
      visit(triangle(t + 1));
    }
}

}  // namespace tumble
