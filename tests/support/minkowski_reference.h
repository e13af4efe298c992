#pragma once
// Independent reference for GJK and EPA tests: the Minkowski difference D = {a - b} of two small
// point sets, its convex hull by Qhull (reentrant API), and from it
//  - the verdict: 0 strictly inside every facet plane;
//  - the depth: the least facet-plane distance to 0, with that facet's outward normal;
//  - the distance when separated: min over the hull's triangles of the point-triangle distance
//    (Ericson, Real-Time Collision Detection, 5.1.5: Voronoi regions, not signed volumes).
// Flat or lower-dimensional D (Qhull cannot build it) falls back to brute force over all triples
// of D, with depth 0.
#include <libqhull_r/qhull_ra.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

#include "fp_traps.h"
#include "tumble/math.h"

namespace tumble::test {

/// Closest point of triangle abc to p (Ericson 5.1.5).
inline Vec3 closestPointTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  Vec3 ab = b - a, ac = c - a, ap = p - a;
  Real d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  Vec3 bp = p - b;
  Real d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  Real vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    Real den = d1 - d3;
    return den > 0.0 ? a + (d1 / den) * ab : a;
  }
  Vec3 cp = p - c;
  Real d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  Real vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    Real den = d2 - d6;
    return den > 0.0 ? a + (d2 / den) * ac : a;
  }
  Real va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    Real den = (d4 - d3) + (d5 - d6);
    return den > 0.0 ? b + ((d4 - d3) / den) * (c - b) : b;
  }
  Real sum = va + vb + vc;
  if (!(sum > 0.0)) {
    // Degenerate triangle: the best of its three edges.
    auto seg = [&](const Vec3& s0, const Vec3& s1) {
      Vec3 t = s1 - s0;
      Real tt = glm::dot(t, t);
      Real u = tt > 0.0 ? std::clamp(glm::dot(p - s0, t) / tt, 0.0, 1.0) : 0.0;
      return s0 + u * t;
    };
    Vec3 q[3] = {seg(a, b), seg(b, c), seg(c, a)};
    Vec3 best = q[0];
    for (const Vec3& x : q)
      if (glm::dot(x - p, x - p) < glm::dot(best - p, best - p)) best = x;
    return best;
  }
  Real v = vb / sum, w = vc / sum;
  return a + ab * v + ac * w;
}

struct MinkowskiReference {
  bool flat = false;    ///< D has no volume (Qhull failed)
  bool inside = false;  ///< 0 strictly inside conv(D)
  Real distance = 0.0;  ///< separated: distance from 0 to conv(D)
  Real depth = 0.0;     ///< inside: least facet distance
  Vec3 normal{0.0};     ///< inside: outward normal of that facet (from A towards B)
  Vec3 closest{0.0};    ///< separated: closest point of conv(D) to 0
};

inline MinkowskiReference minkowskiReference(const std::vector<Vec3>& a,
                                             const std::vector<Vec3>& b) {
  std::vector<Vec3> d;
  d.reserve(a.size() * b.size());
  for (const Vec3& pa : a)
    for (const Vec3& pb : b) d.push_back(pa - pb);
  MinkowskiReference r;
  std::vector<coordT> coords;
  for (const Vec3& p : d) {
    coords.push_back(p.x);
    coords.push_back(p.y);
    coords.push_back(p.z);
  }
  std::vector<Vec3> tris;
  bool ok = false;
  Real minDepth = std::numeric_limits<Real>::max();
  bool allNegative = true;
  if (d.size() >= 4) {
    FpTrapsOff traps;
    qhT qhStorage;
    qhT* qh = &qhStorage;
    FILE* devnull = std::fopen("/dev/null", "w");
    qh_zero(qh, devnull);
    char options[] = "qhull Qt";
    int exitcode = qh_new_qhull(qh, 3, static_cast<int>(d.size()), coords.data(), False, options,
                                nullptr, devnull);
    if (exitcode == 0) {
      ok = true;
      facetT* facet;
      FORALLfacets {
        Vec3 n{facet->normal[0], facet->normal[1], facet->normal[2]};
        Real off = facet->offset;  // plane: n.x + off = 0, interior n.x + off < 0
        if (!(off < 0.0)) allNegative = false;
        if (-off < minDepth) {
          minDepth = -off;
          r.normal = n;
        }
        vertexT* vertex;
        vertexT** vertexp;
        int k = 0;
        Vec3 tri[3];
        FOREACHvertex_(facet->vertices) {
          if (k < 3) tri[k] = Vec3{vertex->point[0], vertex->point[1], vertex->point[2]};
          ++k;
        }
        if (k >= 3) {
          tris.push_back(tri[0]);
          tris.push_back(tri[1]);
          tris.push_back(tri[2]);
        }
      }
    }
    qh_freeqhull(qh, !qh_ALL);
    int curlong, totlong;
    qh_memfreeshort(qh, &curlong, &totlong);
    std::fclose(devnull);
  }
  if (!ok) {
    r.flat = true;
    // Brute force over every point, pair and triple of D.
    size_t n = d.size();
    Real best = std::numeric_limits<Real>::max();
    auto consider = [&](const Vec3& q) {
      Real l2 = glm::dot(q, q);
      if (l2 < best) {
        best = l2;
        r.closest = q;
      }
    };
    for (size_t i = 0; i < n; ++i) {
      consider(d[i]);
      for (size_t j = i + 1; j < n; ++j) {
        consider(closestPointTriangle(Vec3{0.0}, d[i], d[j], d[j]));
        for (size_t k = j + 1; k < n; ++k)
          consider(closestPointTriangle(Vec3{0.0}, d[i], d[j], d[k]));
      }
    }
    r.distance = std::sqrt(best);
    r.inside = false;
    return r;
  }
  r.inside = allNegative;
  if (r.inside) {
    r.depth = minDepth;
    return r;
  }
  Real best = std::numeric_limits<Real>::max();
  for (size_t t = 0; t + 2 < tris.size(); t += 3) {
    Vec3 q = closestPointTriangle(Vec3{0.0}, tris[t], tris[t + 1], tris[t + 2]);
    if (glm::dot(q, q) < best) {
      best = glm::dot(q, q);
      r.closest = q;
    }
  }
  r.distance = std::sqrt(best);
  return r;
}

}  // namespace tumble::test
