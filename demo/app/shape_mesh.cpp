#include "shape_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tumble::demo {
namespace {

// A latitude ring of a round mesh: its polar angle (0 at +y) about a centre on the y axis.
struct Ring {
  Real polar = 0.0;
  Real centerY = 0.0;
  bool outlined = false;  // the face shader draws the circle as an outline
};

void push(std::vector<float>& out, const Vec3& v) {
  out.push_back(static_cast<float>(v.x));
  out.push_back(static_cast<float>(v.y));
  out.push_back(static_cast<float>(v.z));
}

Vec3 unitAt(Real polar, int segment) {
  const Real around = 2.0 * M_PI * segment / kRoundSegments;
  return Vec3(std::sin(polar) * std::cos(around), std::cos(polar),
              std::sin(polar) * std::sin(around));
}

// The meridian through +x and its opposite one through -x: one circle through the poles.
bool outlinedMeridian(int segment) {
  return segment % (kRoundSegments / 2) == 0;
}

// A surface vertex: its position, the surface normal, and one triangle corner's edge coordinates
// (hull_mesh.h): corner `corner`'s barycentric coordinate, plus 1 on every component whose
// opposite edge is not outlined.
void pushCorner(MeshData& mesh, const Ring& ring, int segment, Real radius, int corner,
                const bool outlinedOpposite[3]) {
  const Vec3 n = unitAt(ring.polar, segment);
  push(mesh.triangles, Vec3(0.0, ring.centerY, 0.0) + radius * n);
  push(mesh.triangles, n);
  Vec3 edge(0.0);
  for (int k = 0; k < 3; ++k)
    edge[k] = (k == corner ? 1.0 : 0.0) + (outlinedOpposite[k] ? 0.0 : 1.0);
  push(mesh.triangles, edge);
}

// The band between two neighbouring rings, upper (smaller polar angle) first: quads (a, b) on
// `upper`, (c, d) on `lower`, cut along b-c into (a, b, c) and (b, d, c), counter-clockwise seen
// from outside. At a pole the triangle with two corners there is left out.
void pushBand(MeshData& mesh, const Ring& upper, const Ring& lower, Real radius) {
  const bool upperPole = std::sin(upper.polar) < 1e-9;
  const bool lowerPole = std::sin(lower.polar) < 1e-9;
  for (int k = 0; k < kRoundSegments; ++k) {
    const int next = k + 1;
    if (!upperPole) {
      // (a, b, c): opposite a the diagonal, opposite b the meridian a-c, opposite c the ring a-b.
      const bool outlined[3] = {false, outlinedMeridian(k), upper.outlined};
      pushCorner(mesh, upper, k, radius, 0, outlined);
      pushCorner(mesh, upper, next, radius, 1, outlined);
      pushCorner(mesh, lower, k, radius, 2, outlined);
    }
    if (!lowerPole) {
      // (b, d, c): opposite b the ring c-d, opposite d the diagonal, opposite c the meridian b-d.
      const bool outlined[3] = {lower.outlined, false, outlinedMeridian(next)};
      pushCorner(mesh, upper, next, radius, 0, outlined);
      pushCorner(mesh, lower, next, radius, 1, outlined);
      pushCorner(mesh, lower, k, radius, 2, outlined);
    }
  }
}

MeshData roundMesh(const std::vector<Ring>& rings, Real radius) {
  MeshData mesh;
  for (size_t i = 0; i + 1 < rings.size(); ++i) pushBand(mesh, rings[i], rings[i + 1], radius);
  return mesh;
}

// The arc center + radius (cos t u + sin t v) for t from `from` to `to` (radians) as line segments.
void pushArc(MeshData& mesh, const Vec3& center, const Vec3& u, const Vec3& v, Real radius,
             Real from, Real to) {
  const int steps =
      std::max(1, static_cast<int>(std::ceil(kRoundSegments * std::abs(to - from) / (2.0 * M_PI))));
  auto at = [&](int i) {
    const Real t = from + (to - from) * i / steps;
    return center + radius * (std::cos(t) * u + std::sin(t) * v);
  };
  for (int i = 0; i < steps; ++i) {
    push(mesh.lines, at(i));
    push(mesh.lines, at(i + 1));
  }
}

void pushLine(MeshData& mesh, const Vec3& a, const Vec3& b) {
  push(mesh.lines, a);
  push(mesh.lines, b);
}

// A small three-axis cross marking a core point.
void pushCross(MeshData& mesh, const Vec3& p, Real size) {
  for (int axis = 0; axis < 3; ++axis) {
    Vec3 d(0.0);
    d[axis] = size;
    pushLine(mesh, p - d, p + d);
  }
}

const Vec3 kX(1.0, 0.0, 0.0), kY(0.0, 1.0, 0.0), kZ(0.0, 0.0, 1.0);

// Moves a mesh built about the origin to `pose`: positions moved, normals turned, edge
// coordinates kept. The identity (the pose of every core makeSphere and makeCapsule make) costs
// nothing.
void place(MeshData& mesh, const Transform& pose) {
  if (pose.position == Vec3(0.0) && pose.rotation == Quat(1.0, 0.0, 0.0, 0.0)) return;
  auto apply = [](float* p, auto&& f) {
    const Vec3 v = f(Vec3(p[0], p[1], p[2]));
    for (int k = 0; k < 3; ++k) p[k] = static_cast<float>(v[k]);
  };
  auto move = [&](const Vec3& v) { return pose.apply(v); };
  auto turn = [&](const Vec3& v) { return pose.rotate(v); };
  for (size_t i = 0; i < mesh.triangles.size(); i += MeshData::kTriangleStride) {
    apply(&mesh.triangles[i], move);
    apply(&mesh.triangles[i + 3], turn);
  }
  for (size_t i = 0; i < mesh.lines.size(); i += 3) apply(&mesh.lines[i], move);
}

// What a surface triangle's edge coordinates add opposite an edge that is not outlined. A hull's
// faces add 1, but a terrain seen from afar has triangles smaller than a pixel, whose barycentric
// coordinates change by more than 1 per pixel: the face shader (pixels = edge / fwidth(edge)) would
// outline every one of them and darken the distance. 1000 pixels' worth is never reached.
constexpr Real kInnerEdge = 1000.0;

// An edge of a surface triangle, for finding its neighbours: the two vertex indices, smaller first,
// and the triangle's corner the edge starts at (3 triangle + k for edge v[k] -> v[k + 1]).
struct SurfaceEdge {
  uint64_t key = 0;
  uint32_t corner = 0;
  bool operator<(const SurfaceEdge& o) const {
    return key != o.key ? key < o.key : corner < o.corner;
  }
};

}  // namespace

MeshData surfaceMesh(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> triangles,
                     std::span<const Vec3> normals, std::span<const int> partSizes) {
  // Sorting the edges by their vertex pair puts each edge's triangles side by side (a 256 x 256
  // height field's 393,216 edges sort in a few tens of milliseconds, once per shape).
  std::vector<SurfaceEdge> edges;
  edges.reserve(3 * triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const auto a = static_cast<uint32_t>(triangles[t][static_cast<size_t>(k)]);
      const auto b = static_cast<uint32_t>(triangles[t][static_cast<size_t>((k + 1) % 3)]);
      edges.push_back({(static_cast<uint64_t>(std::min(a, b)) << 32) | std::max(a, b),
                       static_cast<uint32_t>(3 * t + static_cast<size_t>(k))});
    }
  std::sort(edges.begin(), edges.end());

  MeshData mesh;
  std::vector<bool> outlined(3 * triangles.size(), false);
  const Real creaseCos = std::cos(kSurfaceCreaseAngle);
  for (size_t i = 0; i < edges.size();) {
    size_t end = i + 1;
    while (end < edges.size() && edges[end].key == edges[i].key) ++end;
    bool crease = end - i != 2;  // a boundary, or shared by more than two
    if (!crease)
      crease = glm::dot(normals[edges[i].corner / 3], normals[edges[i + 1].corner / 3]) < creaseCos;
    for (size_t j = i; j < end; ++j) outlined[edges[j].corner] = crease;
    const std::array<int, 3>& t = triangles[edges[i].corner / 3];
    const uint32_t k = edges[i].corner % 3;
    push(mesh.lines, vertices[static_cast<size_t>(t[k])]);
    push(mesh.lines, vertices[static_cast<size_t>(t[(k + 1) % 3])]);
    i = end;
  }

  mesh.triangles.reserve(triangles.size() * 3 * MeshData::kTriangleStride);
  for (size_t t = 0; t < triangles.size(); ++t) {
    // Corner j's edge coordinates (hull_mesh.h): its barycentric coordinate, plus kInnerEdge on
    // component m when the edge opposite corner m, v[m + 1] -> v[m + 2], is not outlined.
    Vec3 interior(0.0);
    for (int m = 0; m < 3; ++m) interior[m] = outlined[3 * t + (m + 1) % 3] ? 0.0 : kInnerEdge;
    for (int j = 0; j < 3; ++j) {
      Vec3 edge = interior;
      edge[j] += 1.0;
      push(mesh.triangles, vertices[static_cast<size_t>(triangles[t][static_cast<size_t>(j)])]);
      push(mesh.triangles, normals[t]);
      push(mesh.triangles, edge);
    }
  }

  int first = 0;  // triangle
  for (const int size : partSizes) {
    if (size <= 0) continue;
    const glm::vec3 start(vertices[static_cast<size_t>(triangles[static_cast<size_t>(first)][0])]);
    MeshData::Part part{3 * first, 3 * size, start, start};
    for (int t = first; t < first + size; ++t)
      for (const int v : triangles[static_cast<size_t>(t)]) {
        part.lo = glm::min(part.lo, glm::vec3(vertices[static_cast<size_t>(v)]));
        part.hi = glm::max(part.hi, glm::vec3(vertices[static_cast<size_t>(v)]));
      }
    mesh.parts.push_back(part);
    first += size;
  }
  return mesh;
}

namespace {

// The number of leaves under each node of a static tree.
int countLeaves(const std::vector<StaticBvh::Node>& nodes, int node, std::vector<int>& leaves) {
  const StaticBvh::Node& n = nodes[static_cast<size_t>(node)];
  const int count =
      n.left < 0 ? 1 : countLeaves(nodes, n.left, leaves) + countLeaves(nodes, n.right, leaves);
  leaves[static_cast<size_t>(node)] = count;
  return count;
}

// The leaves under `node` in the tree's order into `order`, in runs of at most
// kSurfacePartTriangles (whole subtrees, so each run is compact) whose sizes go to `parts`.
void collectLeaves(const std::vector<StaticBvh::Node>& nodes, const std::vector<int>& leaves,
                   int node, bool counted, std::vector<int>& order, std::vector<int>& parts) {
  const StaticBvh::Node& n = nodes[static_cast<size_t>(node)];
  if (!counted && leaves[static_cast<size_t>(node)] <= kSurfacePartTriangles) {
    parts.push_back(leaves[static_cast<size_t>(node)]);
    counted = true;
  }
  if (n.left < 0) {
    order.push_back(n.right);
    return;
  }
  collectLeaves(nodes, leaves, n.left, counted, order, parts);
  collectLeaves(nodes, leaves, n.right, counted, order, parts);
}

}  // namespace

MeshData triangleMeshMesh(const TriangleMesh& mesh) {
  const auto& nodes = mesh.tree.nodes();
  if (nodes.empty()) return surfaceMesh(mesh.vertices, mesh.triangles, mesh.normals, {});
  // The triangles in the tree's order, so that its subtrees are runs the renderer can cull.
  std::vector<int> leaves(nodes.size(), 0), order, parts;
  countLeaves(nodes, 0, leaves);
  collectLeaves(nodes, leaves, 0, false, order, parts);
  std::vector<std::array<int, 3>> triangles;
  std::vector<Vec3> normals;
  for (const int t : order) {
    triangles.push_back(mesh.triangles[static_cast<size_t>(t)]);
    normals.push_back(mesh.normals[static_cast<size_t>(t)]);
  }
  return surfaceMesh(mesh.vertices, triangles, normals, parts);
}

MeshData heightFieldMesh(const HeightField& field) {
  std::vector<Vec3> points;
  points.reserve(static_cast<size_t>(field.rows) * static_cast<size_t>(field.columns));
  for (int r = 0; r < field.rows; ++r)
    for (int c = 0; c < field.columns; ++c) points.push_back(field.point(r, c));
  // Cell (r, c) is triangles 2 (r (columns - 1) + c) and the one after it, with the engine's
  // corners (mesh.h); taken in square blocks of cells, each block a part the renderer can cull.
  constexpr int kBlock = 32;  // cells a side: 2048 triangles, kSurfacePartTriangles
  const auto count = static_cast<size_t>(2 * (field.rows - 1) * (field.columns - 1));
  std::vector<std::array<int, 3>> triangles;
  std::vector<Vec3> normals;
  std::vector<int> parts;
  triangles.reserve(count);
  normals.reserve(count);
  auto at = [&](int r, int c) { return r * field.columns + c; };
  for (int r0 = 0; r0 + 1 < field.rows; r0 += kBlock)
    for (int c0 = 0; c0 + 1 < field.columns; c0 += kBlock) {
      const int r1 = std::min(r0 + kBlock, field.rows - 1);
      const int c1 = std::min(c0 + kBlock, field.columns - 1);
      for (int r = r0; r < r1; ++r)
        for (int c = c0; c < c1; ++c) {
          triangles.push_back({at(r, c), at(r + 1, c), at(r + 1, c + 1)});
          triangles.push_back({at(r, c), at(r + 1, c + 1), at(r, c + 1)});
          const auto t = static_cast<uint32_t>(2 * (r * (field.columns - 1) + c));
          normals.push_back(field.triangle(t).normal);
          normals.push_back(field.triangle(t + 1).normal);
        }
      parts.push_back(2 * (r1 - r0) * (c1 - c0));
    }
  return surfaceMesh(points, triangles, normals, parts);
}

MeshData sphereMesh(Real radius) {
  std::vector<Ring> rings;
  for (int i = 0; i <= kRoundStacks; ++i)
    rings.push_back({M_PI * i / kRoundStacks, 0.0, 2 * i == kRoundStacks});
  MeshData mesh = roundMesh(rings, radius);
  const Vec3 center(0.0);
  pushArc(mesh, center, kX, kY, radius, 0.0, 2.0 * M_PI);
  pushArc(mesh, center, kY, kZ, radius, 0.0, 2.0 * M_PI);
  pushArc(mesh, center, kZ, kX, radius, 0.0, 2.0 * M_PI);
  pushCross(mesh, center, 0.1 * radius);
  return mesh;
}

MeshData capsuleMesh(Real radius, Real halfHeight) {
  // The upper cap's rings about (0, h, 0) down to its rim, then the lower cap's from its rim about
  // (0, -h, 0): the band between the two rims is the cylinder (none when h is 0).
  std::vector<Ring> rings;
  const int half = kRoundStacks / 2;
  for (int i = 0; i <= half; ++i) rings.push_back({M_PI * i / kRoundStacks, halfHeight, i == half});
  for (int i = halfHeight > 0.0 ? half : half + 1; i <= kRoundStacks; ++i)
    rings.push_back({M_PI * i / kRoundStacks, -halfHeight, i == half});
  MeshData mesh = roundMesh(rings, radius);

  const Vec3 top(0.0, halfHeight, 0.0), bottom(0.0, -halfHeight, 0.0);
  pushLine(mesh, bottom, top);
  pushCross(mesh, top, 0.1 * radius);
  pushCross(mesh, bottom, 0.1 * radius);
  pushArc(mesh, top, kX, kZ, radius, 0.0, 2.0 * M_PI);
  pushArc(mesh, bottom, kX, kZ, radius, 0.0, 2.0 * M_PI);
  // The silhouettes seen along z and along x: the sides, the caps' half circles.
  for (const Vec3& side : {kX, kZ}) {
    pushLine(mesh, bottom + radius * side, top + radius * side);
    pushLine(mesh, bottom - radius * side, top - radius * side);
    pushArc(mesh, top, side, kY, radius, 0.0, M_PI);
    pushArc(mesh, bottom, side, kY, radius, M_PI, 2.0 * M_PI);
  }
  return mesh;
}

MeshData cylinderMesh(Real radius, Real halfHeight) {
  MeshData mesh;
  const Real h = halfHeight;
  auto rim = [&](int k, Real y) { return Vec3(0.0, y, 0.0) + radius * unitAt(M_PI / 2.0, k); };
  // One corner: position, normal, and edge coordinates as pushCorner writes them.
  auto corner = [&](const Vec3& p, const Vec3& n, int c, const bool(&outlined)[3]) {
    push(mesh.triangles, p);
    push(mesh.triangles, n);
    Vec3 edge(0.0);
    for (int k = 0; k < 3; ++k) edge[k] = (k == c ? 1.0 : 0.0) + (outlined[k] ? 0.0 : 1.0);
    push(mesh.triangles, edge);
  };
  const Vec3 top(0.0, h, 0.0), bottom(0.0, -h, 0.0);
  for (int k = 0; k < kRoundSegments; ++k) {
    const int next = k + 1;
    const Vec3 n0 = unitAt(M_PI / 2.0, k), n1 = unitAt(M_PI / 2.0, next);
    // The side, counter-clockwise seen from outside: (top k, top k+1, bottom k) and
    // (top k+1, bottom k+1, bottom k); the rims and the meridians through +x and -x outlined.
    const bool first[3] = {false, outlinedMeridian(k), true};
    corner(rim(k, h), n0, 0, first);
    corner(rim(next, h), n1, 1, first);
    corner(rim(k, -h), n0, 2, first);
    const bool second[3] = {true, false, outlinedMeridian(next)};
    corner(rim(next, h), n1, 0, second);
    corner(rim(next, -h), n1, 1, second);
    corner(rim(k, -h), n0, 2, second);
    // The caps, fanned from their centres; the rim and the spokes of that diameter outlined.
    const bool capTop[3] = {true, outlinedMeridian(k), outlinedMeridian(next)};
    corner(top, kY, 0, capTop);
    corner(rim(next, h), kY, 1, capTop);
    corner(rim(k, h), kY, 2, capTop);
    const bool capBottom[3] = {true, outlinedMeridian(next), outlinedMeridian(k)};
    corner(bottom, -kY, 0, capBottom);
    corner(rim(k, -h), -kY, 1, capBottom);
    corner(rim(next, -h), -kY, 2, capBottom);
  }
  pushLine(mesh, bottom, top);
  pushArc(mesh, top, kX, kZ, radius, 0.0, 2.0 * M_PI);
  pushArc(mesh, bottom, kX, kZ, radius, 0.0, 2.0 * M_PI);
  for (const Vec3& side : {kX, kZ}) {
    pushLine(mesh, bottom + radius * side, top + radius * side);
    pushLine(mesh, bottom - radius * side, top - radius * side);
  }
  return mesh;
}

MeshData roundedHullMesh(const RoundedHullCore& core) {
  // The hull of every core vertex pushed out by r along many directions: kRoundedDirections spread
  // over the sphere, and the core's face normals (so the flat faces come out exactly flat). Each
  // kept point carries the direction it was pushed along as its normal: the surface normal where
  // the direction lies in that vertex's normal cone (nearly always; otherwise a direction close
  // to it).
  std::vector<Vec3> dirs;
  const Real golden = M_PI * (3.0 - std::sqrt(5.0));
  for (int i = 0; i < kRoundedDirections; ++i) {
    const Real y = 1.0 - 2.0 * (i + 0.5) / kRoundedDirections, s = std::sqrt(1.0 - y * y);
    dirs.emplace_back(s * std::cos(golden * i), y, s * std::sin(golden * i));
  }
  for (const HullFace& f : core.hull.faces()) dirs.push_back(f.normal);
  const auto& coreVerts = core.hull.vertices();
  std::vector<Vec3> points;
  points.reserve(coreVerts.size() * dirs.size());
  for (const Vec3& v : coreVerts)
    for (const Vec3& u : dirs) points.push_back(v + core.radius * u);
  const Expected<ConvexHull> surface = ConvexHull::build(points);
  if (!surface) return hullMesh(core.hull);  // not expected: the core is solid
  const auto& verts = surface->vertices();
  const auto& source = surface->sourceIndices();
  auto normalOf = [&](int i) {
    return dirs[static_cast<size_t>(source[static_cast<size_t>(i)]) % dirs.size()];
  };
  MeshData mesh;
  for (const HullFace& face : surface->faces()) {
    // A flat face (parallel to a core face) is outlined as a hull's; the curved strips and
    // corners are not.
    bool flat = false;
    for (const HullFace& f : core.hull.faces())
      flat = flat || glm::dot(f.normal, face.normal) > 1.0 - 1e-9;
    const size_t n = face.vertices.size();
    for (size_t i = 1; i + 1 < n; ++i) {
      const Vec3 interior =
          flat ? Vec3(0.0, i + 2 == n ? 0.0 : 1.0, i == 1 ? 0.0 : 1.0) : Vec3(kInnerEdge);
      const int corners[3] = {face.vertices[0], face.vertices[i], face.vertices[i + 1]};
      for (int k = 0; k < 3; ++k) {
        Vec3 edge = interior;
        edge[k] += 1.0;
        push(mesh.triangles, verts[static_cast<size_t>(corners[k])]);
        push(mesh.triangles, flat ? face.normal : normalOf(corners[k]));
        push(mesh.triangles, edge);
      }
    }
    if (flat)
      for (size_t i = 0; i < n; ++i)
        pushLine(mesh, verts[static_cast<size_t>(face.vertices[i])],
                 verts[static_cast<size_t>(face.vertices[(i + 1) % n])]);
  }
  // The core's edges, as a capsule's core segment.
  for (const HullEdge& e : core.hull.edges())
    pushLine(mesh, coreVerts[static_cast<size_t>(e.a)], coreVerts[static_cast<size_t>(e.b)]);
  return mesh;
}

MeshData shapeMesh(const Shape& shape) {
  if (shape.hull()) return hullMesh(*shape.hull());
  if (shape.roundedHull()) return roundedHullMesh(*shape.roundedHull());
  if (shape.mesh()) return triangleMeshMesh(*shape.mesh());
  if (shape.heightField()) return heightFieldMesh(*shape.heightField());
  if (const CylinderCore* c = shape.cylinder())
    return cylinderMesh(c->support.radius, c->support.halfHeight);
  const RoundCore* core = shape.round();
  if (!core) return MeshData{};  // empty, or a kind drawn some other way
  if (shape.type() == ShapeType::Sphere) {
    MeshData mesh = sphereMesh(core->radius);
    place(mesh, Transform{core->points[0], Quat(1.0, 0.0, 0.0, 0.0)});
    return mesh;
  }
  // A capsule: makeCapsule puts its core on the y axis about the origin; any other segment is
  // reached by turning y onto it and moving to its middle.
  const Vec3 axis = core->points[1] - core->points[0];
  const Real length = glm::length(axis);
  MeshData mesh = capsuleMesh(core->radius, 0.5 * length);
  const Quat turn = length > 0.0 ? Quat(kY, axis / length) : Quat(1.0, 0.0, 0.0, 0.0);
  place(mesh, Transform{0.5 * (core->points[0] + core->points[1]), turn});
  return mesh;
}

}  // namespace tumble::demo
