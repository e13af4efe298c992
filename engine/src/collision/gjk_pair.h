#pragma once
// The pair frame shared by GJK and EPA: everything is computed in A's local frame, where B's
// points are mapped by the relative transform. Minkowski-difference points w = a - b then carry
// no large offsets (a pair near 1e4 m keeps the precision of its own size), and A's support needs
// no rotation at all.
//
// Points are named by index (simplices, warm starts, repeated-support tests). A cylinder
// (SupportShape::cylinder) has no points to index: the frame keeps the support points it computed
// for it during the query, in order, and their positions in that list are their indices. A
// warm-start index of such a shape names a point of this query's list (index 0, its first support
// point, at the start), so old simplices never point outside the shape.
#include "tumble/gjk.h"
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

/// The support points a cylinder gave during one query (see above).
struct GeneratedPoints {
  // GJK (gjk.max_iterations <= 1000 plus tilts) and EPA (the same cap, plus its own GJK run)
  // rarely ask for more than a few dozen; past the capacity the best point so far stands in.
  static constexpr int kCapacity = 1024;
  Vec3 p[kCapacity];
  int n = 0;

  int add(const CylinderSupport& c, const Vec3& d) {
    const Vec3 q = c.support(d);
    for (int i = n - 1; i >= 0; --i)
      if (p[i] == q) return i;
    if (n < kCapacity) {
      p[n] = q;
      return n++;
    }
    int best = 0;
    for (int i = 1; i < n; ++i)
      if (glm::dot(p[i], d) > glm::dot(p[best], d)) best = i;
    return best;
  }
};

/// A per-thread stack of GeneratedPoints lists, two per live frame with a cylinder (frames nest
/// when EPA runs GJK of its own).
class GeneratedLease {
 public:
  GeneratedLease() = default;
  GeneratedLease(const GeneratedLease&) = delete;
  GeneratedLease& operator=(const GeneratedLease&) = delete;
  ~GeneratedLease() {
    if (list_) --pool().used;
  }
  GeneratedPoints* take(const CylinderSupport& c) {
    Pool& q = pool();
    if (q.used >= Pool::kSlots) return nullptr;  // deeper than any caller nests: points instead
    list_ = &q.slots[q.used++];
    list_->n = 0;
    list_->add(c, Vec3(1.0, 0.0, 0.0));
    return list_;
  }

 private:
  struct Pool {
    static constexpr int kSlots = 8;
    GeneratedPoints slots[kSlots];
    int used = 0;
  };
  static Pool& pool() {
    static thread_local Pool p;
    return p;
  }
  GeneratedPoints* list_ = nullptr;
};

class PairFrame {
 public:
  PairFrame(const PairFrame&) = delete;
  PairFrame& operator=(const PairFrame&) = delete;
  PairFrame(const SupportShape& a, const Transform& xa, const SupportShape& b, const Transform& xb)
      : a_(a), b_(b), xa_(xa) {
    if (a.cylinder) genA_ = leaseA_.take(*a.cylinder);
    if (b.cylinder) genB_ = leaseB_.take(*b.cylinder);
    ptsA_ = genA_ ? genA_->p : a.points.data();
    ptsB_ = genB_ ? genB_->p : b.points.data();
    // Relative rotation q = conj(qa) qb and offset conj(qa) (pb - pa), written out (the generic
    // GLM paths cost more than the whole first GJK iteration on small sets).
    const Quat& p = xa.rotation;
    const Quat& q = xb.rotation;
    Real w = p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z;
    Real x = p.w * q.x - p.x * q.w - p.y * q.z + p.z * q.y;
    Real y = p.w * q.y + p.x * q.z - p.y * q.w - p.z * q.x;
    Real z = p.w * q.z - p.x * q.y + p.y * q.x - p.z * q.w;
    rot_ = rotationMatrix(w, x, y, z);
    rotA_ = rotationMatrix(p.w, p.x, p.y, p.z);
    Vec3 d = xb.position - xa.position;
    offset_ = Vec3{glm::dot(rotA_[0], d), glm::dot(rotA_[1], d), glm::dot(rotA_[2], d)};
    climbs_ = climbs(a, bruteForceMax_) || climbs(b, bruteForceMax_);
  }

  /// B's origin in A's frame.
  const Vec3& offset() const { return offset_; }

  /// B's local point in A's frame.
  Vec3 pointB(int ib) const { return rot_ * ptsB_[ib] + offset_; }
  /// Any point of B's local frame in A's frame.
  Vec3 fromB(const Vec3& local) const { return rot_ * local + offset_; }
  const SupportShape& shapeA() const { return a_; }
  const SupportShape& shapeB() const { return b_; }

  MinkowskiVertex vertex(int ia, int ib) const {
    MinkowskiVertex m;
    m.ia = ia;
    m.ib = ib;
    m.pa = ptsA_[ia];
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
    // A direction that turned by more than 45 degrees sends the climb far across the hull
    // (GJK's second direction is nearly opposite its first): sample a new start instead.
    if (climbs_ && keepHints_) {
      keepHints_ = false;
      lastDir_ = d;
    } else if (climbs_) {
      Real turn = glm::dot(d, lastDir_);
      if (turn <= 0.0 || turn * turn < kRestartCos2 * glm::dot(d, d) * glm::dot(lastDir_, lastDir_))
        coldA_ = coldB_ = true;
      lastDir_ = d;
    }
    hintA_ = genA_ ? genA_->add(*a_.cylinder, d) : find(a_, d, hintA_, coldA_, bruteForceMax_);
    Vec3 nd = -d;
    const Vec3 dB{glm::dot(rot_[0], nd), glm::dot(rot_[1], nd), glm::dot(rot_[2], nd)};
    hintB_ = genB_ ? genB_->add(*b_.cylinder, dB) : find(b_, dB, hintB_, coldB_, bruteForceMax_);
  }
  int hintA() const { return hintA_; }
  int hintB() const { return hintB_; }
  /// Minkowski point of an index pair (A's frame).
  Vec3 difference(int ia, int ib) const { return ptsA_[ia] - pointB(ib); }
  const Vec3& pointA(int ia) const { return ptsA_[ia]; }
  /// True when either shape is a cylinder (its points are generated per query).
  bool generates() const { return genA_ != nullptr || genB_ != nullptr; }

  /// Sets up to this many points are searched by brute force even with an adjacency (default
  /// 16). A query with few supports per shape (boolean GJK) gains from 32: a cold climb on a
  /// small hull costs more than the scan; EPA, with many nearby directions, climbs faster.
  void setBruteForceMax(size_t n) {
    bruteForceMax_ = n;
    climbs_ = climbs(a_, n) || climbs(b_, n);
  }

  /// Starts the next climbs from these vertices (a warm start) instead of sampled ones. With
  /// `trusted`, the next search climbs from them however far its direction turned (EPA's hints
  /// are support points of the face it searches along).
  void setHints(int ia, int ib, bool trusted = false) {
    hintA_ = ia;
    hintB_ = ib;
    coldA_ = false;
    coldB_ = false;
    keepHints_ = trusted;
  }

  size_t sizeA() const { return genA_ ? static_cast<size_t>(genA_->n) : a_.points.size(); }
  size_t sizeB() const { return genB_ ? static_cast<size_t>(genB_->n) : b_.points.size(); }

  /// A point of A's frame in world space.
  Vec3 toWorld(const Vec3& p) const { return xa_.apply(p); }
  /// A point of A's frame in world space by A's rotation matrix (cheaper than toWorld, may
  /// differ from it in the last bits).
  Vec3 toWorldByMatrix(const Vec3& p) const { return rotA_ * p + xa_.position; }
  /// A direction of A's frame in world axes.
  Vec3 toWorldDirection(const Vec3& d) const { return xa_.rotate(d); }

 private:
  // Small sets inline their brute-force search (the common case: boxes, small hulls). Larger ones
  // with an adjacency climb over it (support.h), from the previous answer once there is one; the
  // first climb of a query, and one after the direction turned round, starts from the best of the
  // hint and a few evenly spaced points, which cuts the walk across the hull. Any maximiser is a
  // valid support point.
  static int find(const SupportShape& s, const Vec3& d, int hint, bool& cold, size_t bruteMax) {
    size_t n = s.points.size();
    const Vec3* p = s.points.data();
    if (!climbs(s, bruteMax)) {
      if (n > bruteMax) return supportIndexBruteForce(s, d);
      return bruteForce(p, n, d);
    }
    int start = hint;
    if (cold) {
      cold = false;
      size_t stride = n / kColdSamples;
      Real bestDot = glm::dot(p[start], d);
      for (size_t i = 0; i < n; i += stride) {
        Real v = glm::dot(p[i], d);
        if (v > bestDot) {
          bestDot = v;
          start = static_cast<int>(i);
        }
      }
    }
    return climb(s, d, start);
  }

  // The lowest index of a maximiser (as supportIndexBruteForce), with even and odd points in two
  // independent running maxima so that the compare chain is half as long; ties between the two
  // go to the lower index, so the answer is the same as one sequential scan.
  static int bruteForce(const Vec3* p, size_t n, const Vec3& d) {
    int best0 = 0;
    Real bestDot0 = glm::dot(p[0], d);
    if (n == 1) return 0;
    int best1 = 1;
    Real bestDot1 = glm::dot(p[1], d);
    size_t i = 2;
    for (; i + 1 < n; i += 2) {
      Real v0 = glm::dot(p[i], d);
      Real v1 = glm::dot(p[i + 1], d);
      if (v0 > bestDot0) {
        bestDot0 = v0;
        best0 = static_cast<int>(i);
      }
      if (v1 > bestDot1) {
        bestDot1 = v1;
        best1 = static_cast<int>(i + 1);
      }
    }
    if (i < n) {
      Real v0 = glm::dot(p[i], d);
      if (v0 > bestDot0) {
        bestDot0 = v0;
        best0 = static_cast<int>(i);
      }
    }
    if (bestDot1 > bestDot0 || (bestDot1 == bestDot0 && best1 < best0)) return best1;
    return best0;
  }

  static bool climbs(const SupportShape& s, size_t bruteMax) {
    size_t n = s.points.size();
    return n > bruteMax && s.hasAdjacency() && n >= SupportShape::kHillClimbThreshold;
  }

  // Strict greedy ascent over the vertex graph (see supportIndexHillClimb): each move strictly
  // increases d.p, so it cannot cycle; n moves bound it even for a malformed adjacency.
  static int climb(const SupportShape& s, const Vec3& d, int start) {
    const Vec3* p = s.points.data();
    const int* offsets = s.neighbourOffsets.data();
    const int* nb = s.neighbours.data();
    int current = start;
    Real currentDot = glm::dot(p[current], d);
    for (size_t moves = 0; moves < s.points.size(); ++moves) {
      int next = current;
      Real nextDot = currentDot;
      for (int k = offsets[current], end = offsets[current + 1]; k < end; ++k) {
        int j = nb[k];
        Real v = glm::dot(p[j], d);
        if (v > nextDot) {
          nextDot = v;
          next = j;
        }
      }
      if (next == current) break;
      current = next;
      currentDot = nextDot;
    }
    return current;
  }

  static constexpr size_t kColdSamples = 16;
  static constexpr Real kRestartCos2 = 0.5;  // restart the climbs past 45 degrees of turn

  const SupportShape& a_;
  const SupportShape& b_;
  Transform xa_;
  GeneratedLease leaseA_, leaseB_;
  GeneratedPoints* genA_ = nullptr;  // A's generated points when A is a cylinder
  GeneratedPoints* genB_ = nullptr;
  const Vec3* ptsA_ = nullptr;  // A's points: its point set, or genA_'s list
  const Vec3* ptsB_ = nullptr;
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
  Mat3 rotA_{1.0};  // A's rotation
  Vec3 offset_{0.0};
  int hintA_ = 0;
  int hintB_ = 0;
  bool coldA_ = true;  // no climb yet and no hint given: the first climb samples its start
  bool coldB_ = true;
  Vec3 lastDir_{0.0};          // the previous search direction (A's frame)
  size_t bruteForceMax_ = 16;  // see setBruteForceMax
  bool climbs_ = false;        // either shape is searched by hill climbing
  bool keepHints_ = false;     // the next search starts from the hints (setHints)
};

/// gjkDistance on an existing frame (no warm start): EPA runs it on its own frame when a shape is
/// a cylinder, whose point indices are only meaningful within one frame.
GjkResult gjkDistanceInFrame(PairFrame& frame, const Settings::Gjk& settings);

}  // namespace tumble::detail
