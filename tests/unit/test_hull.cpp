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

#include "geometry/qhull_backend.h"
#include "geometry_test_util.h"
#include "tumble/hull.h"

using namespace tumble;
using tumble::test::randomRotation;
using tumble::test::uniform;
using tumble::test::unitVector;

namespace {

std::vector<Vec3> boxCorners(const Vec3& half) {
  std::vector<Vec3> out;
  for (int i = 0; i < 8; ++i) {
    out.emplace_back((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                     (i & 4) ? half.z : -half.z);
  }
  return out;
}

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

TEST_CASE("thin but solid sets build; Qhull prints nothing", "[hull]") {
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

namespace {

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

void checkMatrix(const Mat3& got, const Mat3& want, Real tol) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) {
      CAPTURE(c, r);
      CHECK_THAT(got[c][r], WithinAbs(want[c][r], tol));
    }
  }
}

Mat3 rotationMatrix(const Quat& q) {
  return glm::mat3_cast(q);
}

}  // namespace

TEST_CASE("mass properties of boxes, axis-aligned and rotated", "[hull][mass]") {
  const Vec3 half(0.5, 1.0, 1.5);
  const Real density = 2.0;
  const Real mass = density * 8.0 * half.x * half.y * half.z;
  Mat3 diag(0.0);
  diag[0][0] = mass * (half.y * half.y + half.z * half.z) / 3.0;
  diag[1][1] = mass * (half.x * half.x + half.z * half.z) / 3.0;
  diag[2][2] = mass * (half.x * half.x + half.y * half.y) / 3.0;
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 6; ++trial) {
    Quat q = trial == 0 ? Quat(1, 0, 0, 0) : randomRotation(rng);
    Vec3 shift = trial < 2 ? Vec3(0.0) : Vec3(3.0, -1.0, 2.0) * std::pow(10.0, trial - 2);
    auto points = boxCorners(half);
    for (Vec3& p : points) p = q * p + shift;
    auto hull = ConvexHull::build(points);
    REQUIRE(hull.ok());
    MassProperties mp = hull->massProperties(density);
    CAPTURE(trial);
    Real scaleTol = 1e-12 * (1.0 + glm::length(shift));
    CHECK_THAT(mp.volume, WithinRel(6.0, 1e-12));
    CHECK_THAT(mp.mass, WithinRel(mass, 1e-12));
    for (int k = 0; k < 3; ++k) CHECK_THAT(mp.centerOfMass[k], WithinAbs(shift[k], scaleTol));
    Mat3 r = rotationMatrix(q);
    checkMatrix(mp.inertia, r * diag * glm::transpose(r), 1e-9 * (1.0 + glm::length(shift)));
  }
}

TEST_CASE("mass properties of tetrahedra against the closed form", "[hull][mass]") {
  // The corner tetrahedron by hand: V = 1/6, c = 1/4, Ixx = 1/80, Ixy = +1/480 (per unit density).
  std::vector<Vec3> corner = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  MassProperties mp = ConvexHull::build(corner)->massProperties(1.0);
  CHECK_THAT(mp.volume, WithinRel(1.0 / 6.0, 1e-14));
  for (int k = 0; k < 3; ++k) CHECK_THAT(mp.centerOfMass[k], WithinAbs(0.25, 1e-15));
  CHECK_THAT(mp.inertia[0][0], WithinRel(1.0 / 80.0, 1e-13));
  CHECK_THAT(mp.inertia[1][0], WithinRel(1.0 / 480.0, 1e-12));
  CHECK_THAT(mp.inertia[2][1], WithinRel(1.0 / 480.0, 1e-12));

  // Random tetrahedra: integral of x x^T = V/20 (sum p p^T + S S^T), S = sum p (Tonon 2004),
  // taken about the origin with no fan or reference point.
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Vec3> p;
    for (int i = 0; i < 4; ++i) {
      p.emplace_back(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    }
    Real volume = std::abs(glm::dot(p[1] - p[0], glm::cross(p[2] - p[0], p[3] - p[0]))) / 6.0;
    if (volume < 1e-3) continue;
    Vec3 sum = p[0] + p[1] + p[2] + p[3];
    Mat3 second = glm::outerProduct(sum, sum);
    for (const Vec3& v : p) second += glm::outerProduct(v, v);
    second *= volume / 20.0;
    Vec3 c = sum / 4.0;
    Mat3 cov = second - volume * glm::outerProduct(c, c);
    Real tr = cov[0][0] + cov[1][1] + cov[2][2];
    const Real density = 3.5;
    Mat3 inertia = density * (Mat3(tr) - cov);
    auto hull = ConvexHull::build(p);
    REQUIRE(hull.ok());
    MassProperties got = hull->massProperties(density);
    CAPTURE(trial);
    CHECK_THAT(got.volume, WithinRel(volume, 1e-11));
    for (int k = 0; k < 3; ++k) CHECK_THAT(got.centerOfMass[k], WithinAbs(c[k], 1e-12));
    checkMatrix(got.inertia, inertia, 1e-12);
  }
}

TEST_CASE("mass properties obey the parallel-axis theorem", "[hull][mass]") {
  // A box cut into two unequal boxes: combining the halves with the parallel-axis theorem must
  // give the whole. All three are rotated and moved the same way.
  std::mt19937_64 rng(23);
  Quat q = randomRotation(rng);
  Vec3 shift(12.0, -7.0, 3.0);
  auto boxAt = [&](const Vec3& lo, const Vec3& hi) {
    std::vector<Vec3> pts;
    for (int i = 0; i < 8; ++i) {
      Vec3 p((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
      pts.push_back(q * p + shift);
    }
    return ConvexHull::build(pts)->massProperties(1.7);
  };
  MassProperties whole = boxAt(Vec3(-0.4, -0.3, -0.2), Vec3(0.6, 0.3, 0.2));
  MassProperties left = boxAt(Vec3(-0.4, -0.3, -0.2), Vec3(-0.1, 0.3, 0.2));
  MassProperties right = boxAt(Vec3(-0.1, -0.3, -0.2), Vec3(0.6, 0.3, 0.2));
  CHECK_THAT(left.mass + right.mass, WithinRel(whole.mass, 1e-12));
  auto shifted = [&](const MassProperties& part) {
    Vec3 d = part.centerOfMass - whole.centerOfMass;
    return part.inertia + part.mass * (Mat3(glm::dot(d, d)) - glm::outerProduct(d, d));
  };
  checkMatrix(shifted(left) + shifted(right), whole.inertia, 1e-10);
  // Translating a hull leaves its inertia about the centre of mass unchanged.
  auto cloud = tumble::test::ellipsoidPoints(rng, 60, Vec3(0.9, 0.5, 0.3));
  MassProperties here = ConvexHull::build(cloud)->massProperties(1.0);
  for (Vec3& p : cloud) p += Vec3(1e3, 2e3, -5e2);
  MassProperties there = ConvexHull::build(cloud)->massProperties(1.0);
  CHECK_THAT(there.volume, WithinRel(here.volume, 1e-9));
  for (int k = 0; k < 3; ++k) {
    CHECK_THAT(there.centerOfMass[k] - Vec3(1e3, 2e3, -5e2)[k],
               WithinAbs(here.centerOfMass[k], 1e-10));
  }
  checkMatrix(there.inertia, here.inertia, 1e-9);
}

TEST_CASE("mass properties of a random hull agree with Monte Carlo", "[hull][mass]") {
  std::mt19937_64 rng(31);
  Quat q = randomRotation(rng);
  std::vector<Vec3> points;
  for (int i = 0; i < 50; ++i) {
    Vec3 p = unitVector(rng) * Vec3(0.9, 0.6, 0.4) * (i % 5 == 0 ? 0.5 : 1.0);
    points.push_back(q * p + Vec3(0.2, -0.1, 0.3));
  }
  auto hull = ConvexHull::build(points);
  REQUIRE(hull.ok());
  MassProperties mp = hull->massProperties(1.0);
  const Vec3 lo = hull->boundsMin(), hi = hull->boundsMax();
  const Real boxVolume = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
  const Vec3 c = mp.centerOfMass;
  // Estimate the integrals of 1, x, y, z and the six covariance terms as box volume times the
  // sample mean of (inside ? f : 0); the tolerance is 5 standard errors of that mean.
  constexpr int kSamples = 400000;
  constexpr int kTerms = 10;
  double sum[kTerms] = {}, sumSq[kTerms] = {};
  for (int s = 0; s < kSamples; ++s) {
    Vec3 p(uniform(rng, lo.x, hi.x), uniform(rng, lo.y, hi.y), uniform(rng, lo.z, hi.z));
    bool inside = true;
    for (const HullFace& f : hull->faces()) {
      if (glm::dot(f.normal, p) > f.offset) {
        inside = false;
        break;
      }
    }
    if (!inside) continue;
    Vec3 d = p - c;
    const double f[kTerms] = {1.0,       p.x,       p.y,       p.z,       d.x * d.x,
                              d.y * d.y, d.z * d.z, d.x * d.y, d.x * d.z, d.y * d.z};
    for (int k = 0; k < kTerms; ++k) {
      sum[k] += f[k];
      sumSq[k] += f[k] * f[k];
    }
  }
  double estimate[kTerms], tolerance[kTerms];
  for (int k = 0; k < kTerms; ++k) {
    double mean = sum[k] / kSamples;
    double var = sumSq[k] / kSamples - mean * mean;
    estimate[k] = boxVolume * mean;
    tolerance[k] = 5.0 * boxVolume * std::sqrt(var / kSamples);
  }
  CHECK_THAT(mp.volume, WithinAbs(estimate[0], tolerance[0]));
  for (int k = 0; k < 3; ++k) {
    CHECK_THAT(mp.volume * c[k], WithinAbs(estimate[1 + k], tolerance[1 + k]));
  }
  // I = trace(C) Id - C with C the covariance integrals.
  CHECK_THAT(mp.inertia[0][0], WithinAbs(estimate[5] + estimate[6], tolerance[5] + tolerance[6]));
  CHECK_THAT(mp.inertia[1][1], WithinAbs(estimate[4] + estimate[6], tolerance[4] + tolerance[6]));
  CHECK_THAT(mp.inertia[2][2], WithinAbs(estimate[4] + estimate[5], tolerance[4] + tolerance[5]));
  CHECK_THAT(mp.inertia[1][0], WithinAbs(-estimate[7], tolerance[7]));
  CHECK_THAT(mp.inertia[2][0], WithinAbs(-estimate[8], tolerance[8]));
  CHECK_THAT(mp.inertia[2][1], WithinAbs(-estimate[9], tolerance[9]));
  // The estimate is informative: the tolerance is a small fraction of the value.
  CHECK(tolerance[0] < 0.02 * mp.volume);
}
