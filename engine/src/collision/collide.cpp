// Contact manifolds between two convex hulls: GJK distance with a speculative margin, EPA depth
// when overlapping, then the two supporting faces along the contact normal are clipped against
// each other in projection along the normal (Sutherland-Hodgman; Ericson 8.3.4; Gregorius,
// "Robust Contact Creation for Physics Simulations", GDC 2015) and reduced to at most 4 points.
// Stateless: matching with last step's manifold is the world's (dynamics/contact_update.cpp).
#include "tumble/collide.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/hull.h"
#include "tumble/support.h"

namespace tumble {
namespace {

constexpr uint32_t kSinglePointId = 0xFFFFFFFFu;
// Below this cosine between a face normal and the contact normal the face does not support the
// contact (a sliver face seen edge-on); the single closest-point contact is used instead.
constexpr Real kMinFaceAlignment = 0.05;
// Above this cosine (about 5.7 degrees) the contact is a face contact and the reference face's
// normal replaces EPA's; B is the reference only when clearly better aligned than A.
constexpr Real kSnapAlignment = 0.995;
constexpr Real kReferenceBias = 1e-3;

struct ClipVertex {
  Vec3 p;
  uint32_t id;
};

struct Candidate {
  Vec3 onA, onB;
  Real separation;
  uint32_t id;
};

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
void reduce(std::vector<Candidate>& c, const Vec3& normal) {
  if (c.size() <= 4) return;
  size_t i0 = 0;
  for (size_t i = 1; i < c.size(); ++i)
    if (c[i].separation < c[i0].separation) i0 = i;
  size_t i1 = i0;
  Real best = -1.0;
  for (size_t i = 0; i < c.size(); ++i) {
    const Vec3 d = c[i].onB - c[i0].onB;
    if (glm::dot(d, d) > best) best = glm::dot(d, d), i1 = i;
  }
  size_t i2 = i0;
  Real bestArea = 0.0;
  const Vec3 e = c[i1].onB - c[i0].onB;
  for (size_t i = 0; i < c.size(); ++i) {
    const Real a = glm::dot(glm::cross(e, c[i].onB - c[i0].onB), normal);
    if (std::abs(a) > std::abs(bestArea)) bestArea = a, i2 = i;
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
    if (a > bestOther) bestOther = a, i3 = i;
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

CollideResult collideHulls(const Shape& sa, const Transform& xa, const Shape& sb,
                           const Transform& xb, Real speculative, const Settings& s,
                           const GjkSimplex* warm) {
  const ConvexHull& ha = *sa.hull();
  const ConvexHull& hb = *sb.hull();
  const SupportShape a = ha.supportShape(), b = hb.supportShape();
  CollideResult r;
  const GjkResult& g = r.gjk = gjkDistance(a, xa, b, xb, s.gjk, warm);
  r.overlapping = g.intersecting();
  r.distance = g.distance;

  Vec3 normal;
  Vec3 witnessA, witnessB;
  Real separation;
  if (g.intersecting()) {
    const EpaResult& e = r.epa = epaPenetration(a, xa, b, xb, s.epa, g);
    normal = e.normal;
    witnessA = e.pointA;
    witnessB = e.pointB;
    separation = -e.depth;
    r.distance = -e.depth;
  } else {
    if (g.distance > speculative) return r;
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
  const Vec3 na = xa.rotate(ha.faces()[fa].normal);
  const Vec3 nb = xb.rotate(hb.faces()[fb].normal);
  const Real alignA = glm::dot(na, normal), alignB = -glm::dot(nb, normal);
  if (std::max(alignA, alignB) > kSnapAlignment) {
    // Face contact: the better aligned face is the reference and its normal the contact normal,
    // so resting contacts do not inherit EPA's small normal noise. A wins near-ties.
    if (alignA >= alignB - kReferenceBias) {
      normal = na;
      clipFaces(ha, xa, fa, hb, xb, fb, na, speculative, fa, fb, cand);
    } else {
      normal = -nb;
      clipFaces(hb, xb, fb, ha, xa, fa, nb, speculative, fa, fb, cand);
      for (Candidate& c : cand) std::swap(c.onA, c.onB);
    }
  } else if (alignA > kMinFaceAlignment && alignB > kMinFaceAlignment) {
    // Edge-like contact: keep GJK/EPA's normal and clip B's face against A's in projection along
    // it.
    clipFaces(ha, xa, fa, hb, xb, fb, normal, speculative, fa, fb, cand);
  }
  if (cand.empty()) cand.push_back({witnessA, witnessB, separation, kSinglePointId});
  reduce(cand, normal);

  r.normal = normal;
  r.pointCount = static_cast<int>(cand.size());
  for (int i = 0; i < r.pointCount; ++i)
    r.points[i] = {cand[i].onA, cand[i].onB, cand[i].separation, cand[i].id};
  return r;
}

// The narrow phase of each pair of kinds, indexed [type of A][type of B]. A new kind adds its row
// and column; an entry for (X, Y) with a routine only for (Y, X) calls it swapped and flips the
// result (normal negated, points swapped).
using CollideFn = CollideResult (*)(const Shape&, const Transform&, const Shape&, const Transform&,
                                    Real, const Settings&, const GjkSimplex*);
constexpr CollideFn kCollide[kShapeTypeCount][kShapeTypeCount] = {{collideHulls}};

}  // namespace

CollideResult collide(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb,
                      Real speculative, const Settings& settings, const GjkSimplex* warmStart) {
  return kCollide[static_cast<int>(a.type())][static_cast<int>(b.type())](a, xa, b, xb, speculative,
                                                                          settings, warmStart);
}

}  // namespace tumble
