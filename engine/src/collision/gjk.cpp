// GJK distance and boolean queries (Gilbert, Johnson, Keerthi 1988; van den Bergen 2003, ch. 4)
// with the signed-volumes sub-algorithm of Montanari et al. 2017 (gjk_signed_volumes.h).
//
// Termination, each with its own status path:
//  - the simplex encloses the origin (4 points), or the closest point is the origin up to
//    rounding relative to the simplex size: Intersecting;
//  - the support point repeats a simplex vertex (Box2D's b2ShapeDistance) or does not improve
//    the lower bound: |v|^2 - v.w <= tolerance |v|^2 (van den Bergen 2003, sec. 4.3.5): Separated;
//  - boolean mode: v.w > 0 is a separating plane: Separated;
//  - the new simplex is not strictly closer (relative to the tolerance): Separated with the
//    better of the two estimates;
//  - gjk.max_iterations support evaluations: MaxIterations with the best estimate so far.
#include "tumble/gjk.h"

#include <cmath>

#include "collision/gjk_pair.h"
#include "collision/gjk_signed_volumes.h"

namespace tumble {
namespace {

using detail::MinkowskiVertex;
using detail::PairFrame;
using detail::SubSimplex;

// |v|^2 below this fraction of the largest simplex |w|^2 is the origin itself (touching).
constexpr Real kTouching2 = 1e-28;

struct Simplex {
  Vec3 w[4];
  Vec3 pa[4];
  Vec3 pb[4];
  int ia[4] = {0, 0, 0, 0};
  int ib[4] = {0, 0, 0, 0};
  Real lambda[4] = {0.0, 0.0, 0.0, 0.0};
  int count = 0;

  void set(int k, const MinkowskiVertex& m) {
    w[k] = m.w;
    pa[k] = m.pa;
    pb[k] = m.pb;
    ia[k] = m.ia;
    ib[k] = m.ib;
  }
  bool contains(int a, int b) const {
    for (int k = 0; k < count; ++k)
      if (ia[k] == a && ib[k] == b) return true;
    return false;
  }
  Real maxNorm2() const {
    Real m = 0.0;
    for (int k = 0; k < count; ++k) m = std::fmax(m, glm::dot(w[k], w[k]));
    return m;
  }
};

// Keeps the vertices of `from` (count `n`) that `sub` kept, in order, with their weights.
void compact(const Simplex& from, int n, const SubSimplex& sub, Simplex& to) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (!(sub.mask & (1u << i))) continue;
    to.w[k] = from.w[i];
    to.pa[k] = from.pa[i];
    to.pb[k] = from.pb[i];
    to.ia[k] = from.ia[i];
    to.ib[k] = from.ib[i];
    to.lambda[k] = sub.lambda[i];
    ++k;
  }
  to.count = k;
}

enum class Mode { Distance, Boolean };

void witnesses(const Simplex& s, Vec3& pa, Vec3& pb) {
  pa = Vec3{0.0};
  pb = Vec3{0.0};
  for (int k = 0; k < s.count; ++k) {
    pa += s.lambda[k] * s.pa[k];
    pb += s.lambda[k] * s.pb[k];
  }
}

void record(GjkTrace* trace, const PairFrame& frame, const Simplex& s, const Vec3& v,
            const Vec3& support) {
  if (!trace) return;
  GjkTraceStep step;
  step.count = s.count;
  for (int k = 0; k < s.count; ++k) step.vertices[k] = frame.toWorldDirection(s.w[k]);
  step.support = frame.toWorldDirection(support);
  step.closest = frame.toWorldDirection(v);
  Vec3 pa, pb;
  witnesses(s, pa, pb);
  step.pointA = frame.toWorld(pa);
  step.pointB = frame.toWorld(pb);
  step.distance = std::sqrt(glm::dot(v, v));
  trace->steps.push_back(step);
}

GjkResult runGjk(const SupportShape& a, const Transform& xa, const SupportShape& b,
                 const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                 Mode mode, GjkTrace* trace) {
  if (trace) trace->steps.clear();
  PairFrame frame(a, xa, b, xb);
  Simplex buffers[2];
  Simplex* cur = &buffers[0];
  Simplex* next = &buffers[1];

  // Start simplex: the warm indices that are still valid (duplicates dropped), else vertex 0 of
  // each set.
  Simplex& start = *next;
  start.count = 0;
  if (warm) {
    for (int k = 0; k < warm->count && k < 4; ++k) {
      int ia = warm->indexA[k], ib = warm->indexB[k];
      if (ia < 0 || ib < 0 || static_cast<size_t>(ia) >= frame.sizeA() ||
          static_cast<size_t>(ib) >= frame.sizeB() || start.contains(ia, ib))
        continue;
      start.set(start.count++, frame.vertex(ia, ib));
    }
  }
  if (start.count == 0) start.set(start.count++, frame.vertex(0, 0));
  frame.setHints(start.ia[0], start.ib[0]);

  SubSimplex sub;
  detail::closestOnSimplex(start.w, start.count, sub);
  compact(start, start.count, sub, *cur);
  Vec3 v = sub.v;
  Real vv = glm::dot(v, v);
  record(trace, frame, *cur, v, cur->w[0]);

  GjkStatus status = GjkStatus::MaxIterations;
  int iterations = 0;
  for (;;) {
    if (cur->count == 4 || vv <= kTouching2 * cur->maxNorm2()) {
      status = GjkStatus::Intersecting;
      break;
    }
    if (iterations >= settings.maxIterations) break;
    ++iterations;

    MinkowskiVertex m = frame.support(-v);
    Real vw = glm::dot(v, m.w);
    if (mode == Mode::Boolean && vw > 0.0) {
      status = GjkStatus::Separated;
      break;
    }
    if (cur->contains(m.ia, m.ib) || vv - vw <= settings.tolerance * vv) {
      status = GjkStatus::Separated;
      break;
    }

    int n = cur->count;
    cur->set(n, m);  // slot n is free: count stays n until the new simplex is accepted
    detail::closestOnSimplex(cur->w, n + 1, sub);
    Real vvNew = glm::dot(sub.v, sub.v);
    if (!(vvNew < vv)) {
      // No strict progress: rounding has the last word; keep the previous simplex.
      status = GjkStatus::Separated;
      break;
    }
    compact(*cur, n + 1, sub, *next);
    std::swap(cur, next);
    bool slow = vv - vvNew <= settings.tolerance * vv;
    v = sub.v;
    vv = vvNew;
    record(trace, frame, *cur, v, m.w);
    if (slow && cur->count < 4 && !(vv <= kTouching2 * cur->maxNorm2())) {
      status = GjkStatus::Separated;
      break;
    }
  }

  GjkResult r;
  r.status = status;
  r.iterations = iterations;
  Vec3 pa, pb;
  witnesses(*cur, pa, pb);
  r.pointA = frame.toWorld(pa);
  r.pointB = frame.toWorld(pb);
  r.distance = status == GjkStatus::Intersecting ? 0.0 : std::sqrt(vv);
  r.simplex.count = cur->count;
  for (int k = 0; k < cur->count; ++k) {
    r.simplex.indexA[k] = cur->ia[k];
    r.simplex.indexB[k] = cur->ib[k];
  }
  return r;
}

}  // namespace

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
  return runGjk(a, xa, b, xb, settings, warm, Mode::Boolean, nullptr);
}

GjkResult gjkIntersect(const SupportShape& a, const Transform& xa, const SupportShape& b,
                       const Transform& xb, const Settings::Gjk& settings, const GjkSimplex* warm,
                       GjkTrace* trace) {
  return runGjk(a, xa, b, xb, settings, warm, Mode::Boolean, trace);
}

}  // namespace tumble
