// EPA, the expanding polytope algorithm (van den Bergen 2001, "Proximity queries and penetration
// depth computation on 3D game objects"; van den Bergen 2003, sec. 4.3.8).
//
// The polytope lives in A's frame (gjk_pair.h), starts from GJK's final simplex (grown to a
// tetrahedron by support searches when GJK stopped with fewer points), and grows towards the face
// closest to the origin until the lower bound (that face's distance) and the upper bound (the
// support distance along its normal) meet within epa.tolerance x the size of A - B. Faces keep
// their neighbours, and the hole cut by a new point is found by a depth-first walk from the
// closest face (the silhouette), so the polytope stays a closed triangle mesh. Storage is a
// per-thread scratch buffer that grows to the largest epa.max_iterations seen, so queries do not
// allocate after the first.
#include "tumble/epa.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "collision/epa_polytope.h"
#include "collision/gjk_pair.h"

namespace tumble {
namespace {

using detail::EpaFace;
using detail::EpaPolytope;
using detail::MinkowskiVertex;
using detail::PairFrame;

// Relative size below which a new dimension of the start simplex counts as absent.
constexpr Real kFlat = 1e-10;

Vec3 anyPerpendicular(const Vec3& e) {
  Vec3 a = std::fabs(e.x) < std::fabs(e.y)
               ? (std::fabs(e.x) < std::fabs(e.z) ? Vec3{1, 0, 0} : Vec3{0, 0, 1})
               : (std::fabs(e.y) < std::fabs(e.z) ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
  return glm::normalize(glm::cross(e, a));
}

EpaResult fromGjk(const GjkResult& gjk, EpaStatus status) {
  EpaResult r;
  r.status = status;
  r.depth = 0.0;
  r.pointA = gjk.pointA;
  r.pointB = gjk.pointB;
  Vec3 d = gjk.pointB - gjk.pointA;
  Real l = glm::length(d);
  r.normal = l > 0.0 && isFinite(l) ? d / l : Vec3{0.0, 1.0, 0.0};
  return r;
}

// A flat A - B (no volume): depth 0 along the given unit normal (A's frame), witnesses from one
// start vertex (it lies on A - B within the flat tolerance of the origin).
EpaResult flatResult(const PairFrame& frame, const Vec3& normal, const MinkowskiVertex& v,
                     int iterations) {
  EpaResult r;
  r.status = EpaStatus::Touching;
  r.depth = 0.0;
  r.normal = glm::normalize(frame.toWorldDirection(normal));
  r.pointA = frame.toWorld(v.pa);
  r.pointB = frame.toWorld(v.pb);
  r.iterations = iterations;
  return r;
}

// The final polytope in world axes, for the viewer (epa.h, EpaTrace).
void record(EpaTrace& trace, const EpaPolytope& poly, const PairFrame& frame, int best) {
  for (int k = 0; k < poly.vertexCount(); ++k)
    trace.vertices.push_back(frame.toWorldDirection(poly.vertex(k).w));
  for (int f = 0; f < poly.faceSlots(); ++f) {
    const EpaFace& face = poly.face(f);
    if (!face.live) continue;
    if (f == best) trace.closestFace = static_cast<int>(trace.faces.size());
    trace.faces.push_back({face.v[0], face.v[1], face.v[2]});
  }
}

EpaResult runEpa(const SupportShape& a, const Transform& xa, const SupportShape& b,
                 const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk,
                 EpaTrace* trace) {
  if (trace) *trace = EpaTrace{};
  if (gjk.status != GjkStatus::Intersecting) return fromGjk(gjk, EpaStatus::Touching);
  PairFrame frame(a, xa, b, xb);

  // Start simplex: GJK's vertices (valid, distinct index pairs), else a fresh GJK run.
  MinkowskiVertex start[4];
  int n = 0;
  auto addStart = [&](const GjkSimplex& s) {
    for (int k = 0; k < s.count && k < 4; ++k) {
      int ia = s.indexA[k], ib = s.indexB[k];
      if (ia < 0 || ib < 0 || static_cast<size_t>(ia) >= frame.sizeA() ||
          static_cast<size_t>(ib) >= frame.sizeB())
        continue;
      bool dup = false;
      for (int j = 0; j < n; ++j) dup = dup || (start[j].ia == ia && start[j].ib == ib);
      if (!dup) start[n++] = frame.vertex(ia, ib);
    }
  };
  if (frame.generates()) {
    // A cylinder's indices name points of one frame only: GJK again, here.
    const GjkResult again = detail::gjkDistanceInFrame(frame, Settings::Gjk{});
    if (!again.intersecting()) return fromGjk(again, EpaStatus::Touching);
    addStart(again.simplex);
    if (n == 0) return fromGjk(again, EpaStatus::Touching);
  } else {
    addStart(gjk.simplex);
  }
  if (n == 0) {
    GjkResult again = gjkDistance(a, xa, b, xb, Settings::Gjk{});
    if (!again.intersecting()) return fromGjk(again, EpaStatus::Touching);
    addStart(again.simplex);
    if (n == 0) return fromGjk(again, EpaStatus::Touching);
  }
  frame.setHints(start[0].ia, start[0].ib);

  Real size2 = 0.0;
  for (int k = 0; k < n; ++k) size2 = std::max(size2, glm::dot(start[k].w, start[k].w));
  int iterations = 0;

  // Grow to a tetrahedron: each new point is the support point farthest from the current affine
  // hull (van den Bergen 2003, sec. 4.3.8). GJK's simplex holds the origin, and so does anything
  // containing it. A set that cannot grow is flat: depth 0.
  if (n == 1) {
    static const Vec3 kAxes[6] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                  {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    Real best = 0.0;
    MinkowskiVertex pick;
    for (const Vec3& d : kAxes) {
      MinkowskiVertex m = frame.support(d);
      Real l2 = glm::dot(m.w - start[0].w, m.w - start[0].w);
      size2 = std::max(size2, glm::dot(m.w, m.w));
      if (l2 > best) {
        best = l2;
        pick = m;
      }
    }
    if (!(best > kFlat * kFlat * size2)) return flatResult(frame, Vec3{0, 1, 0}, start[0], 0);
    start[n++] = pick;
  }
  if (n == 2) {
    Vec3 e = start[1].w - start[0].w;
    Vec3 u1 = anyPerpendicular(e);
    Vec3 u2 = glm::normalize(glm::cross(e, u1));
    const Vec3 dirs[8] = {u1, -u1, u2, -u2, u1 + u2, -u1 - u2, u1 - u2, u2 - u1};
    Real best = 0.0;
    MinkowskiVertex pick;
    Real ee = glm::dot(e, e);
    for (const Vec3& d : dirs) {
      MinkowskiVertex m = frame.support(d);
      Real l2 = glm::dot(glm::cross(m.w - start[0].w, e), glm::cross(m.w - start[0].w, e)) / ee;
      size2 = std::max(size2, glm::dot(m.w, m.w));
      if (l2 > best) {
        best = l2;
        pick = m;
      }
    }
    if (!(best > kFlat * kFlat * size2)) return flatResult(frame, u1, start[0], 0);
    start[n++] = pick;
  }
  if (n == 3) {
    Vec3 nrm = glm::cross(start[1].w - start[0].w, start[2].w - start[0].w);
    Real nn = glm::dot(nrm, nrm);
    if (!(nn > 0.0))
      return flatResult(frame, anyPerpendicular(start[1].w - start[0].w), start[0], 0);
    nrm /= std::sqrt(nn);
    MinkowskiVertex up = frame.support(nrm);
    MinkowskiVertex down = frame.support(-nrm);
    Real hu = glm::dot(up.w - start[0].w, nrm);
    Real hd = -glm::dot(down.w - start[0].w, nrm);
    size2 = std::max({size2, glm::dot(up.w, up.w), glm::dot(down.w, down.w)});
    Real h = std::max(hu, hd);
    if (!(h > kFlat * std::sqrt(size2))) return flatResult(frame, nrm, start[0], 0);
    start[n++] = hu >= hd ? up : down;
  }

  thread_local EpaPolytope poly;
  poly.reset(settings.maxIterations + 4);
  if (!poly.initTetrahedron(start)) {
    // A sliver GJK tetrahedron whose faces have no normal: flat within rounding.
    Vec3 nrm = anyPerpendicular(start[1].w - start[0].w);
    return flatResult(frame, nrm, start[0], 0);
  }
  Real size = std::sqrt(size2);

  EpaStatus status = EpaStatus::MaxIterations;
  int best = poly.closestFace();
  for (;;) {
    const EpaFace& f = poly.face(best);
    if (iterations >= settings.maxIterations) break;
    ++iterations;
    // Hill-climbing hints from the face's own vertices: they are support points for directions
    // near its normal, so the climb is short (the previous support is often far away).
    poly.faceHints(best, frame);
    MinkowskiVertex m = frame.support(f.normal);
    size = std::max(size, glm::length(m.w));
    Real upper = glm::dot(m.w, f.normal);
    if (upper - f.distance <= settings.tolerance * size || poly.containsVertex(m.ia, m.ib)) {
      status = EpaStatus::Converged;
      break;
    }
    if (!poly.hasRoom()) break;
    if (!poly.expand(best, m, 1e-13 * size)) {
      // The cut would not leave a closed convex mesh (rounding): the current face is the answer.
      status = EpaStatus::Converged;
      break;
    }
    best = poly.closestFace();
  }

  // A face within rounding of the closest one whose projection of the origin falls inside it gives
  // better witnesses, but only if it is a face of A - B too: a flat start tetrahedron (a box
  // resting on a large ground) has two faces near the origin with opposite normals, and only the
  // one the loop checked against a support point is known to bound A - B. The other is taken
  // when the support along its normal is within the tolerance of it.
  const Real eps = std::max(settings.tolerance, 1e-12) * size;
  const int refined = poly.refineClosest(best, eps);
  if (refined != best) {
    const EpaFace& alt = poly.face(refined);
    poly.faceHints(refined, frame);
    const MinkowskiVertex m = frame.support(alt.normal);
    if (glm::dot(m.w, alt.normal) - alt.distance <= eps) best = refined;
  }
  const EpaFace& f = poly.face(best);
  EpaResult r;
  r.status = status;
  r.iterations = iterations;
  r.depth = std::max(f.distance, 0.0);
  if (status == EpaStatus::Converged && r.depth <= settings.tolerance * size)
    r.status = EpaStatus::Touching;
  r.normal = glm::normalize(frame.toWorldDirection(f.normal));
  Vec3 pa{0.0}, pb{0.0};
  poly.witnesses(best, pa, pb);
  r.pointA = frame.toWorld(pa);
  r.pointB = frame.toWorld(pb);
  if (trace) record(*trace, poly, frame, best);
  return r;
}

}  // namespace

EpaResult epaPenetration(const SupportShape& a, const Transform& xa, const SupportShape& b,
                         const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk) {
  return runEpa(a, xa, b, xb, settings, gjk, nullptr);
}

EpaResult epaPenetration(const SupportShape& a, const Transform& xa, const SupportShape& b,
                         const Transform& xb, const Settings::Epa& settings, const GjkResult& gjk,
                         EpaTrace* trace) {
  return runEpa(a, xa, b, xb, settings, gjk, trace);
}

}  // namespace tumble
