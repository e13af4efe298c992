// Cylinders in the narrow phase. GJK and EPA run on the cylinder's exact support function
// (support.h); the normal and depth they give are exact. A single closest point cannot hold a
// cylinder up, so the features of the two shapes along the normal are then clipped against each
// other as collideHulls clips faces (Gregorius, "Robust Contact Creation for Physics Simulations",
// GDC 2015): a cap facing the normal is a polygon (16 points on its rim), a side facing it is a
// segment (the line where it touches), a hull face within kSnapAlignment of it a polygon, a
// capsule's segment a segment. A cap standing on a face gives up to four points, a side lying on
// a face two, a rim on an edge the one closest point.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "collision/collide_internal.h"
#include "tumble/collide.h"
#include "tumble/shape.h"

namespace tumble::detail {
namespace {

// The cap's polygon is inscribed in its rim: its points lie on the true surface.
constexpr int kCapPoints = 16;
// Room for a feature's points (a hull face with more vertices gives the single closest point).
constexpr int kMaxFeature = 64;
// A side is a feature when the axis is within about 3 degrees of perpendicular to the normal
// (as a capsule's segment on a face, collide.cpp).
constexpr Real kSideAlignment = 0.05;
// Ids of the cap's and side's points, apart from hull face ids (makeId) and each other.
constexpr uint32_t kCapId = 0x00A00000u;
constexpr uint32_t kSideId = 0x00B00000u;

// The points of a shape's core farthest along a direction, as a polygon (count >= 3, with its
// outward unit normal), a segment (2) or nothing (0: a vertex, a rim point, a sphere).
struct Feature {
  ClipVertex p[kMaxFeature];
  int count = 0;
  Vec3 normal{0.0};
  Real radius = 0.0;  // the shape's radius around its core
};

void cylinderFeature(const CylinderCore& c, const Transform& x, const Vec3& u, Feature& f) {
  const Vec3 ul = x.rotateInverse(u);
  const Real r = c.support.radius, h = c.support.halfHeight;
  if (std::abs(ul.y) > kSnapAlignment) {
    const Real y = ul.y > 0.0 ? h : -h;
    for (int k = 0; k < kCapPoints; ++k) {
      const Real angle = k * (2.0 * std::numbers::pi / kCapPoints);
      f.p[k] = {x.apply(Vec3(r * std::cos(angle), y, r * std::sin(angle))),
                kCapId | static_cast<uint32_t>(k)};
    }
    f.count = kCapPoints;
    f.normal = x.rotate(Vec3(0.0, ul.y > 0.0 ? 1.0 : -1.0, 0.0));
  } else if (std::abs(ul.y) < kSideAlignment) {
    const Real s = std::sqrt(ul.x * ul.x + ul.z * ul.z);
    const Vec3 out(r * ul.x / s, 0.0, r * ul.z / s);
    f.p[0] = {x.apply(out - Vec3(0.0, h, 0.0)), kSideId};
    f.p[1] = {x.apply(out + Vec3(0.0, h, 0.0)), kSideId | 1u};
    f.count = 2;
  }
}

void hullFeature(const ConvexHull& hull, const Transform& x, const Vec3& u, Feature& f) {
  const int fi = supportFace(hull, x.rotation, u);
  const HullFace& face = hull.faces()[static_cast<size_t>(fi)];
  const Vec3 n = x.rotate(face.normal);
  if (glm::dot(n, u) <= kSnapAlignment || face.vertices.size() > kMaxFeature / 2) return;
  for (size_t i = 0; i < face.vertices.size(); ++i)
    f.p[i] = {x.apply(hull.vertices()[static_cast<size_t>(face.vertices[i])]),
              makeId(fi, 0, -1, static_cast<uint32_t>(i))};
  f.count = static_cast<int>(face.vertices.size());
  f.normal = n;
}

// The feature of `s` (under x) along the unit world direction u, out of s.
void feature(const Shape& s, const Transform& x, const Vec3& u, Feature& f) {
  f.count = 0;
  f.radius = s.roundRadius();
  if (const CylinderCore* c = s.cylinder()) {
    cylinderFeature(*c, x, u, f);
  } else if (const ConvexHull* h = s.coreHull()) {
    hullFeature(*h, x, u, f);
  } else if (const RoundCore* rc = s.round(); rc && rc->count == 2) {
    const Vec3 p0 = x.apply(rc->points[0]), p1 = x.apply(rc->points[1]);
    const Vec3 e = p1 - p0;
    const Real len = glm::length(e);
    if (len > 0.0 && std::abs(glm::dot(e / len, u)) < kSideAlignment) {
      f.p[0] = {p0, kSideId | 2u};
      f.p[1] = {p1, kSideId | 3u};
      f.count = 2;
    }
  }
}

// Clips the incident feature (a polygon or segment) to the prism over the reference polygon and
// appends the points within `speculative` of it, as (on reference, on incident).
void clipToReference(const Feature& ref, const Feature& inc, Real speculative,
                     std::vector<Candidate>& out) {
  const Vec3& n = ref.normal;
  Vec3 centroid(0.0);
  for (int i = 0; i < ref.count; ++i) centroid += ref.p[i].p;
  centroid /= static_cast<Real>(ref.count);
  if (inc.count == 2) {
    // A segment: narrowed to the part inside every side plane.
    const Vec3 p0 = inc.p[0].p, e = inc.p[1].p - p0;
    Real lo = 0.0, hi = 1.0;
    for (int k = 0; k < ref.count && lo <= hi; ++k) {
      const Vec3& a = ref.p[k].p;
      Vec3 side = glm::cross(n, ref.p[(k + 1) % ref.count].p - a);
      if (glm::dot(side, centroid - a) < 0.0) side = -side;
      const Real d0 = glm::dot(side, p0 - a), de = glm::dot(side, e);
      if (de > 0.0)
        lo = std::max(lo, -d0 / de);
      else if (de < 0.0)
        hi = std::min(hi, -d0 / de);
      else if (d0 < 0.0)
        hi = -1.0;
    }
    if (!(hi - lo > 1e-9)) return;
    for (int k = 0; k < 2; ++k) {
      const Vec3 q = p0 + (k == 0 ? lo : hi) * e;
      const Real d = glm::dot(q - ref.p[0].p, n);
      const Real sep = d - ref.radius - inc.radius;
      if (sep <= speculative)
        out.push_back({q - (d - ref.radius) * n, q - inc.radius * n, sep, inc.p[k].id});
    }
    return;
  }
  // A polygon: Sutherland-Hodgman against each side plane (each adds at most one point).
  ClipVertex a[2 * kMaxFeature], b[2 * kMaxFeature];
  int count = inc.count;
  std::copy(inc.p, inc.p + count, a);
  for (int k = 0; k < ref.count && count > 0; ++k) {
    const Vec3& p0 = ref.p[k].p;
    Vec3 side = glm::cross(n, ref.p[(k + 1) % ref.count].p - p0);
    if (glm::dot(side, centroid - p0) < 0.0) side = -side;
    const Real len = glm::length(side);
    if (!(len > 0.0)) continue;
    side /= len;
    if (count + 1 > 2 * kMaxFeature) break;
    count = clipPolygon(a, count, side, glm::dot(side, p0), 0, 0, k, b);
    std::copy(b, b + count, a);
  }
  for (int i = 0; i < count; ++i) {
    const Real d = glm::dot(a[i].p - ref.p[0].p, n);
    const Real sep = d - ref.radius - inc.radius;
    if (sep <= speculative)
      out.push_back({a[i].p - (d - ref.radius) * n, a[i].p - inc.radius * n, sep, a[i].id});
  }
}

// Two segments lying side by side (a cylinder's side on another's, or on a capsule): the part of
// B's segment over A's, as two points, when they are parallel; normal n from A to B.
void segmentPair(const Feature& fa, const Feature& fb, const Vec3& n, Real speculative,
                 std::vector<Candidate>& out) {
  const Vec3 a0 = fa.p[0].p, ea = fa.p[1].p - a0;
  const Vec3 b0 = fb.p[0].p, eb = fb.p[1].p - b0;
  const Real la = glm::length(ea), lb = glm::length(eb);
  if (!(la > 0.0 && lb > 0.0)) return;
  const Vec3 ua = ea / la;
  if (glm::length(glm::cross(ua, eb / lb)) > kSideAlignment) return;
  // B's ends projected onto A's line, clamped to A.
  Real t0 = glm::dot(b0 - a0, ua), t1 = glm::dot(b0 + eb - a0, ua);
  if (t0 > t1) std::swap(t0, t1);
  const Real lo = std::max(t0, Real(0.0)), hi = std::min(t1, la);
  if (!(hi - lo > 1e-9)) return;
  for (int k = 0; k < 2; ++k) {
    const Vec3 pa = a0 + (k == 0 ? lo : hi) * ua;
    const Real tb = std::clamp(glm::dot(pa - b0, eb) / (lb * lb), Real(0.0), Real(1.0));
    const Real d = glm::dot(b0 + tb * eb - pa, n);
    const CollidePoint p = roundPoint(pa, n, d, fa.radius, fb.radius, kSideId | (4u + k));
    if (p.separation <= speculative) out.push_back({p.pointA, p.pointB, p.separation, p.id});
  }
}

}  // namespace

Real cylinderSideRadius(const Shape& s, const Transform& x, const Vec3& u) {
  const CylinderCore* c = s.cylinder();
  if (!c || !(std::abs(x.rotateInverse(u).y) < kSideAlignment)) return 0.0;
  return c->support.radius;
}

CollideResult collideCylinder(const Shape& a, const Transform& xa, const Shape& b,
                              const Transform& xb, Real speculative, const Settings& settings,
                              const GjkSimplex* warmStart) {
  CollideResult r = collideCores(a, xa, b, xb, speculative, settings, warmStart);
  if (r.pointCount == 0) return r;
  r.sideRadiusA = cylinderSideRadius(a, xa, r.normal);
  r.sideRadiusB = cylinderSideRadius(b, xb, -r.normal);
  Feature fa, fb;
  feature(a, xa, r.normal, fa);
  feature(b, xb, -r.normal, fb);
  if (fa.count == 0 || fb.count == 0) return r;
  static thread_local std::vector<Candidate> cand;
  cand.clear();
  Vec3 normal = r.normal;
  const Real alignA = fa.count >= 3 ? glm::dot(fa.normal, r.normal) : -1.0;
  const Real alignB = fb.count >= 3 ? -glm::dot(fb.normal, r.normal) : -1.0;
  if (fa.count >= 3 && alignA >= alignB - kReferenceBias) {
    normal = fa.normal;
    clipToReference(fa, fb, speculative, cand);
  } else if (fb.count >= 3) {
    normal = -fb.normal;
    clipToReference(fb, fa, speculative, cand);
    for (Candidate& c : cand) std::swap(c.onA, c.onB);
  } else {
    segmentPair(fa, fb, r.normal, speculative, cand);
  }
  if (cand.empty()) return r;
  reduce(cand, normal, kCapReduceTie);
  CollideResult m;
  m.gjk = r.gjk;
  m.epa = r.epa;
  m.overlapping = r.overlapping;
  m.distance = r.distance;
  m.normal = normal;
  m.sideRadiusA = cylinderSideRadius(a, xa, normal);
  m.sideRadiusB = cylinderSideRadius(b, xb, -normal);
  m.pointCount = static_cast<int>(cand.size());
  for (int i = 0; i < m.pointCount; ++i)
    m.points[i] = {cand[i].onA, cand[i].onB, cand[i].separation, cand[i].id};
  return m;
}

void cylinderOnTriangle(const Vec3 (&v)[3], const Vec3& nT, const Vec3& n, const Shape& b,
                        const Transform& xb, Real speculative, std::vector<Candidate>& out) {
  if (glm::dot(n, nT) <= kSnapAlignment) return;
  Feature tri, fb;
  for (int k = 0; k < 3; ++k) tri.p[k] = {v[k], static_cast<uint32_t>(k)};
  tri.count = 3;
  tri.normal = nT;
  feature(b, xb, -nT, fb);
  if (fb.count >= 2) clipToReference(tri, fb, speculative, out);
}

}  // namespace tumble::detail
