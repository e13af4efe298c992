// GJK distance and boolean queries (Gilbert, Johnson, Keerthi 1988; van den Bergen 2003, ch. 4)
// with the signed-volumes sub-algorithm of Montanari et al. 2017 (gjk_signed_volumes.h).
//
// Termination, each with its own status path:
//  - the simplex encloses the origin (4 points), or the closest point is the origin up to
//    rounding relative to the simplex size: Intersecting;
//  - the support point does not improve the lower bound: |v|^2 - v.w <= tolerance |v|^2 (van den
//    Bergen 2003, sec. 4.3.5): Separated;
//  - the support point repeats a simplex vertex (Box2D's b2ShapeDistance) or the new simplex is
//    not strictly closer, even after asking again with a tilted direction and for the tied
//    support pair nearest the witnesses (ties on the supporting plane): Separated with the
//    previous estimate;
//  - boolean mode: v.w > 0 is a separating plane: Separated;
//  - gjk.max_iterations support evaluations: MaxIterations with the best estimate so far.
#include "tumble/gjk.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "collision/gjk_boolean.h"
#include "collision/gjk_pair.h"
#include "collision/gjk_signed_volumes.h"

namespace tumble {
namespace {

using detail::PairFrame;
using detail::SubSimplex;

// |v|^2 below this fraction of the largest simplex |w|^2 is the origin itself (touching).
constexpr Real kTouching2 = 1e-28;
// A stalled query asks for another support with the direction turned away from the stalling
// point by these angles (rad) in turn: the first only breaks exact ties, the others reach near
// ties. At most kMaxTilts such requests per query.
constexpr Real kTilt[] = {1e-9, 1e-6, 1e-3};
constexpr int kTilts = static_cast<int>(std::size(kTilt));
constexpr int kMaxTilts = 8;

// Only the Minkowski points and their index pairs are kept; the witnesses are rebuilt from the
// indices once at the end (less to copy in the hot loop).
struct Simplex {
  Vec3 w[4];
  int ia[4];
  int ib[4];
  Real lambda[4];
  int count = 0;

  void set(int k, const Vec3& wk, int a, int b) {
    w[k] = wk;
    ia[k] = a;
    ib[k] = b;
  }
  bool contains(int a, int b) const {
    for (int k = 0; k < count; ++k)
      if (ia[k] == a && ib[k] == b) return true;
    return false;
  }
  Real maxNorm2() const {
    Real m = 0.0;
    for (int k = 0; k < count; ++k) m = std::max(m, glm::dot(w[k], w[k]));
    return m;
  }
  // Keeps the first n vertices that `sub` kept, in order (in place: targets never pass sources).
  void compact(int n, const SubSimplex& sub) {
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if (!(sub.mask & (1u << i))) continue;
      w[k] = w[i];
      ia[k] = ia[i];
      ib[k] = ib[i];
      lambda[k] = sub.lambda[i];
      ++k;
    }
    count = k;
  }
};

enum class Mode { Distance, Boolean };

// Support ties for the last stall request: points whose height along the search direction d is
// within this fraction of |v|^2 (= |d|^2) of the highest count as on the supporting plane.
constexpr Real kTieBand = 1e-3;

// Of A (maximising d.p) or B (minimising, as A - B's support does), the point within `band` of
// the supporting plane nearest `witness` (A's frame). A scan of all points: only stalls ask.
int nearestTie(const PairFrame& frame, const Vec3& d, const Vec3& witness, Real band, bool ofA) {
  const int n = static_cast<int>(ofA ? frame.sizeA() : frame.sizeB());
  auto point = [&](int i) { return ofA ? frame.pointA(i) : frame.pointB(i); };
  const Real sign = ofA ? 1.0 : -1.0;
  Real top = -std::numeric_limits<Real>::max();
  for (int i = 0; i < n; ++i) top = std::max(top, sign * glm::dot(d, point(i)));
  int best = 0;
  Real bestDistance = std::numeric_limits<Real>::max();
  for (int i = 0; i < n; ++i) {
    const Vec3 p = point(i);
    if (sign * glm::dot(d, p) < top - band) continue;
    const Real dd = glm::dot(p - witness, p - witness);
    if (dd < bestDistance) {
      bestDistance = dd;
      best = i;
    }
  }
  return best;
}

void witnesses(const PairFrame& frame, const Simplex& s, Vec3& pa, Vec3& pb) {
  pa = Vec3{0.0};
  pb = Vec3{0.0};
  for (int k = 0; k < s.count; ++k) {
    pa += s.lambda[k] * frame.pointA(s.ia[k]);
    pb += s.lambda[k] * frame.pointB(s.ib[k]);
  }
}

void record(GjkTrace* trace, const PairFrame& frame, const Simplex& s, const Vec3& v,
            const Vec3& support) {
  GjkTraceStep step;
  step.count = s.count;
  for (int k = 0; k < s.count; ++k) step.vertices[k] = frame.toWorldDirection(s.w[k]);
  step.support = frame.toWorldDirection(support);
  step.closest = frame.toWorldDirection(v);
  Vec3 pa, pb;
  witnesses(frame, s, pa, pb);
  step.pointA = frame.toWorld(pa);
  step.pointB = frame.toWorld(pb);
  step.distance = std::sqrt(glm::dot(v, v));
  trace->steps.push_back(step);
}

GjkResult runGjk(PairFrame& frame, const Settings::Gjk& settings, const GjkSimplex* warm, Mode mode,
                 GjkTrace* trace) {
  if (trace) trace->steps.clear();
  Simplex sx;

  // Start simplex: the warm indices that are still valid (duplicates dropped), else vertex 0 of
  // each set.
  if (warm) {
    for (int k = 0; k < warm->count && k < 4; ++k) {
      int ia = warm->indexA[k], ib = warm->indexB[k];
      if (ia < 0 || ib < 0 || static_cast<size_t>(ia) >= frame.sizeA() ||
          static_cast<size_t>(ib) >= frame.sizeB() || sx.contains(ia, ib))
        continue;
      sx.set(sx.count++, frame.difference(ia, ib), ia, ib);
    }
  }
  if (sx.count == 0) sx.set(sx.count++, frame.difference(0, 0), 0, 0);
  frame.setHints(sx.ia[0], sx.ib[0]);

  SubSimplex sub;
  detail::closestOnSimplex(sx.w, sx.count, sub);
  sx.compact(sx.count, sub);
  Vec3 v = sub.v;
  Real vv = glm::dot(v, v);
  if (trace) record(trace, frame, sx, v, sx.w[0]);

  GjkStatus status = GjkStatus::MaxIterations;
  int iterations = 0;
  int tilts = 0;
  for (;;) {
    if (sx.count == 4 || vv <= kTouching2 * sx.maxNorm2()) {
      status = GjkStatus::Intersecting;
      break;
    }
    if (iterations >= settings.maxIterations) break;
    ++iterations;

    frame.supportIndices(-v);
    int ia = frame.hintA(), ib = frame.hintB();
    Vec3 w = frame.difference(ia, ib);
    Real vw = glm::dot(v, w);
    if (mode == Mode::Boolean && vw > 0.0) {
      status = GjkStatus::Separated;
      break;
    }
    if (vv - vw <= settings.tolerance * vv) {
      status = GjkStatus::Separated;
      break;
    }

    const int n = sx.count;
    Real vvNew = vv;
    bool stalled = sx.contains(ia, ib);
    if (!stalled) {
      sx.set(n, w, ia, ib);  // slot n is free: count stays n until the new simplex is accepted
      detail::closestOnSimplex(sx.w, n + 1, sub);
      vvNew = glm::dot(sub.v, sub.v);
      stalled = !(vvNew < vv);
    }
    // A stall (a repeated vertex, or no strict progress in floating point) while the lower bound
    // is still open. With the origin on a face of A - B and a far simplex vertex, each step gains
    // only about |v|^4 / |w|^2, under the rounding of |v|^2, and GJK would stop short (fuzz:
    // two sets sharing a vertex, stuck at 2.9e-4 m for a true 0). The support is then usually
    // one of several tied points on the supporting plane, and another of them makes progress:
    // ask again with the direction tilted away from w (kTilt), a few times per query at most.
    if (stalled) {
      const Vec3 away = w - v;
      const Real aa = glm::dot(away, away);
      for (int t = 0; stalled && t < kTilts && tilts < kMaxTilts && aa > 0.0; ++t) {
        ++tilts;
        frame.supportIndices(-v / std::sqrt(vv) - (kTilt[t] / std::sqrt(aa)) * away);
        const int ja = frame.hintA(), jb = frame.hintB();
        if ((ja == ia && jb == ib) || sx.contains(ja, jb)) continue;
        sx.set(n, frame.difference(ja, jb), ja, jb);
        detail::closestOnSimplex(sx.w, n + 1, sub);
        vvNew = glm::dot(sub.v, sub.v);
        if (vvNew < vv) {
          stalled = false;
          w = sx.w[n];  // for the trace
        }
      }
    }
    // Still stalled: among the points of each set on the supporting plane along -v (within
    // kTieBand |v|^2), take the one nearest the current witness point. With the origin on an
    // edge of A - B, as for two slivers whose supporting faces are segments through a shared
    // vertex, every vertex of that face lies in the plane of the simplex and no tilt gains
    // anything; but the shared vertex pair is the origin itself, and it is the tied pair next
    // to the witnesses (fuzz: 0.0013 m for a true 0 on sets 1024 m wide).
    if (stalled && tilts < kMaxTilts) {
      ++tilts;
      Vec3 pa, pb;
      witnesses(frame, sx, pa, pb);
      const int ja = nearestTie(frame, -v, pa, kTieBand * vv, true);
      const int jb = nearestTie(frame, -v, pb, kTieBand * vv, false);
      if (!sx.contains(ja, jb)) {
        sx.set(n, frame.difference(ja, jb), ja, jb);
        detail::closestOnSimplex(sx.w, n + 1, sub);
        vvNew = glm::dot(sub.v, sub.v);
        if (vvNew < vv) {
          stalled = false;
          w = sx.w[n];
        }
      }
    }
    if (stalled) {
      // Rounding has the last word; keep the previous simplex.
      status = GjkStatus::Separated;
      break;
    }
    sx.compact(n + 1, sub);
    // Slow progress is not a stop: a step that barely moves v (a new vertex almost in the plane
    // of the old ones) can come just before the support point that reaches the origin (two sets
    // sharing a vertex, fuzz_narrowphase). The next support point decides, through the lower
    // bound above, a repeated vertex, or no strict progress.
    v = sub.v;
    vv = vvNew;
    if (trace) record(trace, frame, sx, v, w);
  }

  GjkResult r;
  r.status = status;
  r.iterations = iterations;
  Vec3 pa, pb;
  witnesses(frame, sx, pa, pb);
  r.pointA = frame.toWorld(pa);
  r.pointB = frame.toWorld(pb);
  r.distance = status == GjkStatus::Intersecting ? 0.0 : std::sqrt(vv);
  r.simplex.count = sx.count;
  for (int k = 0; k < sx.count; ++k) {
    r.simplex.indexA[k] = sx.ia[k];
    r.simplex.indexB[k] = sx.ib[k];
  }
  return r;
}

GjkResult runGjk(const SupportShape& a, const Transform& xa, const SupportShape& b,
                 const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                 Mode mode, GjkTrace* trace) {
  PairFrame frame(a, xa, b, xb);
  return runGjk(frame, settings, warm, mode, trace);
}

}  // namespace

GjkResult detail::gjkDistanceInFrame(PairFrame& frame, const Settings::Gjk& settings) {
  return runGjk(frame, settings, nullptr, Mode::Distance, nullptr);
}

GjkResult gjkDistance(const SupportShape& a, const Transform& xa, const SupportShape& b,
                      const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm) {
  return runGjk(a, xa, b, xb, settings, warm, Mode::Distance, nullptr);
}

GjkResult gjkDistance(const SupportShape& a, const Transform& xa, const SupportShape& b,
                      const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                      GjkTrace* trace) {
  return runGjk(a, xa, b, xb, settings, warm, Mode::Distance, trace);
}

GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm) {
  return gjkIntersect(a, xa, b, xb, settings, warm, nullptr);
}

GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                       GjkTrace* trace) {
  // The direction-only fast path first (gjk_boolean.cpp); the tracked path when a trace is
  // wanted (the viewer shows closest points) or when rounding stalls the fast path.
  if (!trace) {
    detail::PairFrame frame(a, xa, b, xb);
    GjkResult r;
    if (detail::booleanGjk(frame, settings, warm, r)) return r;
  }
  return runGjk(a, xa, b, xb, settings, warm, Mode::Boolean, trace);
}

}  // namespace tumble
