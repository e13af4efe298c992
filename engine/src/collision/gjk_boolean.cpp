// Boolean GJK: is the origin in A - B? Only the search direction is kept (no barycentric
// coordinates, no closest point): the simplex update classifies the origin against the newest
// point's features with signs of dot products and returns a direction towards it, perpendicular to
// the feature that faces it (Muratori, "Implementing GJK", 2006; van den Bergen 2003, sec. 4.3.7
// for the separating-axis exit). Every exit is a certificate:
//  - Separated: a direction d whose support point w has w.d < 0, i.e. the plane through the
//    origin normal to d has all of A - B strictly on one side;
//  - Intersecting: a tetrahedron of Minkowski points, not flat, with the origin on the inner side
//    of the three faces through its newest point (the fourth faces the origin by construction).
// Rounding can only stall it near touching (origin within rounding of the boundary): a support
// point that repeats, a vanishing direction, a flat tetrahedron. Then it gives up and gjk.cpp runs
// the distance-tracking GJK, whose strict-progress test settles those pairs.
#include "collision/gjk_boolean.h"

#include <cmath>

#include "collision/gjk_signed_volumes.h"

namespace tumble::detail {
namespace {

// Squared directions below this are zero (far below any size the engine handles).
constexpr Real kTinyDirection2 = 1e-200;
// Tetrahedra with det^2 <= this * |ab|^2 |ac|^2 |ad|^2 are flat: their face signs are not trusted.
constexpr Real kFlatTetrahedron2 = 1e-20;

// Newest point last.
struct Simplex {
  Vec3 w[4];
  int ia[4];
  int ib[4];
  int n = 0;

  bool contains(int a, int b) const {
    for (int k = 0; k < n; ++k)
      if (ia[k] == a && ib[k] == b) return true;
    return false;
  }
  void push(const Vec3& p, int a, int b) {
    w[n] = p;
    ia[n] = a;
    ib[n] = b;
    ++n;
  }
  void move(int to, int from) {
    w[to] = w[from];
    ia[to] = ia[from];
    ib[to] = ib[from];
  }
  // Keep vertices i < j < ... (in that order; targets never pass sources).
  void keep(int i) {
    move(0, i);
    n = 1;
  }
  void keep(int i, int j) {
    move(0, i);
    move(1, j);
    n = 2;
  }
  void keep(int i, int j, int k) {
    move(0, i);
    move(1, j);
    move(2, k);
    n = 3;
  }
};

// Component of `ao` perpendicular to the edge `e`, scaled by |e|^2: (e x ao) x e.
inline Vec3 perpendicular(const Vec3& e, const Vec3& ao) {
  return ao * glm::dot(e, e) - e * glm::dot(e, ao);
}

// Segment [b, a], a newest: the origin projects onto the segment or onto a (the region past b
// was the previous simplex's and the origin lies beyond the plane through b normal to d).
Vec3 line(Simplex& s) {
  const Vec3 a = s.w[1];
  const Vec3 ab = s.w[0] - a;
  const Vec3 ao = -a;
  if (glm::dot(ab, ao) > 0.0) return perpendicular(ab, ao);
  s.keep(1);
  return ao;
}

// Triangle [c, b, a], a newest.
Vec3 triangle(Simplex& s) {
  const Vec3 a = s.w[2];
  const Vec3 ab = s.w[1] - a;
  const Vec3 ac = s.w[0] - a;
  const Vec3 ao = -a;
  const Vec3 n = glm::cross(ab, ac);
  bool edgeRegion = false;
  if (glm::dot(glm::cross(n, ac), ao) > 0.0) {
    if (glm::dot(ac, ao) > 0.0) {
      s.keep(0, 2);
      return perpendicular(ac, ao);
    }
    edgeRegion = true;
  } else if (glm::dot(glm::cross(ab, n), ao) > 0.0) {
    edgeRegion = true;
  }
  if (edgeRegion) {
    if (glm::dot(ab, ao) > 0.0) {
      s.keep(1, 2);
      return perpendicular(ab, ao);
    }
    s.keep(2);
    return ao;
  }
  return glm::dot(n, ao) > 0.0 ? n : -n;
}

enum class TetraResult { Reduced, Enclosed, Flat };

// Tetrahedron [d, c, b, a], a newest. The faces through a have normals n1 = ab x ac (opposite d),
// n2 = ac x ad (opposite b), n3 = ad x ab (opposite c); each gives its opposite vertex the sign
// of det = ab . (ac x ad), so the origin is outside face i when det * (n_i . ao) < 0.
TetraResult tetrahedron(Simplex& s, Vec3& dir) {
  const Vec3 a = s.w[3];
  const Vec3 ab = s.w[2] - a;
  const Vec3 ac = s.w[1] - a;
  const Vec3 ad = s.w[0] - a;
  const Vec3 ao = -a;
  const Vec3 n2 = glm::cross(ac, ad);
  const Real det = glm::dot(ab, n2);
  if (det == 0.0) return TetraResult::Flat;
  const Vec3 n1 = glm::cross(ab, ac);
  if (det * glm::dot(n1, ao) < 0.0) {
    s.keep(1, 2, 3);  // [c, b, a]
    dir = triangle(s);
    return TetraResult::Reduced;
  }
  if (det * glm::dot(n2, ao) < 0.0) {
    s.keep(0, 1, 3);  // [d, c, a]
    dir = triangle(s);
    return TetraResult::Reduced;
  }
  const Vec3 n3 = glm::cross(ad, ab);
  if (det * glm::dot(n3, ao) < 0.0) {
    s.keep(0, 2, 3);  // [d, b, a]
    dir = triangle(s);
    return TetraResult::Reduced;
  }
  // Only a tetrahedron with a trustworthy orientation certifies (a flat one's face signs are
  // rounding; a reduction above only picks the next search direction).
  if (!(det * det > kFlatTetrahedron2 * glm::dot(ab, ab) * glm::dot(ac, ac) * glm::dot(ad, ad)))
    return TetraResult::Flat;
  return TetraResult::Enclosed;
}

// The first search direction: towards the origin from the warm simplex's closest point when one
// is given, else from A's origin towards B's (A - B is centred on their difference when the body
// frames sit at the centres, so its point nearest the origin lies that way), else from a pair of
// input points.
Vec3 initialDirection(const PairFrame& frame, const GjkSimplex* warm) {
  if (warm && warm->count > 0) {
    Vec3 w[4];
    int n = 0;
    for (int k = 0; k < warm->count && k < 4; ++k) {
      int ia = warm->indexA[k], ib = warm->indexB[k];
      if (ia < 0 || ib < 0 || static_cast<size_t>(ia) >= frame.sizeA() ||
          static_cast<size_t>(ib) >= frame.sizeB())
        continue;
      w[n++] = frame.difference(ia, ib);
    }
    if (n > 0) {
      SubSimplex sub;
      closestOnSimplex(w, n, sub);
      if (glm::dot(sub.v, sub.v) > kTinyDirection2) return -sub.v;
    }
  }
  const Vec3& offset = frame.offset();
  if (glm::dot(offset, offset) > kTinyDirection2) return offset;
  Vec3 v = frame.difference(0, 0);
  if (glm::dot(v, v) > kTinyDirection2) return -v;
  return Vec3{1.0, 0.0, 0.0};
}

// The midpoint of a set's first and last points: a point of its hull whatever the frame's origin
// (local coordinates); for the corners of a box in the usual order, its centre.
Vec3 centreEstimate(const SupportShape& shape) {
  return 0.5 * (shape.points.front() + shape.points.back());
}

void fill(const PairFrame& frame, const Simplex& s, int ia, int ib, const Vec3& w, GjkStatus status,
          int iterations, GjkResult& out) {
  out.status = status;
  out.iterations = iterations;
  out.pointA = frame.toWorldByMatrix(frame.pointA(ia));
  out.pointB = frame.toWorldByMatrix(frame.pointB(ib));
  out.distance = status == GjkStatus::Separated ? std::sqrt(glm::dot(w, w)) : 0.0;
  int count = 0;
  for (int k = 0; k < s.n; ++k) {
    if (s.ia[k] < 0) continue;  // the interior start point has no index pair
    out.simplex.indexA[count] = s.ia[k];
    out.simplex.indexB[count] = s.ib[k];
    ++count;
  }
  out.simplex.count = count;
}

}  // namespace

bool booleanGjk(PairFrame& frame, const Settings::Gjk& settings, const GjkSimplex* warm,
                GjkResult& out) {
  Simplex s;
  frame.setBruteForceMax(32);
  Vec3 d;
  // Cold: the simplex starts from an interior point c of A - B (difference of two centre
  // estimates), searching along -c: a point of A - B that costs no support, so an overlapping
  // pair is enclosed after 3 supports instead of 4 (the idea of MPR's interior point, Snethen
  // 2008). It has no index pair (-1) and never repeats.
  const Vec3 c = warm && warm->count > 0
                     ? Vec3{0.0}
                     : centreEstimate(frame.shapeA()) - frame.fromB(centreEstimate(frame.shapeB()));
  if (glm::dot(c, c) > kTinyDirection2) {
    s.push(c, -1, -1);
    d = -c;
  } else {
    d = initialDirection(frame, warm);
  }
  for (int it = 1; it <= settings.maxIterations; ++it) {
    frame.supportIndices(d);
    const int ia = frame.hintA(), ib = frame.hintB();
    const Vec3 w = frame.difference(ia, ib);
    if (glm::dot(w, d) < 0.0) {
      // The separating support pair joins the simplex (at most 3 points here): as a warm start
      // it seeds the closest point.
      s.push(w, ia, ib);
      fill(frame, s, ia, ib, w, GjkStatus::Separated, it, out);
      return true;
    }
    if (s.contains(ia, ib)) return false;
    s.push(w, ia, ib);
    switch (s.n) {
      case 1:
        d = -w;
        break;
      case 2:
        d = line(s);
        break;
      case 3:
        d = triangle(s);
        break;
      default:
        switch (tetrahedron(s, d)) {
          case TetraResult::Enclosed:
            fill(frame, s, ia, ib, w, GjkStatus::Intersecting, it, out);
            return true;
          case TetraResult::Flat:
            return false;
          case TetraResult::Reduced:
            break;
        }
        break;
    }
    if (!(glm::dot(d, d) > kTinyDirection2)) return false;
  }
  return false;
}

}  // namespace tumble::detail
