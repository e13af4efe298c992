#pragma once
// The GJK distance sub-algorithm: the point of a simplex (1 to 4 points) closest to the origin,
// with its barycentric coordinates and the smallest sub-simplex that holds it.
//
// Signed volumes: Montanari, Petrinic, Barbieri 2017, "Improving the GJK algorithm for faster and
// more reliable distance queries between convex objects", ACM TOG 36(3), sec. 3 (S1D, S2D, S3D).
// The barycentric numerators are signed volumes of the simplex with one vertex replaced by the
// origin (or, for a triangle, by the origin's projection onto its plane); a sign that disagrees
// with the whole simplex's volume sends the search to the facet opposite that vertex. A degenerate
// simplex (duplicate, collinear or coplanar points) has no reliable volume: every facet is
// searched instead, so no division by a vanishing volume ever happens.
#include "tumble/math.h"

namespace tumble::detail {

/// Closest point of a simplex to the origin. lambda[i] > 0 exactly for the kept vertices (bit i of
/// `mask`), they sum to 1, and v = sum lambda[i] w[i] (computed more accurately where possible).
struct SubSimplex {
  Vec3 v{0.0};
  Real lambda[4];  ///< meaningful for the kept vertices only
  unsigned mask = 0;
};

// sin^2 of the smallest angle (triangle) or normalised volume^2 (tetrahedron) below which a
// simplex counts as degenerate.
inline constexpr Real kDegenerateTriangle2 = 1e-24;
inline constexpr Real kDegenerateTetrahedron2 = 1e-24;
// Absolute floor on squared normals, far below any size the engine handles (1e-3 m and up), so
// that 1/nn cannot overflow.
inline constexpr Real kTinyNormal2 = 1e-200;

inline void sv0(const Vec3* w, int i, SubSimplex& out) {
  out.v = w[i];
  out.lambda[i] = 1.0;
  out.mask = 1u << i;
}

// S1D: segment w[i0] w[i1].
inline void sv1(const Vec3* w, int i0, int i1, SubSimplex& out) {
  Vec3 t = w[i1] - w[i0];
  Real tt = glm::dot(t, t);
  Real s = -glm::dot(w[i0], t);
  if (!(tt > 0.0) || s <= 0.0) return sv0(w, i0, out);
  if (s >= tt) return sv0(w, i1, out);
  Real u = s / tt;
  out.lambda[i0] = 1.0 - u;
  out.lambda[i1] = u;
  out.mask = (1u << i0) | (1u << i1);
  out.v = w[i0] + u * t;
}

inline Real norm2(const Vec3& v) {
  return glm::dot(v, v);
}

// S2D: triangle w[i0] w[i1] w[i2].
inline void sv2(const Vec3* w, int i0, int i1, int i2, SubSimplex& out) {
  const Vec3& a = w[i0];
  const Vec3& b = w[i1];
  const Vec3& c = w[i2];
  Vec3 e1 = b - a;
  Vec3 e2 = c - a;
  Vec3 n = glm::cross(e1, e2);
  Real nn = glm::dot(n, n);
  bool degenerate = !(nn > kTinyNormal2) || nn <= kDegenerateTriangle2 * norm2(e1) * norm2(e2);
  bool visit[3] = {true, true, true};  // edge opposite vertex j
  if (!degenerate) {
    // Projection of the origin onto the plane; the numerators use differences to it, which stay
    // small when the triangle is far from the origin.
    Vec3 p0 = n * (glm::dot(n, a) / nn);
    Vec3 ap = a - p0, bp = b - p0, cp = c - p0;
    Real c0 = glm::dot(n, glm::cross(bp, cp));
    Real c1 = glm::dot(n, glm::cross(cp, ap));
    Real c2 = glm::dot(n, glm::cross(ap, bp));
    if (c0 > 0.0 && c1 > 0.0 && c2 > 0.0) {
      Real sum = c0 + c1 + c2;
      out.lambda[i0] = c0 / sum;
      out.lambda[i1] = c1 / sum;
      out.lambda[i2] = c2 / sum;
      out.mask = (1u << i0) | (1u << i1) | (1u << i2);
      out.v = p0;
      return;
    }
    visit[0] = !(c0 > 0.0);
    visit[1] = !(c1 > 0.0);
    visit[2] = !(c2 > 0.0);
  }
  const int idx[3] = {i0, i1, i2};
  bool have = false;
  Real best = 0.0;
  for (int j = 0; j < 3; ++j) {
    if (!visit[j]) continue;
    SubSimplex cand;
    sv1(w, idx[(j + 1) % 3], idx[(j + 2) % 3], cand);
    Real d = norm2(cand.v);
    if (!have || d < best) {
      best = d;
      out = cand;
      have = true;
    }
  }
}

inline bool sameSign(Real a, Real b) {
  return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

// S3D: tetrahedron w[0..3].
inline void sv3(const Vec3* w, SubSimplex& out) {
  Vec3 e1 = w[1] - w[0];
  Vec3 e2 = w[2] - w[0];
  Vec3 e3 = w[3] - w[0];
  Vec3 c23 = glm::cross(e2, e3);
  Real det = glm::dot(e1, c23);
  Real scale2 = norm2(e1) * norm2(e2) * norm2(e3);
  bool degenerate = !(det * det > kDegenerateTetrahedron2 * scale2) || det == 0.0;
  bool visit[4] = {true, true, true, true};  // face opposite vertex j
  if (!degenerate) {
    // Volumes with vertex j replaced by the origin (Cramer's rule on [w; 1] lambda = [0; 1]).
    Vec3 m0 = -w[0];
    Real c1 = glm::dot(m0, c23);
    Real c2 = glm::dot(e1, glm::cross(m0, e3));
    Real c3 = glm::dot(e1, glm::cross(e2, m0));
    Real c0 = det - c1 - c2 - c3;
    if (sameSign(det, c0) && sameSign(det, c1) && sameSign(det, c2) && sameSign(det, c3)) {
      out.lambda[0] = c0 / det;
      out.lambda[1] = c1 / det;
      out.lambda[2] = c2 / det;
      out.lambda[3] = c3 / det;
      out.mask = 15u;
      out.v = Vec3{0.0};
      return;
    }
    visit[0] = !sameSign(det, c0);
    visit[1] = !sameSign(det, c1);
    visit[2] = !sameSign(det, c2);
    visit[3] = !sameSign(det, c3);
  }
  static constexpr int kFace[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  bool have = false;
  Real best = 0.0;
  for (int j = 0; j < 4; ++j) {
    if (!visit[j]) continue;
    SubSimplex cand;
    sv2(w, kFace[j][0], kFace[j][1], kFace[j][2], cand);
    Real d = norm2(cand.v);
    if (!have || d < best) {
      best = d;
      out = cand;
      have = true;
    }
  }
}

/// Dispatch on the simplex size (1 to 4 points, w[0..count)).
inline void closestOnSimplex(const Vec3* w, int count, SubSimplex& out) {
  switch (count) {
    case 1:
      sv0(w, 0, out);
      break;
    case 2:
      sv1(w, 0, 1, out);
      break;
    case 3:
      sv2(w, 0, 1, 2, out);
      break;
    default:
      sv3(w, out);
      break;
  }
}

}  // namespace tumble::detail
