#include "tumble/hull.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "geometry/qhull_backend.h"

namespace tumble {
namespace {

constexpr Real kEpsilon = std::numeric_limits<Real>::epsilon();
// A set whose thickness (relative to its diameter) is below this is treated as flat: Qhull could
// not build a meaningful solid from it.
constexpr Real kFlatRelative = 1e-10;

Expected<ConvexHull> fail(std::string message) {
  return Expected<ConvexHull>::failure("convex hull: " + std::move(message));
}

std::string formatReal(Real x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", x);
  return buffer;
}

std::string formatPoint(const Vec3& p) {
  return "(" + formatReal(p.x) + ", " + formatReal(p.y) + ", " + formatReal(p.z) + ")";
}

size_t farthestFrom(std::span<const Vec3> q, const auto& distance) {
  size_t best = 0;
  Real bestDistance = -1.0;
  for (size_t i = 0; i < q.size(); ++i) {
    Real d = distance(q[i]);
    if (d > bestDistance) {
      bestDistance = d;
      best = i;
    }
  }
  return best;
}

// Says why `centered` spans less than a solid, or returns an empty string. `roundoff` is the
// absolute error of the coordinates; `unit` the length in metres of one unit of `centered` (for
// the messages).
std::string degeneracy(std::span<const Vec3> centered, Real roundoff, Real unit) {
  const size_t n = centered.size();
  size_t a = farthestFrom(centered, [](const Vec3& p) { return glm::length(p); });
  size_t b = farthestFrom(centered, [&](const Vec3& p) { return glm::length(p - centered[a]); });
  Real diameter = glm::length(centered[b] - centered[a]);
  if (diameter <= 16.0 * roundoff) {
    return "all " + std::to_string(n) + " points are coincident (spread " +
           formatReal(diameter * unit) + " m); at least 4 non-coplanar points are needed";
  }
  Vec3 axis = (centered[b] - centered[a]) / diameter;
  auto lineDistance = [&](const Vec3& p) { return glm::length(glm::cross(p - centered[a], axis)); };
  size_t c = farthestFrom(centered, lineDistance);
  Real height = lineDistance(centered[c]);
  if (height <= kFlatRelative * diameter + 16.0 * roundoff) {
    return "all " + std::to_string(n) + " points are collinear (largest distance from their line " +
           formatReal(height * unit) + " m for a length of " + formatReal(diameter * unit) +
           " m); at least 4 non-coplanar points are needed";
  }
  Vec3 normal = glm::normalize(glm::cross(centered[b] - centered[a], centered[c] - centered[a]));
  auto planeDistance = [&](const Vec3& p) { return std::abs(glm::dot(p - centered[a], normal)); };
  Real thickness = planeDistance(centered[farthestFrom(centered, planeDistance)]);
  if (thickness <= kFlatRelative * diameter + 16.0 * roundoff) {
    return "all " + std::to_string(n) + " points are coplanar (largest distance from their plane " +
           formatReal(thickness * unit) + " m for a diameter of " + formatReal(diameter * unit) +
           " m); at least 4 non-coplanar points are needed";
  }
  return {};
}

// A vertex on exactly two faces lies (within roundoff) on the edge between them: it is not a
// corner of the polytope, so it is dropped from both polygons.
void dropEdgeMidpoints(std::vector<std::vector<int>>& faces, size_t pointCount) {
  std::vector<int> faceCount(pointCount, 0);
  for (const auto& face : faces) {
    for (int v : face) ++faceCount[static_cast<size_t>(v)];
  }
  for (auto& face : faces) {
    std::erase_if(face, [&](int v) { return faceCount[static_cast<size_t>(v)] == 2; });
  }
}

// For each point, the lowest index of a point with exactly the same coordinates: Qhull may pick
// any copy of a duplicated point, and the hull should not depend on which.
std::vector<int> firstCopies(std::span<const Vec3> points) {
  std::vector<int> order(points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  auto key = [&](int i) {
    const Vec3& p = points[static_cast<size_t>(i)];
    return std::make_tuple(p.x, p.y, p.z, i);
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
  std::vector<int> first(points.size());
  for (size_t k = 0; k < order.size(); ++k) {
    int i = order[k];
    int prev = k > 0 ? order[k - 1] : -1;
    bool same = prev >= 0 && points[static_cast<size_t>(prev)] == points[static_cast<size_t>(i)];
    first[static_cast<size_t>(i)] = same ? first[static_cast<size_t>(prev)] : i;
  }
  return first;
}

}  // namespace

Expected<ConvexHull> ConvexHull::build(std::span<const Vec3> points) {
  if (points.empty()) return fail("the point set is empty; at least 4 non-coplanar points needed");
  for (size_t i = 0; i < points.size(); ++i) {
    if (!isFinite(points[i])) {
      return fail("point " + std::to_string(i) + " has a non-finite coordinate " +
                  formatPoint(points[i]));
    }
  }
  if (points.size() < 4) {
    return fail("got " + std::to_string(points.size()) +
                " points, fewer than the 4 non-coplanar points a solid needs");
  }

  // The degeneracy test and Qhull work on copies scaled by powers of two, which is exact:
  // normals and thicknesses do not depend on the scale, but at 1e-79 m the products of coordinate
  // differences underflow (1e-84 cubed) and Qhull's normals came out short of unit length
  // (fuzz_hull, tests/fuzz/corpus/hull/regression-tiny-hull), and at 1e300 m the squared lengths
  // overflow. First to coordinates below 2 in magnitude, so that the centroid's sum cannot
  // overflow.
  Real maxAbs = 0.0;
  for (const Vec3& p : points)
    maxAbs = std::max({maxAbs, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
  int shift = maxAbs > 0.0 ? -std::ilogb(maxAbs) : 0;
  auto scaled = [](const Vec3& p, int k) {
    return Vec3(std::ldexp(p.x, k), std::ldexp(p.y, k), std::ldexp(p.z, k));
  };
  // Then relative to the centroid so that Qhull sees coordinates of the hull's own size, not of
  // its offset (1e4 m away, a 1e-3 m hull would otherwise lose 7 digits in every determinant).
  Vec3 centroid(0.0);
  for (const Vec3& p : points) centroid += scaled(p, shift);
  centroid /= static_cast<Real>(points.size());
  std::vector<Vec3> centered(points.size());
  Real extent = 0.0;
  for (size_t i = 0; i < points.size(); ++i) {
    centered[i] = scaled(points[i], shift) - centroid;
    extent = std::max(
        {extent, std::abs(centered[i].x), std::abs(centered[i].y), std::abs(centered[i].z)});
  }
  // The input coordinates are only known to about an ulp of their magnitude.
  Real roundoff = kEpsilon * std::ldexp(maxAbs, shift);
  // Last to an extent in [1, 2).
  if (extent > 0.0) {
    const int more = -std::ilogb(extent);
    for (Vec3& p : centered) p = scaled(p, more);
    roundoff = std::ldexp(roundoff, more);
    extent = std::ldexp(extent, more);
    shift += more;
  }
  const Real unit = std::ldexp(1.0, -shift);  // metres per unit of `centered`
  if (std::string why = degeneracy(centered, roundoff, unit); !why.empty()) return fail(why);

  auto raw = detail::runQhull(centered, 4.0 * roundoff + 32.0 * kEpsilon * extent);
  if (!raw) return Expected<ConvexHull>::failure(raw.error());
  std::vector<std::vector<int>>& faces = raw->faces;
  const std::vector<int> first = firstCopies(points);
  for (auto& face : faces) {
    for (int& v : face) v = first[static_cast<size_t>(v)];
  }
  dropEdgeMidpoints(faces, points.size());

  ConvexHull hull;
  std::vector<int> newIndex(points.size(), -1);
  for (const auto& face : faces) {
    if (face.size() < 3) return fail("a face collapsed to fewer than 3 vertices");
    for (int v : face) newIndex[static_cast<size_t>(v)] = 0;
  }
  for (size_t i = 0; i < points.size(); ++i) {
    if (newIndex[i] < 0) continue;
    newIndex[i] = static_cast<int>(hull.vertices_.size());
    hull.vertices_.push_back(points[i]);
    hull.sourceIndices_.push_back(static_cast<int>(i));
  }
  Real r2 = 0.0;
  for (const Vec3& v : hull.vertices_) r2 = std::max(r2, glm::dot(v, v));
  hull.radius_ = std::sqrt(r2);

  // Canonical order (each cycle from its lowest vertex, faces sorted) so the result does not
  // depend on Qhull's internal facet order.
  std::vector<std::pair<std::vector<int>, Vec3>> cycles;
  for (size_t f = 0; f < faces.size(); ++f) {
    std::vector<int> cycle;
    for (int v : faces[f]) cycle.push_back(newIndex[static_cast<size_t>(v)]);
    std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
    cycles.emplace_back(std::move(cycle), raw->normals[f]);
  }
  std::sort(cycles.begin(), cycles.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });

  for (auto& [cycle, normal] : cycles) {
    HullFace face;
    // Qhull's hyperplane, not a normal recomputed from the polygon: for slivers (two vertices
    // 1e-6 apart, one far away) Newell's sum loses about 1e-9 in direction, Qhull's 1e-15.
    // The offset is the largest dot(normal, v) over the face's vertices, so every vertex of the
    // hull lies on or below the plane up to roundoff (measured: 1e-15 of the hull's size, or 30
    // ulps of its coordinates far from the origin); the vertices of a merged face are within
    // 3e-14 of the size (50 ulps) of it.
    face.normal = normal;
    face.offset = -std::numeric_limits<Real>::max();
    for (int v : cycle) {
      face.offset =
          std::max(face.offset, glm::dot(face.normal, hull.vertices_[static_cast<size_t>(v)]));
    }
    face.vertices = std::move(cycle);
    hull.faces_.push_back(std::move(face));
  }

  // Edges: each directed boundary step a -> b of a face; a closed 2-manifold has every undirected
  // edge exactly once in each direction.
  std::vector<std::tuple<int, int, int, int>> steps;  // (low, high, reversed, face)
  for (size_t f = 0; f < hull.faces_.size(); ++f) {
    const auto& cycle = hull.faces_[f].vertices;
    for (size_t i = 0; i < cycle.size(); ++i) {
      int u = cycle[i];
      int v = cycle[(i + 1) % cycle.size()];
      steps.emplace_back(std::min(u, v), std::max(u, v), u < v ? 0 : 1, static_cast<int>(f));
    }
  }
  std::sort(steps.begin(), steps.end());
  for (size_t i = 0; i < steps.size(); i += 2) {
    auto [a, b, reversed, face] = steps[i];
    bool paired =
        i + 1 < steps.size() && std::get<0>(steps[i + 1]) == a && std::get<1>(steps[i + 1]) == b &&
        reversed == 0 && std::get<2>(steps[i + 1]) == 1 &&
        (i + 2 >= steps.size() || std::get<0>(steps[i + 2]) != a || std::get<1>(steps[i + 2]) != b);
    if (!paired) {
      return fail("edge (" + std::to_string(a) + ", " + std::to_string(b) +
                  ") is not shared by exactly two consistently oriented faces");
    }
    hull.edges_.push_back(HullEdge{a, b, face, std::get<3>(steps[i + 1])});
  }
  const long euler = static_cast<long>(hull.vertices_.size()) -
                     static_cast<long>(hull.edges_.size()) + static_cast<long>(hull.faces_.size());
  if (euler != 2)
    return fail("the hull is not a closed polytope (V - E + F = " + std::to_string(euler) + ")");

  // Vertex adjacency in compressed form, neighbours sorted.
  const size_t vertexCount = hull.vertices_.size();
  hull.neighbourOffsets_.assign(vertexCount + 1, 0);
  for (const HullEdge& e : hull.edges_) {
    ++hull.neighbourOffsets_[static_cast<size_t>(e.a) + 1];
    ++hull.neighbourOffsets_[static_cast<size_t>(e.b) + 1];
  }
  for (size_t i = 0; i < vertexCount; ++i) {
    hull.neighbourOffsets_[i + 1] += hull.neighbourOffsets_[i];
  }
  hull.neighbours_.assign(hull.edges_.size() * 2, 0);
  std::vector<int> fill(hull.neighbourOffsets_.begin(), hull.neighbourOffsets_.end() - 1);
  for (const HullEdge& e : hull.edges_) {
    hull.neighbours_[static_cast<size_t>(fill[static_cast<size_t>(e.a)]++)] = e.b;
    hull.neighbours_[static_cast<size_t>(fill[static_cast<size_t>(e.b)]++)] = e.a;
  }
  for (size_t i = 0; i < vertexCount; ++i) {
    std::sort(hull.neighbours_.begin() + hull.neighbourOffsets_[i],
              hull.neighbours_.begin() + hull.neighbourOffsets_[i + 1]);
  }
  hull.findBox();
  return hull;
}

void ConvexHull::findBox() {
  isBox_ = false;
  box_ = HullBox{};
  if (vertices_.size() != 8 || faces_.size() != 6) return;
  for (const HullFace& f : faces_)
    if (f.vertices.size() != 4) return;
  // Three pairs of opposite faces, in the order of their first faces.
  int pairs = 0;
  std::vector<char> used(6, 0);
  for (int f = 0; f < 6; ++f) {
    if (used[static_cast<size_t>(f)]) continue;
    int opposite = -1;
    for (int g = f + 1; g < 6 && opposite < 0; ++g)
      if (!used[static_cast<size_t>(g)] &&
          glm::dot(faces_[static_cast<size_t>(f)].normal, faces_[static_cast<size_t>(g)].normal) <
              -1.0 + 1e-12)
        opposite = g;
    if (opposite < 0 || pairs == 3) return;
    used[static_cast<size_t>(f)] = used[static_cast<size_t>(opposite)] = 1;
    box_.axis[pairs] = faces_[static_cast<size_t>(f)].normal;
    box_.face[pairs][0] = f;
    box_.face[pairs][1] = opposite;
    ++pairs;
  }
  if (pairs != 3) return;
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (std::abs(glm::dot(box_.axis[i], box_.axis[j])) > 1e-12) return;
  Vec3 center(0.0);
  for (const Vec3& v : vertices_) center += v;
  box_.center = center / 8.0;
  // Every vertex a corner: at +-half along each axis from the centre.
  const Real tolerance = 1e-12 * std::max(radius_, Real(1e-300));
  for (int k = 0; k < 3; ++k) {
    const HullFace& plus = faces_[static_cast<size_t>(box_.face[k][0])];
    const HullFace& minus = faces_[static_cast<size_t>(box_.face[k][1])];
    box_.half[k] = 0.5 * (plus.offset + minus.offset);
    if (!(box_.half[k] > 0.0)) return;
    for (const Vec3& v : vertices_)
      if (std::abs(std::abs(glm::dot(v - box_.center, box_.axis[k])) - box_.half[k]) > tolerance)
        return;
  }
  // Each face's edges: an edge's midpoint is at +-half along the axis across it and at the
  // centre along the axis it runs along.
  for (int k = 0; k < 3; ++k)
    for (int side = 0; side < 2; ++side) {
      const int f = box_.face[k][side];
      box_.faceAxis[f] = k;
      const std::vector<int>& cycle = faces_[static_cast<size_t>(f)].vertices;
      for (int j = 0; j < 4; ++j) {
        const Vec3 mid =
            0.5 * (vertices_[static_cast<size_t>(cycle[static_cast<size_t>(j)])] +
                   vertices_[static_cast<size_t>(cycle[static_cast<size_t>((j + 1) % 4)])]) -
            box_.center;
        int across = -1;
        Real most = -1.0;
        for (int i = 0; i < 3; ++i) {
          const Real r = std::abs(glm::dot(mid, box_.axis[i])) / box_.half[i];
          if (i != k && r > most) most = r, across = i;
        }
        box_.edgeAxis[f][j] = across;
        box_.edgeSign[f][j] = glm::dot(mid, box_.axis[across]) >= 0.0 ? 1.0 : -1.0;
      }
    }
  isBox_ = true;
}

SupportShape ConvexHull::supportShape() const {
  return SupportShape{vertices_, neighbourOffsets_, neighbours_};
}

Vec3 ConvexHull::boundsMin() const {
  Vec3 lo(std::numeric_limits<Real>::max());
  for (const Vec3& v : vertices_) lo = glm::min(lo, v);
  return lo;
}

Vec3 ConvexHull::boundsMax() const {
  Vec3 hi(std::numeric_limits<Real>::lowest());
  for (const Vec3& v : vertices_) hi = glm::max(hi, v);
  return hi;
}

}  // namespace tumble
