#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "corpus.h"
#include "geometry/qhull_backend.h"
#include "random.h"
#include "shapes.h"
#include "tumble/hull.h"

using namespace tumble;
using tumble::test::boxCorners;
using tumble::test::randomRotation;
using tumble::test::uniform;
using tumble::test::unitVector;

namespace {

// Corners, then points on faces, edges and inside, and duplicates of corners.
std::vector<Vec3> clutteredBox(std::mt19937_64& rng, const Vec3& half) {
  std::vector<Vec3> out = boxCorners(half);
  for (int i = 0; i < 60; ++i) {
    Vec3 u(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    int axis = i % 3;
    Vec3 face = u;
    face[axis] = (i % 2) ? 1.0 : -1.0;
    out.push_back(face * half);
    Vec3 edge = face;
    edge[(axis + 1) % 3] = (i % 4 < 2) ? 1.0 : -1.0;
    out.push_back(edge * half);
    out.push_back(u * half * 0.9);
  }
  for (int i = 0; i < 8; ++i) out.push_back(out[static_cast<size_t>(i)]);
  return out;
}

Real faceTolerance(std::span<const Vec3> points) {
  Real maxAbs = 0.0;
  Vec3 lo(std::numeric_limits<Real>::max()), hi(std::numeric_limits<Real>::lowest());
  for (const Vec3& p : points) {
    maxAbs = std::max({maxAbs, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return 1e-9 * glm::length(hi - lo) + 64.0 * std::numeric_limits<Real>::epsilon() * maxAbs;
}

// Structural and geometric invariants every hull must satisfy, checked against the input.
void checkInvariants(const ConvexHull& hull, std::span<const Vec3> points) {
  const auto& v = hull.vertices();
  const auto& faces = hull.faces();
  const auto& edges = hull.edges();
  const Real tol = faceTolerance(points);
  REQUIRE(v.size() >= 4);
  REQUIRE(faces.size() >= 4);
  CHECK(static_cast<long>(v.size()) - static_cast<long>(edges.size()) +
            static_cast<long>(faces.size()) ==
        2);
  // Vertices are input points, copied exactly, in input order.
  REQUIRE(hull.sourceIndices().size() == v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const Vec3& src = points[static_cast<size_t>(hull.sourceIndices()[i])];
    CHECK((v[i].x == src.x && v[i].y == src.y && v[i].z == src.z));
    if (i > 0) CHECK(hull.sourceIndices()[i] > hull.sourceIndices()[i - 1]);
  }
  std::vector<int> faceCount(v.size(), 0);
  for (const HullFace& f : faces) {
    REQUIRE(f.vertices.size() >= 3);
    CHECK(glm::length(f.normal) == Approx(1.0).epsilon(1e-12));
    Vec3 area(0.0);
    for (size_t i = 0; i < f.vertices.size(); ++i) {
      const Vec3& p = v[static_cast<size_t>(f.vertices[i])];
      const Vec3& q = v[static_cast<size_t>(f.vertices[(i + 1) % f.vertices.size()])];
      area += glm::cross(p - v[static_cast<size_t>(f.vertices[0])],
                         q - v[static_cast<size_t>(f.vertices[0])]);
      CHECK(std::abs(glm::dot(f.normal, p) - f.offset) <= tol);
      ++faceCount[static_cast<size_t>(f.vertices[i])];
    }
    CHECK(glm::dot(area, f.normal) > 0.0);  // counter-clockwise seen from outside
    // Convex polygon: every turn has the orientation of the normal.
    for (size_t i = 0; i < f.vertices.size(); ++i) {
      const Vec3& p = v[static_cast<size_t>(f.vertices[i])];
      const Vec3& q = v[static_cast<size_t>(f.vertices[(i + 1) % f.vertices.size()])];
      const Vec3& r = v[static_cast<size_t>(f.vertices[(i + 2) % f.vertices.size()])];
      CHECK(glm::dot(glm::cross(q - p, r - q), f.normal) >= -tol * glm::length(q - p));
    }
    Real worst = std::numeric_limits<Real>::lowest();
    for (const Vec3& p : points) worst = std::max(worst, glm::dot(f.normal, p) - f.offset);
    CHECK(worst <= tol);  // every input point is inside every face plane
  }
  for (int c : faceCount) CHECK(c >= 3);
  for (const HullEdge& e : edges) {
    REQUIRE(e.a < e.b);
    auto runs = [&](int face, int from, int to) {
      const auto& cyc = faces[static_cast<size_t>(face)].vertices;
      for (size_t i = 0; i < cyc.size(); ++i) {
        if (cyc[i] == from && cyc[(i + 1) % cyc.size()] == to) return true;
      }
      return false;
    };
    CHECK(runs(e.faceA, e.a, e.b));
    CHECK(runs(e.faceB, e.b, e.a));
  }
  // Adjacency: symmetric, sorted, as many entries as edge ends.
  const auto& off = hull.neighbourOffsets();
  const auto& nb = hull.neighbours();
  REQUIRE(off.size() == v.size() + 1);
  CHECK(static_cast<size_t>(off.back()) == 2 * edges.size());
  for (size_t i = 0; i < v.size(); ++i) {
    CHECK(off[i + 1] - off[i] >= 3);
    for (int k = off[i]; k < off[i + 1]; ++k) {
      int j = nb[static_cast<size_t>(k)];
      if (k > off[i]) CHECK(nb[static_cast<size_t>(k - 1)] < j);
      CHECK(std::binary_search(nb.begin() + off[static_cast<size_t>(j)],
                               nb.begin() + off[static_cast<size_t>(j) + 1], static_cast<int>(i)));
    }
  }
}

// No extreme point is missing: in any direction the hull reaches as far as the input.
void checkCompleteness(const ConvexHull& hull, std::span<const Vec3> points, std::mt19937_64& rng) {
  const Real tol = faceTolerance(points);
  for (int k = 0; k < 200; ++k) {
    Vec3 d = unitVector(rng);
    Real inputMax = std::numeric_limits<Real>::lowest();
    for (const Vec3& p : points) inputMax = std::max(inputMax, glm::dot(p, d));
    Real hullMax = std::numeric_limits<Real>::lowest();
    for (const Vec3& p : hull.vertices()) hullMax = std::max(hullMax, glm::dot(p, d));
    CHECK(hullMax >= inputMax - tol);
  }
}

void checkBoxTopology(const ConvexHull& hull, std::span<const Vec3> points) {
  CHECK(hull.vertices().size() == 8);
  CHECK(hull.faces().size() == 6);
  CHECK(hull.edges().size() == 12);
  for (const HullFace& f : hull.faces()) CHECK(f.vertices.size() == 4);
  for (int s : hull.sourceIndices()) CHECK(s < 8);  // the corners come first in the input
  checkInvariants(hull, points);
}

}  // namespace

TEST_CASE("hull of a box's corners", "[hull]") {
  auto points = boxCorners(Vec3(0.5, 1.0, 1.5));
  auto hull = ConvexHull::build(points);
  REQUIRE(hull.ok());
  checkBoxTopology(*hull, points);
  Vec3 half(0.5, 1.0, 1.5);
  for (const HullFace& f : hull->faces()) {
    int axis = std::abs(f.normal.x) > 0.5 ? 0 : (std::abs(f.normal.y) > 0.5 ? 1 : 2);
    CHECK(std::abs(f.normal[axis]) == Approx(1.0));
    CHECK(f.offset == Approx(half[axis]));
  }
  CHECK_THAT(hull->boundsMin().y, Catch::Matchers::WithinAbs(-1.0, 1e-15));
  CHECK_THAT(hull->boundsMax().z, Catch::Matchers::WithinAbs(1.5, 1e-15));
}

TEST_CASE("hull merges coplanar points and drops edge, interior and duplicate points", "[hull]") {
  std::mt19937_64 rng(11);
  struct Variant {
    Real size;
    Real offset;
    bool rotate;
  };
  const Variant variants[] = {{1.0, 0.0, false}, {1.0, 0.0, true},  {1e-3, 0.0, true},
                              {1.0, 1e4, true},  {1e-3, 1e4, true}, {1e-3, -1e4, false}};
  for (const Variant& var : variants) {
    CAPTURE(var.size, var.offset, var.rotate);
    Quat q = var.rotate ? randomRotation(rng) : Quat(1, 0, 0, 0);
    Vec3 shift = var.offset * Vec3(0.6, -0.48, 0.64);
    auto points = clutteredBox(rng, var.size * Vec3(0.5, 0.3, 0.2));
    for (Vec3& p : points) p = q * p + shift;
    auto hull = ConvexHull::build(points);
    REQUIRE(hull.ok());
    checkBoxTopology(*hull, points);
  }
}

TEST_CASE("hull of a lattice: only the 8 corners survive", "[hull]") {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 4; ++trial) {
    Quat q = trial == 0 ? Quat(1, 0, 0, 0) : randomRotation(rng);
    Real size = trial == 3 ? 1e-3 : 1.0;
    Vec3 shift = trial >= 2 ? Vec3(-1e4, 5e3, 1e4) : Vec3(0.0);
    std::vector<Vec3> points;
    // Interior lattice points first, so the corners are not simply the first 8 indices.
    for (int i = 9; i >= 0; --i) {
      for (int j = 0; j < 10; ++j) {
        for (int k = 9; k >= 0; --k) {
          points.push_back(q * (size * Vec3(i / 9.0 - 0.5, j / 9.0 - 0.5, 0.6 * (k / 9.0))) +
                           shift);
        }
      }
    }
    CAPTURE(trial);
    auto hull = ConvexHull::build(points);
    REQUIRE(hull.ok());
    CHECK(hull->vertices().size() == 8);
    CHECK(hull->faces().size() == 6);
    CHECK(hull->edges().size() == 12);
    checkInvariants(*hull, points);
    CHECK_THAT(hull->massProperties(1.0).volume,
               Catch::Matchers::WithinRel(0.6 * size * size * size, 1e-9));
  }
}

TEST_CASE("hull invariants on random clouds", "[hull]") {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 60; ++trial) {
    size_t count = 4 + static_cast<size_t>(rng() % 300);
    Vec3 radii(uniform(rng, 0.2, 2.0), uniform(rng, 0.2, 2.0), uniform(rng, 0.2, 2.0));
    Real scale = (trial % 4 == 0) ? 1e-3 : 1.0;
    Vec3 shift = (trial % 3 == 0) ? 1e4 * unitVector(rng) : Vec3(0.0);
    std::vector<Vec3> points;
    Quat q = randomRotation(rng);
    for (size_t i = 0; i < count; ++i) {
      Vec3 p = unitVector(rng) * radii;
      if (trial % 2 == 1 && i % 3 == 0) p *= uniform(rng, 0.0, 1.0);  // interior points
      if (trial % 5 == 4 && i % 4 != 0) {
        // Clusters of points 1e-6 apart: sliver facets whose planes are hard to compute.
        Vec3 previous = glm::conjugate(q) * ((points.back() - shift) / scale);
        p = glm::normalize(previous + 1e-6 * unitVector(rng));
      }
      points.push_back(q * (scale * p) + shift);
    }
    CAPTURE(trial, count, scale, shift.x);
    auto hull = ConvexHull::build(points);
    REQUIRE(hull.ok());
    checkInvariants(*hull, points);
    checkCompleteness(*hull, points, rng);
  }
}

TEST_CASE("hull of a sphere with many near-coplanar points", "[hull]") {
  std::mt19937_64 rng(7);
  std::vector<Vec3> points;
  // A fine latitude-longitude grid: neighbouring quads are almost coplanar near the poles.
  for (int i = 0; i <= 40; ++i) {
    for (int j = 0; j < 48; ++j) {
      Real theta = 3.141592653589793 * i / 40.0;
      Real phi = 2.0 * 3.141592653589793 * j / 48.0;
      points.emplace_back(std::sin(theta) * std::cos(phi), std::cos(theta),
                          std::sin(theta) * std::sin(phi));
    }
  }
  auto hull = ConvexHull::build(points);
  REQUIRE(hull.ok());
  checkInvariants(*hull, points);
  checkCompleteness(*hull, points, rng);
  CHECK(hull->vertices().size() == 39 * 48 + 2);  // the repeated pole points collapse
}

TEST_CASE("hull errors say what is wrong", "[hull]") {
  auto message = [](std::vector<Vec3> pts) {
    auto hull = ConvexHull::build(pts);
    REQUIRE_FALSE(hull.ok());
    return hull.error();
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(message({}), Contains("empty"));
  Real nan = std::numeric_limits<Real>::quiet_NaN();
  Real inf = std::numeric_limits<Real>::infinity();
  CHECK_THAT(message({{0, 0, 0}, {1, 0, 0}, {0, nan, 0}, {0, 0, 1}}),
             Contains("point 2") && Contains("non-finite"));
  CHECK_THAT(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-inf, 0, 0}}),
             Contains("point 4"));
  CHECK_THAT(message({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), Contains("got 3 points"));
  CHECK_THAT(message(std::vector<Vec3>(10, Vec3(1e4, 2, 3))), Contains("coincident"));
  std::vector<Vec3> line, plane;
  for (int i = 0; i < 20; ++i) {
    line.push_back(Vec3(1, 2, 3) * (0.1 * i) + Vec3(1e4, 0, 0));
    plane.push_back(Vec3(i % 5, 0.5 * (i / 5), 0) + Vec3(0, 0, 1e4));
  }
  CHECK_THAT(message(line), Contains("collinear"));
  CHECK_THAT(message(plane), Contains("coplanar"));
}

TEST_CASE("thin but solid sets build, Qhull prints nothing", "[hull]") {
  std::mt19937_64 rng(5);
  std::vector<Vec3> slab;
  for (int i = 0; i < 200; ++i) {
    slab.emplace_back(uniform(rng, -1, 1), uniform(rng, -1, 1), 1e-7 * uniform(rng, -1, 1));
  }
  // Send our stdout and stderr to a file while Qhull works on a nearly flat input.
  std::fflush(stdout);
  std::fflush(stderr);
  char path[] = "/tmp/tumble_hull_quietXXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  int savedOut = dup(1), savedErr = dup(2);
  dup2(fd, 1);
  dup2(fd, 2);
  auto hull = ConvexHull::build(slab);
  std::vector<Vec3> plane(slab);
  for (Vec3& p : plane) p.z = 0.0;
  auto flat = ConvexHull::build(plane);
  // Straight to Qhull, past the builder's own checks: its error text comes back in the message.
  auto raw = detail::runQhull(plane, 0.0);
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(savedOut, 1);
  dup2(savedErr, 2);
  close(savedOut);
  close(savedErr);
  off_t written = lseek(fd, 0, SEEK_END);
  close(fd);
  unlink(path);
  CHECK(written == 0);
  REQUIRE(hull.ok());
  checkInvariants(*hull, slab);
  CHECK_FALSE(flat.ok());
  REQUIRE_FALSE(raw.ok());
  CHECK_THAT(raw.error(),
             Catch::Matchers::Contains("Qhull failed") && Catch::Matchers::Contains("QH6154"));
}

TEST_CASE("hull is deterministic and thread-safe", "[hull]") {
  std::mt19937_64 rng(99);
  std::vector<std::vector<Vec3>> clouds;
  for (int i = 0; i < 4; ++i) {
    clouds.push_back(tumble::test::ellipsoidPoints(rng, 500, Vec3(1.0, 0.7, 0.4)));
  }
  auto summary = [](const ConvexHull& h) {
    std::vector<Real> out;
    for (const HullFace& f : h.faces()) {
      for (int v : f.vertices) out.push_back(v);
      out.push_back(f.normal.x);
      out.push_back(f.offset);
    }
    for (int s : h.sourceIndices()) out.push_back(s);
    return out;
  };
  std::vector<std::vector<Real>> serial;
  for (const auto& c : clouds) serial.push_back(summary(*ConvexHull::build(c)));
  std::vector<std::vector<Real>> parallel(clouds.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < clouds.size(); ++i) {
    threads.emplace_back([&, i] {
      for (int rep = 0; rep < 3; ++rep) parallel[i] = summary(*ConvexHull::build(clouds[i]));
    });
  }
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < clouds.size(); ++i) {
    REQUIRE(serial[i].size() == parallel[i].size());
    for (size_t k = 0; k < serial[i].size(); ++k) {
      CHECK(std::memcmp(&serial[i][k], &parallel[i][k], sizeof(Real)) == 0);
    }
  }
}

TEST_CASE("the hull of a set scaled by a power of two is the same hull", "[hull]") {
  // Scaling by 2^k is exact, so the faces must be the same cycles with the same unit normals. At
  // 1e-79 m and below the products inside Qhull underflowed and the normals came out short.
  // The fuzz input that found it (regression-tiny-hull): 5e-79 m coordinates that differ by
  // 1e-84, and two subnormals.
  const fuzz::HullInput tiny = tumble::test::hullCase("regression-tiny-hull");
  REQUIRE(tiny.points.size() == 6);
  auto hull = ConvexHull::build(tiny.points);
  if (hull.ok()) {
    for (const HullFace& f : hull->faces()) CHECK(std::abs(glm::length(f.normal) - 1.0) < 1e-12);
  } else {
    CHECK_THAT(hull.error(), Catch::Matchers::Contains("points are"));
  }
  std::mt19937_64 rng(314);
  std::vector<Vec3> cloud = clutteredBox(rng, Vec3(0.5, 0.3, 0.2));
  for (int i = 0; i < 40; ++i) cloud.push_back(0.6 * unitVector(rng));
  auto reference = ConvexHull::build(cloud);
  REQUIRE(reference.ok());
  for (int k : {-520, -400, -262, -100, -1, 3, 100, 400, 500}) {
    CAPTURE(k);
    std::vector<Vec3> scaled(cloud);
    for (Vec3& p : scaled) p = Vec3(std::ldexp(p.x, k), std::ldexp(p.y, k), std::ldexp(p.z, k));
    auto same = ConvexHull::build(scaled);
    if (!same.ok()) {
      FAIL_CHECK(same.error());
      continue;
    }
    CHECK(same->sourceIndices() == reference->sourceIndices());
    REQUIRE(same->faces().size() == reference->faces().size());
    for (size_t f = 0; f < same->faces().size(); ++f) {
      const HullFace& a = same->faces()[f];
      const HullFace& b = reference->faces()[f];
      CHECK(a.vertices == b.vertices);
      CHECK(glm::length(a.normal - b.normal) <= 1e-14);
      CHECK(std::abs(glm::length(a.normal) - 1.0) < 1e-12);
      CHECK(std::ldexp(a.offset, -k) == Approx(b.offset).epsilon(1e-12));
    }
  }
}
