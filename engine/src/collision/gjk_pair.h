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
    Quat qr = glm::conjugate(xa.rotation) * xb.rotation;
    rot_ = glm::mat3_cast(qr);
    rotT_ = glm::transpose(rot_);
    offset_ = glm::conjugate(xa.rotation) * (xb.position - xa.position);
  }

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
    hintA_ = supportIndex(a_, d, hintA_);
    hintB_ = supportIndex(b_, rotT_ * (-d), hintB_);
    return vertex(hintA_, hintB_);
  }

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
  const SupportShape& a_;
  const SupportShape& b_;
  Transform xa_;
  Mat3 rot_{1.0};
  Mat3 rotT_{1.0};
  Vec3 offset_{0.0};
  int hintA_ = 0;
  int hintB_ = 0;
};

}  // namespace tumble::detail
