#include "shape_mesh.h"

#include <algorithm>
#include <cmath>
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

}  // namespace

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

MeshData shapeMesh(const Shape& shape) {
  if (shape.hull()) return hullMesh(*shape.hull());
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
