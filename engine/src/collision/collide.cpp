// Contact manifolds. Between two convex hulls: GJK distance with a speculative margin, EPA depth
// when overlapping, then the two supporting faces along the contact normal are clipped against
// each other in projection along the normal (Sutherland-Hodgman; Ericson 8.3.4; Gregorius,
// "Robust Contact Creation for Physics Simulations", GDC 2015) and reduced to at most 4 points.
// Round shapes (spheres, capsules: a core plus a radius) take GJK/EPA on the cores, or closed
// forms where two cores are points and segments, and points on the surfaces the radii further out.
// Stateless: matching with last step's manifold is the world's (dynamics/contact_update.cpp).
#include "tumble/collide.h"

#include "collision/collide_internal.h"
#include "geometry/core_point.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/hull.h"
#include "tumble/support.h"

namespace tumble {

namespace detail {

int supportFace(const ConvexHull& hull, const Quat& rotation, const Vec3& worldDir) {
  const Vec3 d = glm::conjugate(rotation) * worldDir;
  const auto& faces = hull.faces();
  int best = 0;
  Real bestDot = glm::dot(faces[0].normal, d);
  for (int i = 1; i < static_cast<int>(faces.size()); ++i) {
    const Real v = glm::dot(faces[i].normal, d);
    if (v > bestDot) {
      bestDot = v;
      best = i;
    }
  }
  return best;
}

uint32_t makeId(int faceA, int faceB, int edgeA, uint32_t sub) {
  return (static_cast<uint32_t>(faceA & 0xFF) << 24) | (static_cast<uint32_t>(faceB & 0xFF) << 16) |
         (static_cast<uint32_t>((edgeA + 1) & 0xFF) << 8) | (sub & 0xFF);
}

// Keeps the part of the polygon in[0..n) with dot(m, p) >= d; writes it to `out` (room for
// n + 1 vertices) and returns its vertex count.
int clipPolygon(const ClipVertex* in, int n, const Vec3& m, Real d, int faceA, int faceB, int edgeA,
                ClipVertex* out) {
  int count = 0;
  Real dNext = glm::dot(m, in[0].p) - d;
  const Real d0 = dNext;
  for (int i = 0; i < n; ++i) {
    const ClipVertex& cur = in[i];
    const ClipVertex& next = in[i + 1 < n ? i + 1 : 0];
    const Real dc = dNext;
    const Real dn = i + 1 < n ? glm::dot(m, next.p) - d : d0;
    dNext = dn;
    if (dc >= 0.0) out[count++] = cur;
    if ((dc >= 0.0) != (dn >= 0.0)) {
      const Real t = dc / (dc - dn);
      out[count++] = {cur.p + t * (next.p - cur.p), makeId(faceA, faceB, edgeA, cur.id & 0xFF)};
    }
  }
  return count;
}

// Keeps at most 4 of the candidates: the deepest, the farthest from it, the one spanning the
// largest triangle with those two, and the largest on the other side (Gregorius 2015).
void reduce(std::vector<Candidate>& c, const Vec3& normal, Real tie) {
  // Scores must beat the best so far by this factor (1 when tie = 0: a plain maximum).
  const Real more = 1.0 + tie;
  if (c.size() <= 4) return;
  size_t i0 = 0;
  for (size_t i = 1; i < c.size(); ++i)
    if (c[i].separation < c[i0].separation - tie * std::abs(c[i0].separation)) i0 = i;
  size_t i1 = i0;
  Real best = -1.0;
  for (size_t i = 0; i < c.size(); ++i) {
    const Vec3 d = c[i].onB - c[i0].onB;
    if (glm::dot(d, d) > best * more) best = glm::dot(d, d), i1 = i;
  }
  size_t i2 = i0;
  Real bestArea = 0.0;
  const Vec3 e = c[i1].onB - c[i0].onB;
  for (size_t i = 0; i < c.size(); ++i) {
    const Real a = glm::dot(glm::cross(e, c[i].onB - c[i0].onB), normal);
    if (std::abs(a) > std::abs(bestArea) * more) bestArea = a, i2 = i;
  }
  // The fourth adds the largest triangle outside (i0, i1, i2): on the far side of one of its
  // edges, usually i0-i1 (i2 was the largest on the near side). A point outside edge (p, q) has
  // cross(q - p, x - p) . normal of the sign opposite to the triangle's orientation.
  const Real orientation = bestArea > 0.0 ? 1.0 : -1.0;
  const size_t edges[3][2] = {{i0, i1}, {i1, i2}, {i2, i0}};
  size_t i3 = i0;
  Real bestOther = 0.0;
  for (size_t i = 0; i < c.size(); ++i) {
    Real a = 0.0;
    for (const auto& edge : edges) {
      const Vec3 p = c[edge[0]].onB;
      a = std::max(a,
                   -orientation * glm::dot(glm::cross(c[edge[1]].onB - p, c[i].onB - p), normal));
    }
    if (a > bestOther * more) bestOther = a, i3 = i;
  }
  Candidate keep[4];
  int kept = 0;
  const size_t picks[4] = {i0, i1, i2, i3};
  for (int k = 0; k < 4; ++k) {
    bool seen = false;
    for (int j = 0; j < k; ++j) seen = seen || picks[j] == picks[k];
    if (!seen) keep[kept++] = c[picks[k]];
  }
  c.assign(keep, keep + kept);
}

// One contact point from points on the two cores (cA on A's core, cB on B's) and the unit normal
// from A to B, `coreSep` their distance along it: the surfaces lie the radii further in.
CollidePoint roundPoint(const Vec3& cA, const Vec3& normal, Real coreSep, Real rA, Real rB,
                        uint32_t id) {
  CollidePoint p;
  p.separation = coreSep - rA - rB;
  p.pointA = cA + rA * normal;
  p.pointB = p.pointA + p.separation * normal;
  p.id = id;
  return p;
}

}  // namespace detail

using detail::Candidate;
using detail::clipPolygon;
using detail::ClipVertex;
using detail::kMinFaceAlignment;
using detail::kReferenceBias;
using detail::kSinglePointId;
using detail::kSnapAlignment;
using detail::makeId;
using detail::reduce;
using detail::roundPoint;
using detail::supportFace;

namespace {

// Clips the incident face polygon against the side planes of the reference face, the planes
// through each reference edge containing `dir` (unit, out of the reference body). Each clipped
// point q lies on the incident face; its separation is measured along `dir` to the reference
// face's plane. Candidates come out as (onA = point on reference, onB = point on incident).
void clipFaces(const ConvexHull& ref, const Transform& xr, int fr, const ConvexHull& inc,
               const Transform& xi, int fi, const Vec3& dir, Real speculative, int faceA, int faceB,
               std::vector<Candidate>& out) {
  // Each clip adds at most one vertex: nInc + nRef bounds every intermediate polygon.
  const auto& vi = inc.faces()[fi].vertices;
  const auto& rv = ref.vertices();
  const auto& vr = ref.faces()[fr].vertices;
  constexpr size_t kStack = 12;  // a box face against a box face needs 9
  ClipVertex stackA[kStack], stackB[kStack];
  static thread_local std::vector<ClipVertex> heapA, heapB;
  ClipVertex* poly = stackA;
  ClipVertex* tmp = stackB;
  if (vi.size() + vr.size() + 1 > kStack) {
    heapA.resize(vi.size() + vr.size() + 1);
    heapB.resize(vi.size() + vr.size() + 1);
    poly = heapA.data();
    tmp = heapB.data();
  }
  // Clip in the reference body's frame: its face and side planes need no transform, and the
  // incident face takes one matrix product per vertex. Only the kept points go back to world.
  const Quat invR = glm::conjugate(xr.rotation);
  const Mat3 rel = glm::mat3_cast(invR * xi.rotation);
  const Vec3 relT = invR * (xi.position - xr.position);
  const Vec3 dirL = invR * dir;
  int n = static_cast<int>(vi.size());
  for (int i = 0; i < n; ++i)
    poly[i] = {rel * inc.vertices()[vi[i]] + relT,
               makeId(faceA, faceB, -1, static_cast<uint32_t>(i))};
  Vec3 centroid(0.0);
  for (int v : vr) centroid += rv[v];
  centroid /= static_cast<Real>(vr.size());
  for (size_t k = 0; k < vr.size() && n > 0; ++k) {
    const Vec3& p0 = rv[vr[k]];
    const Vec3& p1 = rv[vr[(k + 1) % vr.size()]];
    Vec3 side = glm::cross(dirL, p1 - p0);
    if (glm::dot(side, centroid - p0) < 0.0) side = -side;
    const Real sl = glm::length(side);
    if (!(sl > 0.0)) continue;
    side /= sl;
    n = clipPolygon(poly, n, side, glm::dot(side, p0), faceA, faceB, static_cast<int>(k), tmp);
    std::swap(poly, tmp);
  }
  const Vec3& nr = ref.faces()[fr].normal;
  const Real align = glm::dot(nr, dirL);
  const Vec3& r0 = rv[vr[0]];
  const Mat3 toWorld = glm::mat3_cast(xr.rotation);
  for (int i = 0; i < n; ++i) {
    const ClipVertex& q = poly[i];
    const Real sep = glm::dot(q.p - r0, nr) / align;
    if (sep > speculative) continue;
    const Vec3 onInc = toWorld * q.p + xr.position;
    out.push_back({onInc - sep * dir, onInc, sep, q.id});
  }
}

// max over the shape of dot(world point, dir).
Real supportValue(const SupportShape& shape, const Transform& x, const Vec3& dir) {
  const Vec3 local = x.rotateInverse(dir);
  return glm::dot(shape.points[supportIndex(shape, local)], local) + glm::dot(x.position, dir);
}

// The face normal n (unit, from A towards B) of A or B that maximises the separation along n,
// min over B of dot(b, n) - max over A of dot(a, n): the separating-axis test over face normals.
Vec3 leastOverlapFaceNormal(const ConvexHull& ha, const SupportShape& a, const Transform& xa,
                            const ConvexHull& hb, const SupportShape& b, const Transform& xb) {
  Vec3 best(0.0, 1.0, 0.0);
  Real bestSep = -std::numeric_limits<Real>::infinity();
  auto consider = [&](const Vec3& n) {
    const Real sep = -supportValue(b, xb, -n) - supportValue(a, xa, n);
    if (sep > bestSep) bestSep = sep, best = n;
  };
  for (const HullFace& f : ha.faces()) consider(xa.rotate(f.normal));
  for (const HullFace& f : hb.faces()) consider(-xb.rotate(f.normal));
  return best;
}

// GCC 12's SLP vectorizer paired the two boxes' rotation matrices into fused multiply-subtract-
// adds (vfmsubadd) under -mavx2 -mfma although -ffp-contract=off forbids fusing (the avx2 build's
// contacts then differed from the default build's in the last bits): the box path's functions
// are kept out of it.
#if defined(__GNUC__) && !defined(__clang__)
#define TUMBLE_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define TUMBLE_NO_SLP
#endif

// Clips the incident face as clipFaces does (the same planes, in the order of the reference
// face's cycle, and the same ids) when the reference face is a box's and `dir` its normal: the
// side planes are the box's own face planes, so the clipping runs in the box's frame on one
// coordinate per plane. `ur` and `cr`: the reference box's axes and centre in world; `ri` and
// `pi`: the incident body's rotation and position.
TUMBLE_NO_SLP void clipBoxFaces(const HullBox& box, const Vec3 (&ur)[3], const Vec3& cr, int fr,
                                const ConvexHull& inc, const Mat3& ri, const Vec3& pi, int fi,
                                const Vec3& dir, Real speculative, int faceA, int faceB,
                                std::vector<Candidate>& out) {
  // Plain coordinates (glm's vector indexing is a switch on the index).
  struct Vertex {
    Real p[3];
    uint32_t id;
  };
  const auto& vi = inc.faces()[static_cast<size_t>(fi)].vertices;
  const size_t room = vi.size() + 5;  // each of the 4 planes adds at most one vertex
  constexpr size_t kStack = 12;
  Vertex stackA[kStack], stackB[kStack];
  static thread_local std::vector<Vertex> heapA, heapB;
  Vertex* poly = stackA;
  Vertex* tmp = stackB;
  if (room > kStack) {
    heapA.resize(room);
    heapB.resize(room);
    poly = heapA.data();
    tmp = heapB.data();
  }
  int n = static_cast<int>(vi.size());
  for (int i = 0; i < n; ++i) {
    const Vec3 d = ri * inc.vertices()[static_cast<size_t>(vi[static_cast<size_t>(i)])] + pi - cr;
    poly[i] = {{glm::dot(d, ur[0]), glm::dot(d, ur[1]), glm::dot(d, ur[2])},
               makeId(faceA, faceB, -1, static_cast<uint32_t>(i))};
  }
  for (int k = 0; k < 4 && n > 0; ++k) {
    // Keeps half - sign * p[axis] >= 0, as clipPolygon keeps dot(m, p) >= d.
    const int axis = box.edgeAxis[fr][k];
    const Real sign = box.edgeSign[fr][k], half = box.half[axis];
    int count = 0;
    const Real d0 = half - sign * poly[0].p[axis];
    Real dc = d0;
    for (int i = 0; i < n; ++i) {
      const Vertex& cur = poly[i];
      const Vertex& next = poly[i + 1 < n ? i + 1 : 0];
      const Real dn = i + 1 < n ? half - sign * next.p[axis] : d0;
      if (dc >= 0.0) tmp[count++] = cur;
      if ((dc >= 0.0) != (dn >= 0.0)) {
        const Real t = dc / (dc - dn);
        Vertex& v = tmp[count++];
        for (int c = 0; c < 3; ++c) v.p[c] = cur.p[c] + t * (next.p[c] - cur.p[c]);
        v.id = makeId(faceA, faceB, k, cur.id & 0xFF);
      }
      dc = dn;
    }
    n = count;
    std::swap(poly, tmp);
  }
  const int axis = box.faceAxis[fr];
  const Real sign = box.face[axis][0] == fr ? 1.0 : -1.0, half = box.half[axis];
  for (int i = 0; i < n; ++i) {
    const Vertex& q = poly[i];
    const Real sep = sign * q.p[axis] - half;
    if (sep > speculative) continue;
    const Vec3 onInc = cr + q.p[0] * ur[0] + q.p[1] * ur[1] + q.p[2] * ur[2];
    out.push_back({onInc - sep * dir, onInc, sep, q.id});
  }
}

// How a contact is made from its normal (unit, from A to B) and the two faces most aligned with
// it (A's, world normal na) and against it (B's, nb): a face contact when either is aligned
// within kSnapAlignment (the better aligned face is the reference and its normal the contact
// normal, so resting contacts do not inherit EPA's small normal noise; A wins near-ties), an
// edge-like contact (B's face clipped against A's in projection along the normal) when both
// lean towards it, else none: the caller's single closest-point contact. `clip(kind, dir)`
// appends the clipped candidates: FaceA, A's face the reference (dir na); FaceB, B's (dir nb,
// its candidates' onA on B's face until swapped here); EdgeLike, A's along the normal. `normal`
// becomes the reference face's in a face contact.
enum class Clip { None, FaceA, FaceB, EdgeLike };
template <class ClipFn>
Clip clipAlong(const Vec3& na, const Vec3& nb, Vec3& normal, std::vector<Candidate>& cand,
               ClipFn&& clip) {
  const Real alignA = glm::dot(na, normal), alignB = -glm::dot(nb, normal);
  if (std::max(alignA, alignB) > kSnapAlignment) {
    if (alignA >= alignB - kReferenceBias) {
      normal = na;
      clip(Clip::FaceA, na);
      return Clip::FaceA;
    }
    normal = -nb;
    clip(Clip::FaceB, nb);
    for (Candidate& c : cand) std::swap(c.onA, c.onB);
    return Clip::FaceB;
  }
  if (alignA > kMinFaceAlignment && alignB > kMinFaceAlignment) {
    clip(Clip::EdgeLike, normal);
    return Clip::EdgeLike;
  }
  return Clip::None;
}

// clipAlong for faces fa of A and fb of B, clipped by clipFaces.
Clip clipAlong(const ConvexHull& ha, const Transform& xa, int fa, const ConvexHull& hb,
               const Transform& xb, int fb, Real speculative, Vec3& normal,
               std::vector<Candidate>& cand) {
  const Vec3 na = xa.rotate(ha.faces()[static_cast<size_t>(fa)].normal);
  const Vec3 nb = xb.rotate(hb.faces()[static_cast<size_t>(fb)].normal);
  return clipAlong(na, nb, normal, cand, [&](Clip kind, const Vec3& dir) {
    if (kind == Clip::FaceB)
      clipFaces(hb, xb, fb, ha, xa, fa, dir, speculative, fa, fb, cand);
    else
      clipFaces(ha, xa, fa, hb, xb, fb, dir, speculative, fa, fb, cand);
  });
}

// The result's normal and points from the reduced candidates.
void setPoints(CollideResult& r, const Vec3& normal, const std::vector<Candidate>& cand) {
  r.normal = normal;
  r.pointCount = static_cast<int>(cand.size());
  for (int i = 0; i < r.pointCount; ++i)
    r.points[i] = {cand[i].onA, cand[i].onB, cand[i].separation, cand[i].id};
}

void closestSegmentSegment(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                           Real& sOut, Real& tOut);

// Two sharp boxes (HullBox) by the separating-axis test (Gottschalk, Lin and Manocha 1996;
// Ericson 4.4.1) instead of GJK and EPA: each box's three face normals and the nine cross
// products of their edges, in A's box frame. The axis of largest separation is exactly EPA's
// normal and depth when the boxes overlap (EPA's normal up to its rounding, its depth to about
// 1e-15 m on a heap's pairs), and when they are apart along a face axis, the normal GJK's closest
// points give. From that normal on, the contact is made as the general path makes it from GJK's
// or EPA's (collideHullPair): each box's face most aligned with it; a face contact (reference
// face, B only when clearly better aligned) or an edge-like one (B's face clipped against A's
// along the normal); one point, the closest points of the two edges, when clipping keeps none.
// Apart along an edge axis, those closest points are GJK's when they are no farther apart than
// the axis separates the boxes. Returns false, leaving `r` alone, where GJK is still needed:
// boxes farther apart than the speculative distance (its distance and witnesses; with `bound`,
// for collideBounded, the axis and separation there instead), apart with a corner nearest, or a
// face contact whose clipping keeps no point (rare: its witnesses).
// Kept out of GCC's SLP vectorizer (TUMBLE_NO_SLP, above clipBoxFaces).
TUMBLE_NO_SLP bool collideBoxes(const ConvexHull& ha, const HullBox& ba, const Transform& xa,
                                const ConvexHull& hb, const HullBox& bb, const Transform& xb,
                                Real speculative, CollideResult& r, detail::BoxBound* bound) {
  const Mat3 ra = glm::mat3_cast(xa.rotation), rb = glm::mat3_cast(xb.rotation);
  Vec3 ua[3], ub[3];
  for (int k = 0; k < 3; ++k) ua[k] = ra * ba.axis[k], ub[k] = rb * bb.axis[k];
  const Vec3 ca = xa.position + ra * ba.center, cb = xb.position + rb * bb.center;
  const Vec3 d = cb - ca;
  // R[i][j] = ua_i . ub_j; t = d in A's axes.
  Real R[3][3], absR[3][3], t[3];
  for (int i = 0; i < 3; ++i) {
    t[i] = glm::dot(d, ua[i]);
    for (int j = 0; j < 3; ++j) R[i][j] = glm::dot(ua[i], ub[j]), absR[i][j] = std::abs(R[i][j]);
  }
  // Plain arrays (glm's vector indexing is a switch on the index).
  const Real ea[3] = {ba.half.x, ba.half.y, ba.half.z};
  const Real eb[3] = {bb.half.x, bb.half.y, bb.half.z};
  constexpr int kNext[3] = {1, 2, 0}, kAfter[3] = {2, 0, 1};
  int faceA = 0, faceB = 0, edgeI = -1, edgeJ = -1;
  Real sepA = -std::numeric_limits<Real>::infinity(), sepB = sepA, sepEdge = sepA;
  for (int i = 0; i < 3; ++i) {
    const Real sep =
        std::abs(t[i]) - ea[i] - (eb[0] * absR[i][0] + eb[1] * absR[i][1] + eb[2] * absR[i][2]);
    if (sep > sepA) sepA = sep, faceA = i;
  }
  for (int j = 0; j < 3; ++j) {
    const Real sep = std::abs(glm::dot(d, ub[j])) - eb[j] -
                     (ea[0] * absR[0][j] + ea[1] * absR[1][j] + ea[2] * absR[2][j]);
    if (sep > sepB) sepB = sep, faceB = j;
  }
  // Farther apart along a face axis than the speculative distance: GJK's distance (no edges), or
  // for the world that face axis and separation.
  if (std::max(sepA, sepB) > speculative) {
    if (bound) {
      const bool ofB = sepB > sepA;
      const Vec3 axis = ofB ? ub[faceB] : ua[faceA];
      *bound = {true, ofB ? sepB : sepA, glm::dot(axis, d) < 0.0 ? -axis : axis};
    }
    return false;
  }
  // The edge axes, each only as far as it could beat the faces (an edge axis matters only when
  // it does; the division is skipped otherwise).
  Real beat = std::max(sepA, sepB);
  for (int i = 0; i < 3; ++i) {
    const int i1 = kNext[i], i2 = kAfter[i];
    for (int j = 0; j < 3; ++j) {
      // |ua_i x ub_j|, and d, A and B projected on it (ub_j in A's axes is column j of R).
      const Real length = std::sqrt(R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j]);
      if (length < 1e-6) continue;  // parallel edges: a face axis separates them as well
      const int j1 = kNext[j], j2 = kAfter[j];
      const Real rA = ea[i1] * absR[i2][j] + ea[i2] * absR[i1][j];
      const Real rB = eb[j1] * absR[i][j2] + eb[j2] * absR[i][j1];
      const Real gap = std::abs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) - rA - rB;
      if (!(gap > beat * length)) continue;
      beat = sepEdge = gap / length;
      edgeI = i, edgeJ = j;
    }
  }
  const Real separation = std::max({sepA, sepB, sepEdge});
  if (separation > speculative) {
    // An edge axis beyond reach (the faces' are not: above).
    if (bound) {
      const Vec3 axis = glm::normalize(glm::cross(ua[edgeI], ub[edgeJ]));
      *bound = {true, sepEdge, glm::dot(axis, d) < 0.0 ? -axis : axis};
    }
    return false;
  }
  // Ties (within 1e-12 of the boxes' size: rounding) go to A's faces, then to faces over edges,
  // whose axes are then the same direction; touching boxes go to GJK, whose verdict on them
  // (intersecting, within its own rounding) the test cannot reproduce.
  const Real scale = ha.radius() + hb.radius();
  const Real tie = 1e-12 * scale;
  if (std::abs(separation) <= tie) return false;
  const bool faceOfB = sepB > sepA + tie;
  const Real sepFace = faceOfB ? sepB : sepA;
  const bool edge = sepEdge > std::max(sepA, sepB) + tie;
  Vec3 normal = edge ? glm::cross(ua[edgeI], ub[edgeJ]) : (faceOfB ? ub[faceB] : ua[faceA]);
  if (glm::dot(normal, d) < 0.0) normal = -normal;
  // The edges of A and B that meet along an edge axis: A's along ua_i on the side facing B, B's
  // along ub_j on the side facing A; their closest points.
  Vec3 edgeA(0.0), edgeB(0.0);
  if (edge) {
    Vec3 pa = ca, pb = cb;
    for (int k = 0; k < 3; ++k) {
      if (k != edgeI) pa += (glm::dot(normal, ua[k]) > 0.0 ? ea[k] : -ea[k]) * ua[k];
      if (k != edgeJ) pb += (glm::dot(normal, ub[k]) < 0.0 ? eb[k] : -eb[k]) * ub[k];
    }
    const Vec3 sa = ea[edgeI] * ua[edgeI], sb = eb[edgeJ] * ub[edgeJ];
    Real u = 0.0, v = 0.0;
    closestSegmentSegment(pa - sa, pa + sa, pb - sb, pb + sb, u, v);
    edgeA = pa - sa + (2.0 * u) * sa;
    edgeB = pb - sb + (2.0 * v) * sb;
    if (separation >= 0.0) {
      // Apart: the edges' closest points are the boxes' when they are no farther apart than the
      // separation along the axis, a lower bound on the distance; GJK's normal is then theirs.
      // Otherwise (a corner nearer) GJK finds them.
      const Vec3 gap = edgeB - edgeA;
      const Real length = glm::length(gap);
      if (!(length <= separation + 1e-12 * scale) || !(length > 1e-12 * (1.0 + scale)))
        return false;
      normal = gap / length;
    }
  }
  normal = glm::normalize(normal);
  auto mostAligned = [](const HullBox& box, const Vec3* u, const Vec3& n) {
    int k = 0;
    Real best = -1.0;
    for (int i = 0; i < 3; ++i)
      if (std::abs(glm::dot(n, u[i])) > best) best = std::abs(glm::dot(n, u[i])), k = i;
    return box.face[k][glm::dot(n, u[k]) >= 0.0 ? 0 : 1];
  };
  const int fa = mostAligned(ba, ua, normal), fb = mostAligned(bb, ub, -normal);
  static thread_local std::vector<Candidate> cand;
  cand.clear();
  const Vec3 na = xa.rotate(ha.faces()[static_cast<size_t>(fa)].normal);
  const Vec3 nb = xb.rotate(hb.faces()[static_cast<size_t>(fb)].normal);
  const Clip clip = clipAlong(na, nb, normal, cand, [&](Clip kind, const Vec3& dir) {
    if (kind == Clip::FaceA)
      clipBoxFaces(ba, ua, ca, fa, hb, rb, xb.position, fb, dir, speculative, fa, fb, cand);
    else if (kind == Clip::FaceB)
      clipBoxFaces(bb, ub, cb, fb, ha, ra, xa.position, fa, dir, speculative, fa, fb, cand);
    else
      clipFaces(ha, xa, fa, hb, xb, fb, dir, speculative, fa, fb, cand);
  });
  if (!edge && separation > 0.0 && clip != Clip::None) {
    // Apart along a face axis: GJK's normal is that face's only when the boxes are as near as
    // the axis separates them, when a point of the other box's face clipped to the face's prism
    // is at that separation (else a corner or an edge off the face is nearest, and GJK finds
    // it). Checked on the reference face: GJK's when it is the axis's face.
    if ((clip == Clip::FaceB) != faceOfB) return false;
    Real nearest = std::numeric_limits<Real>::infinity();
    for (const Candidate& c : cand) nearest = std::min(nearest, c.separation);
    if (!(nearest <= sepFace + 1e-9 * scale)) return false;
  }
  if (cand.empty()) {
    if (!edge) return false;
    cand.push_back({edgeA, edgeB, separation, kSinglePointId});
  }
  reduce(cand, normal, detail::kHullReduceTie);
  r = CollideResult{};
  r.overlapping = separation < 0.0;
  r.distance = separation;
  r.gjk.status = r.overlapping ? GjkStatus::Intersecting : GjkStatus::Separated;
  r.gjk.distance = std::max(separation, Real(0.0));
  setPoints(r, normal, cand);
  return true;
}
#undef TUMBLE_NO_SLP

// Two hulls, sharp or rounded (a core hull plus a radius): everything on the cores, then for
// rounded ones each point moved out to the surfaces (roundPoint), the speculative cut on the
// rounded separation. Sharp hulls skip that step, so their results keep their bits.
CollideResult collideHullPair(const Shape& sa, const Transform& xa, const Shape& sb,
                              const Transform& xb, Real speculative, const Settings& s,
                              const GjkSimplex* warm, bool boxes,
                              detail::BoxBound* bound = nullptr) {
  const ConvexHull& ha = *sa.coreHull();
  const ConvexHull& hb = *sb.coreHull();
  const Real rA = sa.roundRadius(), rB = sb.roundRadius();
  const Real coreSpeculative = speculative + rA + rB;
  CollideResult r;
  if (boxes && rA == 0.0 && rB == 0.0 && ha.box() && hb.box()) {
    if (collideBoxes(ha, *ha.box(), xa, hb, *hb.box(), xb, speculative, r, bound)) return r;
    if (bound && bound->bounded) {
      r.distance = bound->distance;
      return r;
    }
  }
  const SupportShape a = ha.supportShape(), b = hb.supportShape();
  const GjkResult& g = r.gjk = gjkDistance(a, xa, b, xb, s.gjk, warm);
  r.overlapping = g.intersecting() || g.distance < rA + rB;
  r.distance = g.distance - rA - rB;

  Vec3 normal;
  Vec3 witnessA, witnessB;
  Real separation;
  if (g.intersecting()) {
    const EpaResult& e = r.epa = epaPenetration(a, xa, b, xb, s.epa, g);
    normal = e.normal;
    witnessA = e.pointA;
    witnessB = e.pointB;
    separation = -e.depth;
    r.distance = -e.depth - rA - rB;
  } else {
    if (g.distance > coreSpeculative) return r;
    const Vec3 d = g.pointB - g.pointA;
    const Real len = glm::length(d);
    // Relative to the shapes' size: their radii about their own origins. (Before collide() was
    // split out of the world, the bodies' radii about their centres of mass; the same for shapes
    // centred on their origin, and it left the golden hash and tests/data unchanged.)
    if (len > 1e-12 * (1.0 + sa.radius() + sb.radius())) {
      normal = d / len;
    } else {
      // Touching (GJK's witnesses coincide, so they give no direction): the face normal of either
      // hull along which the two overlap least. The direction between the centres would do for
      // shapes of like size, but a box resting on a 200 m ground would get a normal towards the
      // ground's side, 90 m deep.
      normal = leastOverlapFaceNormal(ha, a, xa, hb, b, xb);
    }
    witnessA = g.pointA;
    witnessB = g.pointB;
    separation = g.distance;
  }

  static thread_local std::vector<Candidate> cand;
  cand.clear();
  const int fa = supportFace(ha, xa.rotation, normal);
  const int fb = supportFace(hb, xb.rotation, -normal);
  clipAlong(ha, xa, fa, hb, xb, fb, coreSpeculative, normal, cand);
  if (cand.empty()) cand.push_back({witnessA, witnessB, separation, kSinglePointId});
  reduce(cand, normal, detail::kHullReduceTie);
  if (rA > 0.0 || rB > 0.0) {
    // Every candidate has onB = onA + separation * normal on the cores.
    size_t kept = 0;
    for (const Candidate& c : cand) {
      const CollidePoint p = roundPoint(c.onA, normal, c.separation, rA, rB, c.id);
      if (p.separation <= speculative) cand[kept++] = {p.pointA, p.pointB, p.separation, p.id};
    }
    cand.resize(kept);
  }
  setPoints(r, normal, cand);
  return r;
}

CollideResult collideHulls(const Shape& sa, const Transform& xa, const Shape& sb,
                           const Transform& xb, Real speculative, const Settings& s,
                           const GjkSimplex* warm) {
  return collideHullPair(sa, xa, sb, xb, speculative, s, warm, true);
}

// ---- Round shapes: a core (point, segment or hull) plus a radius ----

CollideResult single(const CollidePoint& p, const Vec3& normal, Real speculative) {
  CollideResult r;
  r.overlapping = p.separation < 0.0;
  r.distance = p.separation;
  if (p.separation > speculative) return r;
  r.normal = normal;
  r.pointCount = 1;
  r.points[0] = p;
  return r;
}

// A unit vector perpendicular to `axis` (unit), the one nearest to `hint` when that is not along
// the axis.
Vec3 perpendicular(const Vec3& axis, const Vec3& hint) {
  Vec3 v = hint - glm::dot(hint, axis) * axis;
  Real len = glm::length(v);
  if (len > 1e-9 * (1.0 + glm::length(hint))) return v / len;
  v = std::abs(axis.x) < 0.577 ? Vec3(1.0, 0.0, 0.0) : Vec3(0.0, 1.0, 0.0);
  v -= glm::dot(v, axis) * axis;
  return v / glm::length(v);
}

// The closest point of segment [p, q] to x.
Vec3 closestOnSegment(const Vec3& p, const Vec3& q, const Vec3& x) {
  const Vec3 e = q - p;
  const Real ee = glm::dot(e, e);
  if (!(ee > 0.0)) return p;
  return p + std::clamp(glm::dot(x - p, e) / ee, Real(0.0), Real(1.0)) * e;
}

// The core of a round shape in world space: its one or two points.
struct WorldCore {
  Vec3 p[2];
  int count;
  Real radius;
};

WorldCore worldCore(const Shape& s, const Transform& x) {
  const RoundCore& c = *s.round();
  const Vec3 first = detail::applyToCorePoint(x, c.points[0]);
  WorldCore w{{first, c.count > 1 ? x.apply(c.points[c.count - 1]) : first}, c.count, c.radius};
  return w;
}

// Closest points of segments [p0, p1] and [q0, q1]: s and t in [0, 1] along each (Ericson,
// Real-Time Collision Detection, 5.1.9, degenerate segments included).
void closestSegmentSegment(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                           Real& sOut, Real& tOut) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const Real a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
  Real s = 0.0, t = 0.0;
  if (!(a > 0.0) && !(e > 0.0)) {
    // both points
  } else if (!(a > 0.0)) {
    t = std::clamp(f / e, Real(0.0), Real(1.0));
  } else {
    const Real c = glm::dot(d1, r);
    if (!(e > 0.0)) {
      s = std::clamp(-c / a, Real(0.0), Real(1.0));
    } else {
      const Real b = glm::dot(d1, d2);
      const Real denom = a * e - b * b;
      s = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, Real(0.0), Real(1.0)) : 0.0;
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = std::clamp(-c / a, Real(0.0), Real(1.0));
      } else if (t > 1.0) {
        t = 1.0;
        s = std::clamp((b - c) / a, Real(0.0), Real(1.0));
      }
    }
  }
  sOut = s;
  tOut = t;
}

// Narrows [lo, hi] (parameters along the segment p0 + t e) to the part on the inner side of
// the plane through `on` with inward normal `side`; an empty part leaves hi < lo.
void clipSegment(const Vec3& side, const Vec3& on, const Vec3& p0, const Vec3& e, Real& lo,
                 Real& hi) {
  const Real d0 = glm::dot(side, p0 - on), de = glm::dot(side, e);
  if (de == 0.0) {
    if (d0 < 0.0) hi = -1.0;
  } else if (de > 0.0) {
    lo = std::max(lo, -d0 / de);
  } else {
    hi = std::min(hi, -d0 / de);
  }
}

CollideResult collideSpheres(const Shape& sa, const Transform& xa, const Shape& sb,
                             const Transform& xb, Real speculative, const Settings&,
                             const GjkSimplex*) {
  Vec3 n;
  const CollidePoint p = detail::spherePoint(sa, xa, sb, xb, n);
  return single(p, n, speculative);
}

CollideResult collideCapsuleSphere(const Shape& sa, const Transform& xa, const Shape& sb,
                                   const Transform& xb, Real speculative, const Settings&,
                                   const GjkSimplex*) {
  const WorldCore a = worldCore(sa, xa), b = worldCore(sb, xb);
  const Vec3 c = closestOnSegment(a.p[0], a.p[1], b.p[0]);
  const Vec3 d = b.p[0] - c;
  const Real len = glm::length(d);
  const Vec3 n =
      len > 0.0 ? d / len : perpendicular(glm::normalize(a.p[1] - a.p[0]), Vec3(0, 1, 0));
  return single(roundPoint(c, n, len, a.radius, b.radius, kSinglePointId), n, speculative);
}

// Two capsules. Their segments' closest points give the normal and the first point. Where B's
// segment projects onto A's over some length, the two ends of that overlap on A are candidates
// too, each at its own distance between the cores (never nearer than the cores are there) and
// kept when within the speculative distance: a capsule lying parallel on another rests on the two
// ends (as near as the closest point, which lies between them), crossed ones keep the closest
// point too, and one turning onto another is met at the end it turns down before that end sinks
// in. With the closest point alone, or the ends only within about 3 degrees of parallel, the
// 2000-capsule heap pressed capsules up to 235 mm (of their 300 mm radius) into their
// neighbours as they landed: each turned about its single contact point.
CollideResult collideCapsules(const Shape& sa, const Transform& xa, const Shape& sb,
                              const Transform& xb, Real speculative, const Settings&,
                              const GjkSimplex*) {
  const WorldCore a = worldCore(sa, xa), b = worldCore(sb, xb);
  Real s = 0.0, t = 0.0;
  closestSegmentSegment(a.p[0], a.p[1], b.p[0], b.p[1], s, t);
  const Vec3 eA = a.p[1] - a.p[0], eB = b.p[1] - b.p[0];
  const Vec3 cA = a.p[0] + s * eA, cB = b.p[0] + t * eB;
  const Vec3 d = cB - cA;
  const Real len = glm::length(d);
  const Real lenA = glm::length(eA), lenB = glm::length(eB);
  Vec3 n;
  if (len > 1e-12 * (1.0 + lenA + lenB)) {
    n = d / len;
  } else {
    // The cores cross: any direction across A's axis (towards B's centre where it is not along).
    const Vec3 axis = lenA > 0.0 ? eA / lenA : (lenB > 0.0 ? eB / lenB : Vec3(0.0, 1.0, 0.0));
    n = perpendicular(axis, 0.5 * (b.p[0] + b.p[1]) - 0.5 * (a.p[0] + a.p[1]));
  }
  CollideResult r =
      single(roundPoint(cA, n, len, a.radius, b.radius, kSinglePointId), n, speculative);
  if (!(lenA > 0.0 && lenB > 0.0)) return r;
  if (r.pointCount == 0) return r;  // the closest point is beyond reach: so is the rest
  const Vec3 uA = eA / lenA;
  // B's ends projected on A's axis, clipped to A: the overlap [lo, hi] along A (metres from a0).
  Real t0 = glm::dot(b.p[0] - a.p[0], uA), t1 = glm::dot(b.p[1] - a.p[0], uA);
  if (t0 > t1) std::swap(t0, t1);
  const Real lo = std::max<Real>(0.0, t0), hi = std::min(lenA, t1);
  const Real tol = 1e-3 * (lenA + a.radius);  // lengths below this are one place
  if (!(hi - lo > tol)) return r;
  CollidePoint ends[2];
  int within = 0;
  for (int k = 0; k < 2; ++k) {
    const Vec3 pA = a.p[0] + (k == 0 ? lo : hi) * uA;
    const Vec3 pB = closestOnSegment(b.p[0], b.p[1], pA);
    const CollidePoint p =
        roundPoint(pA, n, glm::length(pB - pA), a.radius, b.radius, static_cast<uint32_t>(k));
    if (p.separation <= speculative) ends[within++] = p;
  }
  if (within == 0) return r;
  // One end alone beside the closest point: not where the closest point already is.
  if (within == 1 && glm::length(ends[0].pointA - r.points[0].pointA) <= tol) return r;
  // Two ends as near as the closest point (lying parallel) span it; crossed, the closest point
  // stays between them (the ends alone would let the crossing sink by their extra distance).
  // (`r` itself, so that every return is the one named result, built in the caller's place: a
  // second result object cost a 600-byte move on every return.)
  if (within == 2 &&
      std::min(ends[0].separation, ends[1].separation) <= r.points[0].separation + tol)
    r.pointCount = 0;
  for (int k = 0; k < within; ++k) r.points[r.pointCount++] = ends[k];
  return r;
}

}  // namespace

CollidePoint detail::spherePoint(const Shape& sa, const Transform& xa, const Shape& sb,
                                 const Transform& xb, Vec3& normal) {
  const RoundCore& a = *sa.round();
  const RoundCore& b = *sb.round();
  const Vec3 ca = detail::applyToCorePoint(xa, a.points[0]);
  const Vec3 d = detail::applyToCorePoint(xb, b.points[0]) - ca;
  const Real len = glm::length(d);
  normal = len > 0.0 ? d / len : Vec3(0.0, 1.0, 0.0);
  return roundPoint(ca, normal, len, a.radius, b.radius, kSinglePointId);
}

CollideResult collideCores(const Shape& sa, const Transform& xa, const Shape& sb,
                           const Transform& xb, Real speculative, const Settings& s,
                           const GjkSimplex* warm) {
  const SupportShape a = sa.support(), b = sb.support();
  const Real rA = sa.roundRadius(), rB = sb.roundRadius();
  CollideResult r;
  const GjkResult& g = r.gjk = gjkDistance(a, xa, b, xb, s.gjk, warm);
  Vec3 normal, cA;
  Real coreSep;
  if (g.intersecting()) {
    const EpaResult& e = r.epa = epaPenetration(a, xa, b, xb, s.epa, g);
    normal = e.normal;
    cA = e.pointA;
    coreSep = -e.depth;
  } else {
    coreSep = g.distance;
    if (coreSep - rA - rB > speculative) {
      r.distance = coreSep - rA - rB;
      return r;
    }
    const Vec3 d = g.pointB - g.pointA;
    const Real len = glm::length(d);
    if (len > 1e-12 * (1.0 + sa.radius() + sb.radius())) {
      normal = d / len;
    } else {
      // The cores touch: their witnesses give no direction; the one between the shapes' origins.
      const Vec3 c = xb.position - xa.position;
      const Real cl = glm::length(c);
      normal = cl > 0.0 ? c / cl : Vec3(0.0, 1.0, 0.0);
    }
    cA = g.pointA;
  }
  const GjkResult gjk = r.gjk;
  const EpaResult epa = r.epa;
  r = single(roundPoint(cA, normal, coreSep, rA, rB, kSinglePointId), normal, speculative);
  r.gjk = gjk;
  r.epa = epa;
  return r;
}

namespace {

// A point (a sphere's core) against a hull's core where the point's nearest feature of the hull
// is a face: the largest of the face planes' distances is then the distance between the cores
// (below zero inside the hull: the depth, the nearest plane being the nearest boundary), and that
// face's normal the direction out of the hull. Outside the hull the point's foot on that plane must
// lie on the face (every plane's distance at the foot at most a rounding above zero); otherwise an
// edge or a vertex is nearest and GJK decides (false). A ball on the ground or on a hull's face
// costs one pass over the faces instead of GJK: in the 2000-sphere heap (README, "Shapes") the
// sphere/hull pairs took 0.50 G instructions over 600 steps instead of 1.41 G.
struct PointFace {
  Real coreSep;  // m, between the point and the hull's core
  Vec3 onHull;   // world, the nearest point of the core
  Vec3 normal;   // world, unit, out of the hull through the face
  int face;      // the face's index
};
// Whether the foot of local point p on face f's plane (p at distance s from it) lies on the face.
// Above the plane (s > 0): every plane's distance at the foot at most a rounding above zero, and
// then p's distance to the hull is s (the plane bounds the hull, and the foot is in it). Below it
// (s <= 0, f the nearest plane of a point inside) the foot always is.
bool footOnFace(const ConvexHull& hull, const Vec3& p, int f, Real s, PointFace& out,
                const Transform& xh) {
  const Vec3& n = hull.faces()[f].normal;
  const Vec3 foot = p - s * n;
  if (s > 0.0) {
    const Real tol = 1e-12 * (hull.radius() + s);
    for (const HullFace& g : hull.faces())
      if (glm::dot(g.normal, foot) - g.offset > tol) return false;
  }
  out = {s, xh.apply(foot), xh.rotate(n), f};
  return true;
}

bool pointOnFace(const ConvexHull& hull, const Transform& xh, const Vec3& world, PointFace& out) {
  const Vec3 p = xh.applyInverse(world);
  const std::vector<HullFace>& faces = hull.faces();
  int best = -1;
  Real s = -std::numeric_limits<Real>::infinity();
  for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
    const Real d = glm::dot(faces[f].normal, p) - faces[f].offset;
    if (d > s) {
      s = d;
      best = f;
    }
  }
  if (best < 0 || !std::isfinite(s)) return false;
  return footOnFace(hull, p, best, s, out, xh);
}

// The same for a point known to lie above face f (another point's face): no search of the faces.
bool pointAboveFace(const ConvexHull& hull, const Transform& xh, const Vec3& world, int f,
                    PointFace& out) {
  const Vec3 p = xh.applyInverse(world);
  const Real s = glm::dot(hull.faces()[f].normal, p) - hull.faces()[f].offset;
  return s > 0.0 && footOnFace(hull, p, f, s, out, xh);
}

// The cores' closest points where GJK would report them (separated cores): a pair beyond the
// speculative distance keeps their direction as its separating axis (world_narrow.cpp).
void withClosestPoints(CollideResult& r, const PointFace& f, const Vec3& onA, const Vec3& onB) {
  if (!(f.coreSep > 0.0)) return;
  r.gjk.distance = f.coreSep;
  r.gjk.pointA = onA;
  r.gjk.pointB = onB;
}

// A sphere and a hull or a rounded hull, the sphere A or B: pointOnFace, else the general path.
template <bool sphereIsA>
CollideResult collideSphereAndHull(const Shape& sa, const Transform& xa, const Shape& sb,
                                   const Transform& xb, Real speculative, const Settings& s,
                                   const GjkSimplex* warm) {
  const WorldCore c = sphereIsA ? worldCore(sa, xa) : worldCore(sb, xb);
  const Shape& hull = sphereIsA ? sb : sa;
  PointFace f;
  if (!pointOnFace(*hull.coreHull(), sphereIsA ? xb : xa, c.p[0], f))
    return collideCores(sa, xa, sb, xb, speculative, s, warm);
  const Vec3 n = sphereIsA ? -f.normal : f.normal;  // from A to B
  const Vec3& onA = sphereIsA ? c.p[0] : f.onHull;
  const Vec3& onB = sphereIsA ? f.onHull : c.p[0];
  CollideResult r =
      single(roundPoint(onA, n, f.coreSep, sa.roundRadius(), sb.roundRadius(), kSinglePointId), n,
             speculative);
  withClosestPoints(r, f, onA, onB);
  return r;
}

// A capsule (A) against a hull or a rounded hull (B, its radius honoured): the cores' closest
// points, and when the capsule lies along
// the hull's face (its axis within about 3 degrees of the face, the face within kSnapAlignment of
// the normal) the segment clipped to the face: two points, so a capsule rests on a box without
// rocking.
//
// When both ends of the segment lie above one face of the hull's core with their feet on it
// (pointOnFace), so does every point between (the face is convex), each at its plane distance:
// the nearer end is the closest point and the face's normal the direction, without GJK (a capsule
// on the ground or on a hull's face).
CollideResult collideCapsuleHull(const Shape& sa, const Transform& xa, const Shape& sb,
                                 const Transform& xb, Real speculative, const Settings& s,
                                 const GjkSimplex* warm) {
  const WorldCore a = worldCore(sa, xa);
  const ConvexHull& hb = *sb.coreHull();
  const Real rB = sb.roundRadius();
  PointFace end[2];
  CollideResult r;
  int fb = -1;
  if (pointOnFace(hb, xb, a.p[0], end[0]) && end[0].coreSep > 0.0 &&
      pointAboveFace(hb, xb, a.p[1], end[0].face, end[1])) {
    const int k = end[1].coreSep < end[0].coreSep ? 1 : 0;
    const PointFace& f = end[k];
    r = single(roundPoint(a.p[k], -f.normal, f.coreSep, a.radius, rB, kSinglePointId), -f.normal,
               speculative);
    withClosestPoints(r, f, a.p[k], f.onHull);
    fb = f.face;
    // The other end too where it is within the speculative distance, each end at its own plane
    // distance (ids 0 and 1, the ends' as the clipped segment's below): a capsule tilted more
    // than the parallel test allows, turning down onto the face, is met at the end it turns down
    // before that end sinks in. (With the nearer end alone, capsules of the 2000-capsule heap
    // landing tilted by a few degrees pressed their far end 43-66 mm into the ground within a
    // step, no point being there to stop it.)
    const CollidePoint other = roundPoint(a.p[1 - k], -f.normal, end[1 - k].coreSep, a.radius, rB,
                                          static_cast<uint32_t>(1 - k));
    if (r.pointCount == 1 && other.separation <= speculative) {
      r.points[0].id = static_cast<uint32_t>(k);
      r.points[1] = other;
      r.pointCount = 2;
    }
  } else {
    r = collideCores(sa, xa, sb, xb, speculative, s, warm);
  }
  if (r.pointCount == 0) return r;
  const Vec3 e = a.p[1] - a.p[0];
  const Real len = glm::length(e);
  if (!(len > 0.0)) return r;
  if (fb < 0) fb = supportFace(hb, xb.rotation, -r.normal);
  const Vec3 nb = xb.rotate(hb.faces()[fb].normal);
  if (-glm::dot(nb, r.normal) < kSnapAlignment || std::abs(glm::dot(e / len, nb)) > 0.05) return r;
  // Clip the segment to the face's side planes (through each edge, containing nb).
  Real lo = 0.0, hi = 1.0;
  const auto& fv = hb.faces()[fb].vertices;
  Vec3 centroid(0.0);
  for (int v : fv) centroid += xb.apply(hb.vertices()[v]);
  centroid /= static_cast<Real>(fv.size());
  for (size_t k = 0; k < fv.size(); ++k) {
    const Vec3 p0 = xb.apply(hb.vertices()[fv[k]]);
    Vec3 side = glm::cross(nb, xb.apply(hb.vertices()[fv[(k + 1) % fv.size()]]) - p0);
    if (glm::dot(side, centroid - p0) < 0.0) side = -side;  // inward
    clipSegment(side, p0, a.p[0], e, lo, hi);
  }
  if (!(hi - lo > 1e-6)) return r;
  const Vec3 onFace = xb.apply(hb.vertices()[fv[0]]);
  CollideResult two;
  two.gjk = r.gjk;
  two.epa = r.epa;
  two.overlapping = r.overlapping;
  two.distance = r.distance;
  two.normal = -nb;
  for (int k = 0; k < 2; ++k) {
    const Vec3 c = a.p[0] + (k == 0 ? lo : hi) * e;
    const CollidePoint p =
        roundPoint(c, -nb, glm::dot(c - onFace, nb), a.radius, rB, static_cast<uint32_t>(k));
    if (p.separation <= speculative) two.points[two.pointCount++] = p;
  }
  return two.pointCount > 0 ? two : r;
}

// ---- Triangles of meshes and height fields against convex shapes ----

// The points of `poly` (world) clipped to the prism over triangle t (its three side planes, each
// through an edge and containing the face normal).
int clipToTriangle(const Vec3 (&v)[3], const Vec3& n, ClipVertex* poly, int count,
                   ClipVertex* tmp) {
  for (int k = 0; k < 3 && count > 0; ++k) {
    const Vec3& p0 = v[k];
    const Vec3& p1 = v[(k + 1) % 3];
    Vec3 side = glm::cross(n, p1 - p0);  // inward for a counter-clockwise triangle
    const Real len = glm::length(side);
    if (!(len > 0.0)) continue;
    side /= len;
    count = clipPolygon(poly, count, side, glm::dot(side, p0), 0, 0, k, tmp);
    std::copy(tmp, tmp + count, poly);
  }
  return count;
}

// Barycentric weights of p (on the triangle's plane, or near it) for a, b, c.
void barycentric(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& p, Real w[3]) {
  const Vec3 e0 = b - a, e1 = c - a, d = p - a;
  const Real d00 = glm::dot(e0, e0), d01 = glm::dot(e0, e1), d11 = glm::dot(e1, e1);
  const Real d20 = glm::dot(d, e0), d21 = glm::dot(d, e1);
  const Real den = d00 * d11 - d01 * d01;
  const Real v = (d11 * d20 - d01 * d21) / den, u = (d00 * d21 - d01 * d20) / den;
  w[0] = 1.0 - v - u;
  w[1] = v;
  w[2] = u;
}

}  // namespace

CollideResult collideTriangle(const TriangleRef& local, const Transform& xt, const Shape& b,
                              const Transform& xb, Real speculative, const Settings& s) {
  CollideResult r;
  const Vec3 v[3] = {xt.apply(local.v[0]), xt.apply(local.v[1]), xt.apply(local.v[2])};
  const Vec3 nT = xt.rotate(local.normal);
  // One-sided: a shape whose origin lies behind the triangle's plane does not touch it.
  if (glm::dot(xb.position - v[0], nT) < 0.0) return r;
  SupportShape tri;
  tri.points = std::span<const Vec3>(v, 3);
  const SupportShape core = b.support();
  const Real rB = b.roundRadius();
  const GjkResult& g = r.gjk = gjkDistance(tri, Transform{}, core, xb, s.gjk);
  Vec3 n = nT, witness = g.pointA;
  Real coreSep = 0.0;
  bool faceNormal = false;
  if (!g.intersecting()) {
    coreSep = g.distance;
    if (coreSep - rB > speculative) {
      r.distance = coreSep - rB;
      return r;
    }
    const Vec3 d = g.pointB - g.pointA;
    const Real len = glm::length(d);
    if (len > 1e-12 * (1.0 + b.radius()))
      n = d / len;
    else
      faceNormal = true;
  } else if (b.coreHull() != nullptr || b.cylinder() != nullptr) {
    const EpaResult& e = r.epa = epaPenetration(tri, Transform{}, core, xb, s.epa, g);
    n = e.normal;
    witness = e.pointA;
    coreSep = -e.depth;
  } else {
    faceNormal = true;  // a point or segment core through the triangle: A - B is flat
  }
  // Found on an edge or a vertex: an inactive one (flush or concave with its neighbour) does not
  // push sideways, however slightly (a normal tilted 4 degrees against a ball rolling at 5 m/s
  // is a 0.35 m/s bump); the face normal does, and only where the shape lies over this triangle
  // (the neighbour it lies over has the contact).
  constexpr Real kOnFeature = 1e-6;
  bool inactiveFeature = false;
  if (!faceNormal) {
    Real w[3];
    barycentric(v[0], v[1], v[2], witness, w);
    bool onActive = false;
    for (int e = 0; e < 3; ++e)  // edge e runs v[e] -> v[e + 1]; its opposite vertex is e + 2
      if (w[(e + 2) % 3] <= kOnFeature && (local.active & (1u << e))) onActive = true;
    const bool interior = w[0] > kOnFeature && w[1] > kOnFeature && w[2] > kOnFeature;
    if (!interior && (!onActive || glm::dot(n, nT) < 0.0)) faceNormal = inactiveFeature = true;
  }
  if (faceNormal) {
    n = nT;
    // The deepest core point below (or nearest above) the plane.
    coreSep = std::numeric_limits<Real>::infinity();
    if (const CylinderCore* cyl = b.cylinder()) {
      const Vec3 wp = xb.apply(cyl->support.support(xb.rotateInverse(-nT)));
      coreSep = glm::dot(wp - v[0], nT);
      witness = wp - coreSep * nT;
    } else {
      for (const Vec3& p : core.points) {
        const Vec3 wp = xb.apply(p);
        const Real d = glm::dot(wp - v[0], nT);
        if (d < coreSep) coreSep = d, witness = wp - d * nT;
      }
    }
    if (coreSep - rB > speculative) {
      r.distance = coreSep - rB;
      return r;
    }
  }
  r.overlapping = coreSep - rB < 0.0;
  r.distance = coreSep - rB;

  static thread_local std::vector<Candidate> cand;
  cand.clear();
  const bool alongFace = glm::dot(n, nT) > kSnapAlignment;
  if (const ConvexHull* hb = b.coreHull()) {
    // Clipped on B's core (a rounded hull's core hull); the points are moved out by rB below.
    const Real coreSpeculative = speculative + rB;
    const int fb = supportFace(*hb, xb.rotation, -n);
    const Vec3 nb = xb.rotate(hb->faces()[fb].normal);
    const auto& fv = hb->faces()[fb].vertices;
    const Real alignB = -glm::dot(nb, n);
    ClipVertex polyA[24], polyB[24];
    if (alongFace && fv.size() + 4 <= 24) {
      // The triangle is the reference: B's face clipped to its prism.
      n = nT;
      int count = 0;
      for (size_t i = 0; i < fv.size(); ++i)
        polyA[count++] = {xb.apply(hb->vertices()[fv[i]]), static_cast<uint32_t>(i)};
      count = clipToTriangle(v, nT, polyA, count, polyB);
      for (int i = 0; i < count; ++i) {
        const Real sep = glm::dot(polyA[i].p - v[0], nT);
        if (sep <= coreSpeculative)
          cand.push_back({polyA[i].p - sep * nT, polyA[i].p, sep, polyA[i].id});
      }
    } else if (alignB > kSnapAlignment && fv.size() + 4 <= 24) {
      // B's face is the reference: the triangle clipped to its side planes.
      n = -nb;
      int count = 3;
      for (int i = 0; i < 3; ++i) polyA[i] = {v[i], static_cast<uint32_t>(i)};
      Vec3 centroid(0.0);
      for (int vi : fv) centroid += xb.apply(hb->vertices()[vi]);
      centroid /= static_cast<Real>(fv.size());
      for (size_t k = 0; k < fv.size() && count > 0; ++k) {
        const Vec3 p0 = xb.apply(hb->vertices()[fv[k]]);
        const Vec3 p1 = xb.apply(hb->vertices()[fv[(k + 1) % fv.size()]]);
        Vec3 side = glm::cross(nb, p1 - p0);
        if (glm::dot(side, centroid - p0) < 0.0) side = -side;
        const Real len = glm::length(side);
        if (!(len > 0.0)) continue;
        side /= len;
        count =
            clipPolygon(polyA, count, side, glm::dot(side, p0), 0, 0, static_cast<int>(k), polyB);
        std::copy(polyB, polyB + count, polyA);
      }
      const Vec3 f0 = xb.apply(hb->vertices()[fv[0]]);
      for (int i = 0; i < count; ++i) {
        const Real sep = glm::dot(polyA[i].p - f0, nb);
        if (sep <= coreSpeculative)
          cand.push_back({polyA[i].p, polyA[i].p - sep * nb, sep, polyA[i].id | 0x100u});
      }
    }
    if (rB > 0.0) {
      // Every candidate has onB = onA + separation * n on the cores.
      size_t kept = 0;
      for (const Candidate& c : cand) {
        const CollidePoint p = roundPoint(c.onA, n, c.separation, 0.0, rB, c.id);
        if (p.separation <= speculative) cand[kept++] = {p.pointA, p.pointB, p.separation, p.id};
      }
      cand.resize(kept);
    }
  } else if (b.cylinder() != nullptr) {
    detail::cylinderOnTriangle(v, nT, n, b, xb, speculative, cand);
    if (!cand.empty()) n = nT;
  } else if (const RoundCore* rc = b.round(); rc && rc->count == 2 && alongFace) {
    const Vec3 p0 = xb.apply(rc->points[0]), p1 = xb.apply(rc->points[1]);
    const Vec3 e = p1 - p0;
    const Real len = glm::length(e);
    // The segment clipped to the prism over the triangle: [lo, hi] along it. Lying along the
    // triangle (within about 3 degrees), its two ends; tilted, both ends where the whole segment
    // lies over the triangle, above its plane (the nearer end is then the closest point), each at
    // its own plane distance, as on a hull's face: a capsule turning down is met at its far end
    // before that end sinks in.
    const bool lying = len > 0.0 && std::abs(glm::dot(e / len, nT)) < 0.05;
    const bool above = len > 0.0 && glm::dot(p0 - v[0], nT) > 0.0 && glm::dot(p1 - v[0], nT) > 0.0;
    Real lo = 0.0, hi = 1.0;
    if (lying || above)
      for (int k = 0; k < 3; ++k)  // inward for a counter-clockwise triangle
        clipSegment(glm::cross(nT, v[(k + 1) % 3] - v[k]), v[k], p0, e, lo, hi);
    if (lying || (above && lo == 0.0 && hi == 1.0)) {
      n = nT;
      for (int k = 0; k < 2 && hi - lo > 1e-9; ++k) {
        const Vec3 c = p0 + (k == 0 ? lo : hi) * e;
        const Real dc = glm::dot(c - v[0], nT);
        const CollidePoint cp = roundPoint(c - dc * nT, nT, dc, 0.0, rB, static_cast<uint32_t>(k));
        if (cp.separation <= speculative)
          cand.push_back({cp.pointA, cp.pointB, cp.separation, cp.id});
      }
    }
  }
  if (cand.empty()) {
    if (inactiveFeature) {
      Real w[3];
      barycentric(v[0], v[1], v[2], witness, w);
      if (!(w[0] >= -kOnFeature && w[1] >= -kOnFeature && w[2] >= -kOnFeature)) return r;
    }
    const CollidePoint cp = roundPoint(witness, n, coreSep, 0.0, rB, kSinglePointId);
    if (cp.separation > speculative) return r;
    cand.push_back({cp.pointA, cp.pointB, cp.separation, cp.id});
  }
  reduce(cand, n, b.cylinder() ? detail::kCapReduceTie : 0.0);
  r.normal = n;
  r.sideRadiusB = detail::cylinderSideRadius(b, xb, -n);
  r.pointCount = static_cast<int>(cand.size());
  for (int i = 0; i < r.pointCount; ++i)
    r.points[i] = {cand[i].onA, cand[i].onB, cand[i].separation, cand[i].id};
  return r;
}

namespace {

// (X, Y) from a routine for (Y, X): the shapes swapped, the result flipped back.
template <CollideResult (*Fn)(const Shape&, const Transform&, const Shape&, const Transform&, Real,
                              const Settings&, const GjkSimplex*)>
CollideResult swapped(const Shape& sa, const Transform& xa, const Shape& sb, const Transform& xb,
                      Real speculative, const Settings& s, const GjkSimplex*) {
  // The warm start's simplex is for the other order: not passed.
  CollideResult r = Fn(sb, xb, sa, xa, speculative, s, nullptr);
  r.normal = -r.normal;
  for (int i = 0; i < r.pointCount; ++i) std::swap(r.points[i].pointA, r.points[i].pointB);
  std::swap(r.sideRadiusA, r.sideRadiusB);
  return r;
}

// The narrow phase of each pair of kinds, indexed [type of A][type of B]. A new kind adds its row
// and column; an entry for (X, Y) with a routine only for (Y, X) calls it swapped and flips the
// result (normal negated, points swapped).
using CollideFn = CollideResult (*)(const Shape&, const Transform&, const Shape&, const Transform&,
                                    Real, const Settings&, const GjkSimplex*);
// Indexed by ShapeType; the rows and columns of the non-convex kinds (Compound, Mesh, HeightField)
// are empty: collide() takes convex shapes only (collideChildren splits the others). Pairs without
// a routine of their own take the general path on the cores (collideCores). collideCylinder takes
// a cylinder on either side.
constexpr CollideFn kCollide[kShapeTypeCount][kShapeTypeCount] = {
    // B: Hull, Sphere, Capsule, Compound, Mesh, HeightField, Cylinder, RoundedHull
    {collideHulls, collideSphereAndHull<false>, swapped<collideCapsuleHull>, nullptr, nullptr,
     nullptr, detail::collideCylinder, collideHulls},  // A: Hull
    {collideSphereAndHull<true>, collideSpheres, swapped<collideCapsuleSphere>, nullptr, nullptr,
     nullptr, detail::collideCylinder, collideSphereAndHull<true>},  // A: Sphere
    {collideCapsuleHull, collideCapsuleSphere, collideCapsules, nullptr, nullptr, nullptr,
     detail::collideCylinder, collideCapsuleHull},  // A: Capsule
    {},                                             // A: Compound
    {},                                             // A: Mesh
    {},                                             // A: HeightField
    {detail::collideCylinder, detail::collideCylinder, detail::collideCylinder, nullptr, nullptr,
     nullptr, detail::collideCylinder, detail::collideCylinder},  // A: Cylinder
    {collideHulls, collideSphereAndHull<false>, swapped<collideCapsuleHull>, nullptr, nullptr,
     nullptr, detail::collideCylinder, collideHulls}};  // A: RoundedHull

}  // namespace

void collideChildren(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                     Real speculative, const Settings& settings, std::vector<ChildContact>& out,
                     const ChildFilters* filters) {
  const size_t first = out.size();
  // The filter child k of `c` collides with (a convex shape, mesh or height field: its body's);
  // null for a sensor child, which collides with nothing.
  auto filterOf = [](const Compound* c, uint32_t k, const BodyFilter& body) -> const BodyFilter* {
    if (!c) return &body;
    const CompoundChild& ch = c->children[k];
    return ch.isSensor ? nullptr : ch.filter ? &*ch.filter : &body;
  };
  auto allowed = [&](const Compound* cA, uint32_t i, const Compound* cB, uint32_t j) {
    if (!filters) return true;
    const BodyFilter* fa = filterOf(cA, i, filters->a);
    const BodyFilter* fb = filterOf(cB, j, filters->b);
    return fa && fb && shouldCollide(*fa, *fb);
  };
  auto pair = [&](const Shape& ca, const Transform& ta, uint32_t ia, const Shape& cb,
                  const Transform& tb, uint32_t ib) {
    ChildContact c;
    c.result = collide(ca, ta, cb, tb, speculative, settings);
    if (c.result.pointCount == 0) return;
    c.key = static_cast<uint64_t>(ia) << 32 | ib;
    c.radiusA = ca.roundRadius() + c.result.sideRadiusA;
    c.radiusB = cb.roundRadius() + c.result.sideRadiusB;
    out.push_back(c);
  };
  if (a.isStaticOnly() || b.isStaticOnly()) {
    if (a.isStaticOnly() && b.isStaticOnly()) return;
    // The triangles as A: B's convex children (B itself, or a compound's) each meet the
    // triangles near them; when the static shape is B, the results are flipped to A -> B.
    const bool flip = b.isStaticOnly();
    const Shape& field = flip ? b : a;
    const Shape& other = flip ? a : b;
    const Transform& xf = flip ? xb : xa;
    const Transform& xo = flip ? xa : xb;
    const Transform toField = inverse(xf);
    const Compound* co = other.compound();
    auto meet = [&](const Shape& child, const Transform& xc, uint32_t childIndex) {
      if (!(flip ? allowed(co, childIndex, nullptr, 0) : allowed(nullptr, 0, co, childIndex)))
        return;
      const Aabb reach = child.bounds(compose(toField, xc)).fattened(speculative);
      auto visit = [&](const TriangleRef& t) {
        ChildContact c;
        c.result = collideTriangle(t, xf, child, xc, speculative, settings);
        if (c.result.pointCount == 0) return;
        if (flip) {
          c.result.normal = -c.result.normal;
          for (int i = 0; i < c.result.pointCount; ++i)
            std::swap(c.result.points[i].pointA, c.result.points[i].pointB);
          std::swap(c.result.sideRadiusA, c.result.sideRadiusB);
          c.key = static_cast<uint64_t>(childIndex) << 32 | t.index;
          c.radiusA = child.roundRadius() + c.result.sideRadiusA;
        } else {
          c.key = static_cast<uint64_t>(t.index) << 32 | childIndex;
          c.radiusB = child.roundRadius() + c.result.sideRadiusB;
        }
        out.push_back(c);
      };
      if (const TriangleMesh* m = field.mesh())
        m->forTriangles(reach, visit);
      else
        field.heightField()->forTriangles(reach, visit);
    };
    if (co) {
      const Aabb reach = field.bounds(compose(inverse(xo), xf)).fattened(speculative);
      co->tree.query(reach, [&](int j) {
        meet(co->children[j].shape, compose(xo, co->children[j].local), static_cast<uint32_t>(j));
      });
    } else {
      meet(other, xo, 0);
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
              [](const ChildContact& x, const ChildContact& y) { return x.key < y.key; });
    return;
  }
  const Compound* ca = a.compound();
  const Compound* cb = b.compound();
  if (!ca && !cb) {
    pair(a, xa, 0, b, xb, 0);
    return;
  }
  if (ca && !cb) {
    const Aabb reach = b.bounds(compose(inverse(xa), xb)).fattened(speculative);
    ca->tree.query(reach, [&](int i) {
      if (!allowed(ca, static_cast<uint32_t>(i), nullptr, 0)) return;
      const CompoundChild& c = ca->children[i];
      pair(c.shape, compose(xa, c.local), static_cast<uint32_t>(i), b, xb, 0);
    });
  } else if (!ca) {
    const Aabb reach = a.bounds(compose(inverse(xb), xa)).fattened(speculative);
    cb->tree.query(reach, [&](int j) {
      if (!allowed(nullptr, 0, cb, static_cast<uint32_t>(j))) return;
      const CompoundChild& c = cb->children[j];
      pair(a, xa, 0, c.shape, compose(xb, c.local), static_cast<uint32_t>(j));
    });
  } else {
    const Transform bInA = compose(inverse(xa), xb), aInB = inverse(bInA);
    const Aabb reachA = b.bounds(bInA).fattened(speculative);
    ca->tree.query(reachA, [&](int i) {
      // A sensor child meets nothing: no walk of B's tree for it.
      if (filters && ca->children[i].isSensor) return;
      const CompoundChild& c = ca->children[i];
      const Aabb reachB = c.shape.bounds(compose(aInB, c.local)).fattened(speculative);
      const Transform ta = compose(xa, c.local);
      cb->tree.query(reachB, [&](int j) {
        if (!allowed(ca, static_cast<uint32_t>(i), cb, static_cast<uint32_t>(j))) return;
        const CompoundChild& d = cb->children[j];
        pair(c.shape, ta, static_cast<uint32_t>(i), d.shape, compose(xb, d.local),
             static_cast<uint32_t>(j));
      });
    });
  }
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [](const ChildContact& x, const ChildContact& y) { return x.key < y.key; });
}

CollideResult detail::collideHullsGeneral(const Shape& a, const Transform& xa, const Shape& b,
                                          const Transform& xb, Real speculative,
                                          const Settings& settings, const GjkSimplex* warmStart) {
  return collideHullPair(a, xa, b, xb, speculative, settings, warmStart, false);
}

CollideResult detail::collideBounded(const Shape& a, const Transform& xa, const Shape& b,
                                     const Transform& xb, Real speculative,
                                     const Settings& settings, const GjkSimplex* warmStart,
                                     BoxBound& bound) {
  bound = BoxBound{};
  if (a.hull() && b.hull())
    return collideHullPair(a, xa, b, xb, speculative, settings, warmStart, true, &bound);
  return collide(a, xa, b, xb, speculative, settings, warmStart);
}

CollideResult collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                      Real speculative, const Settings& settings, const GjkSimplex* warmStart) {
  return kCollide[static_cast<int>(a.type())][static_cast<int>(b.type())](a, xa, b, xb, speculative,
                                                                          settings, warmStart);
}

}  // namespace tumble
