#pragma once
// Random convex pairs for the narrow-phase tests (GJK, EPA, the LP test and their cross-check).
//
// Representation (one choice, used everywhere): each set is given by LOCAL points plus a rigid
// Transform; `worldA()` / `worldB()` give the same sets as world-space points, for queries that
// want world points with identity transforms (the LP test, brute-force references, the collide
// file format). Every local set is centred near its own origin; the offset (up to 1e4) lives in
// the transforms, so a query that works relative to the pair keeps its precision.
//
// Families: boxes (8 corners), hulls of 4..512 points on ellipsoids, needles, slabs, triangles,
// segments, single points, clouds with interior and duplicate points, and flat polygons (coplanar
// sets). Pair sizes are log-uniform in [1e-3, 10], centres up to 1e4 from the origin, and B is
// placed at a random direction and a distance from A chosen so that roughly half of the pairs
// overlap. Deterministic from the seed: std::mt19937_64 with our own uniform mapping (the
// standard distributions are implementation-defined).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tumble/math.h"

namespace tumble::test {

enum class ShapeKind { Box, Ellipsoid, Needle, Slab, Triangle, Segment, Point, Cloud, Polygon };
inline constexpr int kShapeKindCount = 9;

inline const char* toString(ShapeKind k) {
  switch (k) {
    case ShapeKind::Box:
      return "box";
    case ShapeKind::Ellipsoid:
      return "ellipsoid";
    case ShapeKind::Needle:
      return "needle";
    case ShapeKind::Slab:
      return "slab";
    case ShapeKind::Triangle:
      return "triangle";
    case ShapeKind::Segment:
      return "segment";
    case ShapeKind::Point:
      return "point";
    case ShapeKind::Cloud:
      return "cloud";
    case ShapeKind::Polygon:
      return "polygon";
  }
  return "?";
}

/// Deterministic random numbers with a portable mapping.
class PairRng {
 public:
  explicit PairRng(uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1).
  Real uniform() { return static_cast<Real>(engine_() >> 11) * 0x1.0p-53; }
  Real uniform(Real lo, Real hi) { return lo + (hi - lo) * uniform(); }
  /// Log-uniform in [lo, hi], lo > 0.
  Real logUniform(Real lo, Real hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  /// Integer in [lo, hi].
  int integer(int lo, int hi) {
    return lo + static_cast<int>(engine_() % static_cast<uint64_t>(hi - lo + 1));
  }
  /// Uniform on the unit sphere (rejection from the cube).
  Vec3 unitVector() {
    for (;;) {
      Vec3 v{uniform(-1.0, 1.0), uniform(-1.0, 1.0), uniform(-1.0, 1.0)};
      Real l2 = glm::dot(v, v);
      if (l2 > 1e-4 && l2 <= 1.0) return v / std::sqrt(l2);
    }
  }
  /// Uniform in the unit ball.
  Vec3 inBall() {
    for (;;) {
      Vec3 v{uniform(-1.0, 1.0), uniform(-1.0, 1.0), uniform(-1.0, 1.0)};
      if (glm::dot(v, v) <= 1.0) return v;
    }
  }
  /// Uniform random rotation (rejection from the 4-cube, normalised).
  Quat rotation() {
    for (;;) {
      Real w = uniform(-1.0, 1.0), x = uniform(-1.0, 1.0), y = uniform(-1.0, 1.0),
           z = uniform(-1.0, 1.0);
      Real l2 = w * w + x * x + y * y + z * z;
      if (l2 > 1e-4 && l2 <= 1.0) {
        Real s = 1.0 / std::sqrt(l2);
        return Quat{w * s, x * s, y * s, z * s};
      }
    }
  }
  std::mt19937_64& engine() { return engine_; }

 private:
  std::mt19937_64 engine_;
};

/// One pair: local points and transforms (see the file comment).
struct ConvexPair {
  ShapeKind kindA = ShapeKind::Box;
  ShapeKind kindB = ShapeKind::Box;
  std::vector<Vec3> a;  ///< local points of A (at least 1)
  std::vector<Vec3> b;  ///< local points of B (at least 1)
  Transform xa;
  Transform xb;
  Real scale = 1.0;  ///< size of the pair: the larger bounding radius of the two sets, m

  std::vector<Vec3> worldA() const { return toWorld(a, xa); }
  std::vector<Vec3> worldB() const { return toWorld(b, xb); }
  std::string name() const { return std::string(toString(kindA)) + "-" + toString(kindB); }

  static std::vector<Vec3> toWorld(const std::vector<Vec3>& pts, const Transform& x) {
    std::vector<Vec3> out;
    out.reserve(pts.size());
    for (const Vec3& p : pts) out.push_back(x.apply(p));
    return out;
  }
};

/// Local points of one shape of the given kind and size (about `size` in its largest extent).
/// `ellipsoidPoints` > 0 fixes the point count of an ellipsoid hull, otherwise 4..512.
inline std::vector<Vec3> makeShape(PairRng& rng, ShapeKind kind, Real size,
                                   int ellipsoidPoints = 0) {
  std::vector<Vec3> pts;
  switch (kind) {
    case ShapeKind::Box: {
      Vec3 h{size * rng.uniform(0.3, 1.0), size * rng.uniform(0.3, 1.0),
             size * rng.uniform(0.3, 1.0)};
      for (int i = 0; i < 8; ++i)
        pts.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
      break;
    }
    case ShapeKind::Ellipsoid: {
      int n = ellipsoidPoints > 0
                  ? ellipsoidPoints
                  : std::clamp(static_cast<int>(std::lround(rng.logUniform(4.0, 512.0))), 4, 512);
      Vec3 r{size * rng.uniform(0.3, 1.0), size * rng.uniform(0.3, 1.0),
             size * rng.uniform(0.3, 1.0)};
      for (int i = 0; i < n; ++i) pts.push_back(rng.unitVector() * r);
      break;
    }
    case ShapeKind::Needle: {
      // A long thin set: points along an axis with a small lateral spread.
      int n = rng.integer(2, 12);
      Real thin = size * rng.logUniform(1e-4, 2e-2);
      for (int i = 0; i < n; ++i) {
        Real t = rng.uniform(-1.0, 1.0) * size;
        pts.push_back({t, thin * rng.uniform(-1.0, 1.0), thin * rng.uniform(-1.0, 1.0)});
      }
      pts.push_back({size, 0.0, 0.0});
      pts.push_back({-size, 0.0, 0.0});
      break;
    }
    case ShapeKind::Slab: {
      Real t = size * rng.logUniform(1e-3, 3e-2);
      Vec3 h{size * rng.uniform(0.5, 1.0), size * rng.uniform(0.5, 1.0), t};
      for (int i = 0; i < 8; ++i)
        pts.push_back({(i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z});
      break;
    }
    case ShapeKind::Triangle:
      for (int i = 0; i < 3; ++i) pts.push_back(rng.inBall() * size);
      break;
    case ShapeKind::Segment:
      for (int i = 0; i < 2; ++i) pts.push_back(rng.inBall() * size);
      break;
    case ShapeKind::Point:
      pts.push_back(rng.inBall() * (0.1 * size));
      break;
    case ShapeKind::Cloud: {
      // Interior points and exact duplicates: the hull is a subset of the points.
      int n = rng.integer(5, 64);
      for (int i = 0; i < n; ++i) pts.push_back(rng.inBall() * size);
      int dups = rng.integer(0, 3);
      for (int i = 0; i < dups; ++i) pts.push_back(pts[static_cast<size_t>(rng.integer(0, n - 1))]);
      break;
    }
    case ShapeKind::Polygon: {
      // Coplanar points on an ellipse plus interior points of the same plane.
      int n = rng.integer(4, 16);
      Real rx = size * rng.uniform(0.3, 1.0), ry = size * rng.uniform(0.3, 1.0);
      for (int i = 0; i < n; ++i) {
        Real ang = rng.uniform(0.0, 6.283185307179586);
        Real s = (i % 3 == 2) ? rng.uniform(0.0, 1.0) : 1.0;
        pts.push_back({s * rx * std::cos(ang), s * ry * std::sin(ang), 0.0});
      }
      break;
    }
  }
  return pts;
}

/// Largest distance of a local point from the local origin.
inline Real boundingRadius(const std::vector<Vec3>& pts) {
  Real r = 0.0;
  for (const Vec3& p : pts) r = std::max(r, glm::length(p));
  return r;
}

/// Generator of pairs; the same seed gives the same sequence on every platform.
class PairGenerator {
 public:
  explicit PairGenerator(uint64_t seed) : rng_(seed) {}

  /// A pair of two random kinds (volumetric kinds are drawn more often than flat ones).
  ConvexPair next() { return next(randomKind(), randomKind()); }

  /// A pair of the given kinds. `overlapBias` in [0, 1] moves B towards A (0: uniform placement
  /// up to 1.15x the sum of bounding radii; 1: centres coincide).
  ConvexPair next(ShapeKind ka, ShapeKind kb, int ellipsoidPointsA = 0, int ellipsoidPointsB = 0) {
    ConvexPair p;
    p.kindA = ka;
    p.kindB = kb;
    Real size = rng_.logUniform(1e-3, 10.0);
    p.a = makeShape(rng_, ka, size * rng_.logUniform(0.5, 2.0), ellipsoidPointsA);
    p.b = makeShape(rng_, kb, size * rng_.logUniform(0.5, 2.0), ellipsoidPointsB);
    Vec3 centre{0.0};
    if (rng_.uniform() < 0.75) centre = rng_.unitVector() * rng_.logUniform(1.0, 1e4);
    Real ra = boundingRadius(p.a), rb = boundingRadius(p.b);
    p.scale = std::max(ra, rb);
    p.xa.position = centre;
    p.xa.rotation = rng_.rotation();
    // Lower-dimensional sets hit only when they pass close to the other set: place them nearer.
    Real reach = placementReach(ka, kb);
    p.xb.position = centre + rng_.unitVector() * (rng_.uniform(0.0, reach) * (ra + rb));
    p.xb.rotation = rng_.rotation();
    return p;
  }

  ShapeKind randomKind() {
    // Weights: volumetric kinds 3, flat and lower-dimensional kinds 1.
    static constexpr ShapeKind kTable[] = {
        ShapeKind::Box,       ShapeKind::Box,       ShapeKind::Box,    ShapeKind::Ellipsoid,
        ShapeKind::Ellipsoid, ShapeKind::Ellipsoid, ShapeKind::Cloud,  ShapeKind::Cloud,
        ShapeKind::Cloud,     ShapeKind::Needle,    ShapeKind::Slab,   ShapeKind::Triangle,
        ShapeKind::Segment,   ShapeKind::Point,     ShapeKind::Polygon};
    constexpr int n = static_cast<int>(sizeof(kTable) / sizeof(kTable[0]));
    return kTable[rng_.integer(0, n - 1)];
  }

  PairRng& rng() { return rng_; }

 private:
  static bool volumetric(ShapeKind k) {
    return k == ShapeKind::Box || k == ShapeKind::Ellipsoid || k == ShapeKind::Cloud;
  }
  static Real placementReach(ShapeKind ka, ShapeKind kb) {
    int flat = (volumetric(ka) ? 0 : 1) + (volumetric(kb) ? 0 : 1);
    return flat == 0 ? 1.15 : (flat == 1 ? 0.8 : 0.5);
  }

  PairRng rng_;
};

/// A pair of random kinds with 4..24 points each, so that D = A - B stays a few thousand points
/// (the Minkowski references of the GJK and EPA tests).
inline ConvexPair smallPair(PairGenerator& gen) {
  ShapeKind ka = gen.randomKind(), kb = gen.randomKind();
  return gen.next(ka, kb, gen.rng().integer(4, 24), gen.rng().integer(4, 24));
}

}  // namespace tumble::test
