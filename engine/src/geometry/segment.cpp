// Segment-segment closest points, following the chain page (after Dan Sunday, "Distance between
// 3D lines and segments"): minimise f(s,t) = |a(s) - b(t)|^2 on the unit square. The unconstrained
// minimum comes from the 2x2 normal equations by Cramer's rule; when it falls outside the square,
// or the lines are parallel (determinant ~ 0), the minimum lies on one of the square's four
// edges, each a clamped 1D minimisation. Distances are measured from the points themselves.
#include "tumble/segment.h"

#include <algorithm>

namespace tumble {
namespace {

Real clamp01(Real x) {
  return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
}

void consider(SegmentClosest& best, bool& have, const Vec3& a0, const Vec3& u, const Vec3& b0,
              const Vec3& v, Real s, Real t) {
  const Vec3 pa = a0 + s * u;
  const Vec3 pb = b0 + t * v;
  const Vec3 d = pa - pb;
  const Real d2 = glm::dot(d, d);
  if (!have || d2 < best.distance) {
    best.distance = d2;  // squared until the end
    best.s = s;
    best.t = t;
    best.pointA = pa;
    best.pointB = pb;
    have = true;
  }
}

}  // namespace

SegmentClosest closestPointsSegmentSegment(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                           const Vec3& b1) {
  const Vec3 u = a1 - a0;  // a(s) = a0 + s u
  const Vec3 v = b1 - b0;  // b(t) = b0 + t v (the page's v has the opposite sign)
  const Vec3 w = b0 - a0;
  const Real uu = glm::dot(u, u);
  const Real vv = glm::dot(v, v);
  const Real uv = glm::dot(u, v);
  const Real uw = glm::dot(u, w);
  const Real vw = glm::dot(v, w);

  SegmentClosest best;
  bool have = false;
  // Zero-length segments: a point against a segment (or a point).
  if (uu <= 0.0 && vv <= 0.0) {
    consider(best, have, a0, u, b0, v, 0.0, 0.0);
  } else if (uu <= 0.0) {
    consider(best, have, a0, u, b0, v, 0.0, clamp01(-vw / vv));
  } else if (vv <= 0.0) {
    consider(best, have, a0, u, b0, v, clamp01(uw / uu), 0.0);
  } else {
    // Normal equations: [uu -uv; uv -vv] [s t]^T = [uw vw]^T with b(t) = b0 + t v, i.e.
    // s uu - t uv = uw and s uv - t vv = vw. Determinant (up to sign) = uu vv - uv^2 = |u x v|^2.
    const Real det = uu * vv - uv * uv;
    // Relative threshold: below it the lines are parallel for the precision at hand.
    if (det > 1e-12 * uu * vv) {
      const Real s = (uw * vv - uv * vw) / det;
      const Real t = (uv * uw - uu * vw) / det;
      if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) {
        consider(best, have, a0, u, b0, v, s, t);
        best.distance = std::sqrt(best.distance);
        return best;
      }
    }
    // The minimum is on an edge of the square (or the segments are parallel: f is then
    // minimal along a whole line, which meets the boundary too). Four clamped candidates.
    consider(best, have, a0, u, b0, v, 0.0, clamp01(-vw / vv));        // s = 0
    consider(best, have, a0, u, b0, v, 1.0, clamp01((uv - vw) / vv));  // s = 1
    consider(best, have, a0, u, b0, v, clamp01(uw / uu), 0.0);         // t = 0
    consider(best, have, a0, u, b0, v, clamp01((uw + uv) / uu), 1.0);  // t = 1
  }
  best.distance = std::sqrt(best.distance);
  return best;
}

Real segmentDistance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  return closestPointsSegmentSegment(a0, a1, b0, b1).distance;
}

}  // namespace tumble
