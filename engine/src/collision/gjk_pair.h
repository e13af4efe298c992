#pragma once
// The pair frame shared by GJK and EPA: everything is computed in A's local frame, where B's
// points are mapped by the relative transform. Minkowski-difference points w = a - b then carry
// no large offsets (a pair near 1e4 m keeps the precision of its own size), and A's support needs
// no rotation at all.
#include "tumble/math.h"
#include "tumble/support.h"

namespace tumble::detail {

/// A point of the Minkowski difference A - B with its two witnesses (A's frame) and indices.
struct MinkowskiVertex {
  Vec3 w{0.0};
  Vec3 pa{0.0};
  Vec3 pb{0.0};
  int ia = 0;
  int ib = 0;
};

class PairFrame {
 public:
  PairFrame(const SupportShape& a, const Transform& xa, const SupportShape& b, const Transform& xb)
      : a_(a), b_(b), xa_(xa) {
    // Relative rotation q = conj(qa) qb and offset conj(qa) (pb - pa), written out (the generic
    // GLM paths cost more than the whole first GJK iteration on small sets).
    const Quat& p = xa.rotation;
    const Quat& q = xb.rotation;
    Real w = p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z;
    Real x = p.w * q.x - p.x * q.w - p.y * q.z + p.z * q.y;
    Real y = p.w * q.y + p.x * q.z - p.y * q.w - p.z * q.x;
    Real z = p.w * q.z - p.x * q.y + p.y * q.x - p.z * q.w;
    rot_ = rotationMatrix(w, x, y, z);
    Mat3 ra = rotationMatrix(p.w, p.x, p.y, p.z);
    Vec3 d = xb.position - xa.position;
    offset_ = Vec3{glm::dot(ra[0], d), glm::dot(ra[1], d), glm::dot(ra[2], d)};
  }

  /// B's origin in A's frame.
  const Vec3& offset() const { return offset_; }

  /// B's local point in A's frame.
  Vec3 pointB(int ib) const { return rot_ * b_.points[static_cast<size_t>(ib)] + offset_; }

  MinkowskiVertex vertex(int ia, int ib) const {
    MinkowskiVertex m;
    m.ia = ia;
    m.ib = ib;
    m.pa = a_.points[static_cast<size_t>(ia)];
    m.pb = pointB(ib);
    m.w = m.pa - m.pb;
    return m;
  }

  /// Support point of A - B along `d` (A's frame): argmax over A of d.a minus argmax over B of
  /// -d.b. Keeps one hill-climbing hint per shape across calls.
  MinkowskiVertex support(const Vec3& d) {
    supportIndices(d);
    return vertex(hintA_, hintB_);
  }

  /// The support indices only (into hintA() / hintB()), for loops that keep just w.
  void supportIndices(const Vec3& d) {
    hintA_ = find(a_, d, hintA_);
    Vec3 nd = -d;
    hintB_ =
        find(b_, Vec3{glm::dot(rot_[0], nd), glm::dot(rot_[1], nd), glm::dot(rot_[2], nd)}, hintB_);
  }
  int hintA() const { return hintA_; }
  int hintB() const { return hintB_; }
  /// Minkowski point of an index pair (A's frame).
  Vec3 difference(int ia, int ib) const { return a_.points[static_cast<size_t>(ia)] - pointB(ib); }
  const Vec3& pointA(int ia) const { return a_.points[static_cast<size_t>(ia)]; }

  void setHints(int ia, int ib) {
    hintA_ = ia;
    hintB_ = ib;
  }

  size_t sizeA() const { return a_.points.size(); }
  size_t sizeB() const { return b_.points.size(); }

  /// A point of A's frame in world space.
  Vec3 toWorld(const Vec3& p) const { return xa_.apply(p); }
  /// A direction of A's frame in world axes.
  Vec3 toWorldDirection(const Vec3& d) const { return xa_.rotate(d); }

 private:
  // Small sets inline their brute-force search (the common case: boxes, small hulls); larger
  // ones go through supportIndex (hill climbing when there is an adjacency).
  static int find(const SupportShape& s, const Vec3& d, int hint) {
    size_t n = s.points.size();
    if (n > 16) return supportIndex(s, d, hint);
    const Vec3* p = s.points.data();
    int best = 0;
    Real bestDot = glm::dot(p[0], d);
    for (size_t i = 1; i < n; ++i) {
      Real v = glm::dot(p[i], d);
      if (v > bestDot) {
        bestDot = v;
        best = static_cast<int>(i);
      }
    }
    return best;
  }

  const SupportShape& a_;
  const SupportShape& b_;
  Transform xa_;
  // Column-major rotation of a unit quaternion (w, x, y, z).
  static Mat3 rotationMatrix(Real w, Real x, Real y, Real z) {
    Real xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z;
    Real wx = w * x, wy = w * y, wz = w * z;
    Mat3 m;
    m[0] = Vec3{1.0 - 2.0 * (yy + zz), 2.0 * (xy + wz), 2.0 * (xz - wy)};
    m[1] = Vec3{2.0 * (xy - wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + wx)};
    m[2] = Vec3{2.0 * (xz + wy), 2.0 * (yz - wx), 1.0 - 2.0 * (xx + yy)};
    return m;
  }

  Mat3 rot_{1.0};
  Vec3 offset_{0.0};
  int hintA_ = 0;
  int hintB_ = 0;
};

}  // namespace tumble::detail
