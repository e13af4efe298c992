// Exact mass properties of a rounded hull, core + ball(r), for a uniform density. The solid is
// the disjoint union (up to boundaries) of
//   the core polyhedron;
//   one prism per face: the face polygon swept r along its outward normal;
//   one cylindrical wedge per edge: radius r, length L, opening theta = the angle between the two
//     faces' normals (the exterior dihedral angle);
//   one spherical sector per vertex: radius r over its normal cone, the spherical polygon of its
//     faces' normals.
// (The Steiner formula V = V0 + S r + M r^2 + 4/3 pi r^3 counts the same pieces.) Every piece has
// closed forms for its volume, first moment (integral of x) and second moment (integral of x x^T):
//   prism  over face F (normal n): x = p + t n, p in F, t in [0, r];
//   wedge  x = P + s e + rho (cos(phi) u + sin(phi) w), s in [0, L], rho in [0, r],
//          phi in [0, theta] (u the first face's normal, w across the edge towards the second's);
//   sector x = V + rho u, u in the normal cone Omega, rho in [0, r]: r^3/3 |Omega|,
//          r^4/4 int u dOmega, r^5/5 int u u^T dOmega.
// The spherical integrals over a normal cone (a convex spherical polygon) are exact:
//   |Omega| = 2 pi - (sum of the face angles at the vertex), the angular defect (the normal cone is
//     the polar of the vertex's tangent cone: its angle at a face's normal is pi minus the face's
//     angle at the vertex);
//   int u dOmega = 1/2 sum over the boundary arcs of theta_k b_k (b_k the unit normal of the
//     arc's great circle pointing into the polygon; Arvo 1995, "Applications of irradiance
//     tensors"), from div_S grad_S u_i = -2 u_i and the divergence theorem on the sphere;
//   int (u u^T - I/3) dOmega = 1/6 sum over the arcs of (b_k U_k^T + U_k b_k^T), U_k the integral
//     of u along the arc, since u_i u_j - delta_ij / 3 is a degree-2 spherical harmonic
//     (Laplace-Beltrami eigenvalue -6) and its surface gradient along the outward conormal -b_k
//     is -(b_i u_j + b_j u_i) on the arc (u . b_k = 0 there).
// Each boundary arc of a normal cone is an edge's: the arc between its two faces' normals, whose
// great circle has the edge's direction as normal: pointing into vertex a's cone is the unit
// vector from b to a. Everything is taken relative to the vertices' mean, as the core's integrals.
#include "geometry/rounded_hull_mass.h"

#include <cmath>
#include <numbers>

#include "tumble/shape.h"

namespace tumble {
namespace {

// Volume, integral of x and integral of x x^T of a piece, about the reference point.
struct Moments {
  Real volume = 0.0;
  Vec3 first{0.0};
  Mat3 second{0.0};
};

Mat3 symmetric(const Vec3& a, const Vec3& b) {
  return glm::outerProduct(a, b) + glm::outerProduct(b, a);
}

// The arc of the unit circle from unit u towards unit v (u != -v): its angle, the unit w
// perpendicular to u in the plane of both, towards v.
void arc(const Vec3& u, const Vec3& v, Real& theta, Vec3& w) {
  const Vec3 across = v - glm::dot(u, v) * u;
  const Real len = glm::length(across);
  theta = std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v));
  w = len > 0.0 ? across / len : Vec3(0.0);
}

}  // namespace

std::vector<NormalCone> normalCones(const ConvexHull& core) {
  const auto& verts = core.vertices();
  // The solid angle by the angular defect: 2 pi less the face angles at the vertex.
  std::vector<NormalCone> cones(verts.size(),
                                NormalCone{2.0 * std::numbers::pi, Vec3(0.0), Mat3(0.0)});
  for (const HullFace& f : core.faces()) {
    const size_t n = f.vertices.size();
    for (size_t i = 0; i < n; ++i) {
      const Vec3& p = verts[static_cast<size_t>(f.vertices[i])];
      const Vec3 toPrev = verts[static_cast<size_t>(f.vertices[(i + n - 1) % n])] - p;
      const Vec3 toNext = verts[static_cast<size_t>(f.vertices[(i + 1) % n])] - p;
      cones[static_cast<size_t>(f.vertices[i])].solidAngle -=
          std::atan2(glm::length(glm::cross(toPrev, toNext)), glm::dot(toPrev, toNext));
    }
  }
  // Each edge's arc, between its faces' normals, bounds its two vertices' cones: the inward
  // normal of its great circle is the unit vector from b to a in a's cone, from a to b in b's.
  for (const HullEdge& e : core.edges()) {
    const Vec3 edge = verts[static_cast<size_t>(e.b)] - verts[static_cast<size_t>(e.a)];
    const Real len = glm::length(edge);
    if (!(len > 0.0)) continue;
    const Vec3 dir = edge / len;
    Real theta;
    Vec3 w;
    const Vec3& u = core.faces()[static_cast<size_t>(e.faceA)].normal;
    arc(u, core.faces()[static_cast<size_t>(e.faceB)].normal, theta, w);
    const Vec3 along = std::sin(theta) * u + (1.0 - std::cos(theta)) * w;  // integral of u on it
    const Mat3 arcSecond = symmetric(dir, along) / 6.0;
    cones[static_cast<size_t>(e.a)].first -= 0.5 * theta * dir;
    cones[static_cast<size_t>(e.b)].first += 0.5 * theta * dir;
    cones[static_cast<size_t>(e.a)].second -= arcSecond;
    cones[static_cast<size_t>(e.b)].second += arcSecond;
  }
  for (NormalCone& c : cones) c.second += Mat3(c.solidAngle / 3.0);
  return cones;
}

MassProperties roundedHullMass(const ConvexHull& core, Real r, Real density) {
  const MassProperties c = core.massProperties(1.0);
  if (!(r > 0.0)) {
    MassProperties out = c;
    out.mass = density * c.volume;
    out.inertia = density * c.inertia;
    return out;
  }
  const auto& verts = core.vertices();
  Vec3 ref(0.0);
  for (const Vec3& v : verts) ref += v;
  ref /= static_cast<Real>(verts.size());

  Moments m;
  {
    // The core from its own integrals: the covariance about its centre is trace(I)/2 Id - I.
    const Vec3 d = c.centerOfMass - ref;
    const Real trace = c.inertia[0][0] + c.inertia[1][1] + c.inertia[2][2];
    m.volume = c.volume;
    m.first = c.volume * d;
    m.second = Mat3(0.5 * trace) - c.inertia + c.volume * glm::outerProduct(d, d);
  }
  const Real r2 = r * r, r3 = r2 * r, r4 = r3 * r, r5 = r4 * r;

  // Prisms: per face, the polygon's area, integral of p and of p p^T (fans of triangles:
  // area A, A (a + b + c) / 3, A / 12 (a a^T + b b^T + c c^T + s s^T) with s = a + b + c).
  for (const HullFace& f : core.faces()) {
    const Vec3& n = f.normal;
    Real area = 0.0;
    Vec3 p1(0.0);
    Mat3 p2(0.0);
    const Vec3 a = verts[static_cast<size_t>(f.vertices[0])] - ref;
    for (size_t i = 1; i + 1 < f.vertices.size(); ++i) {
      const Vec3 b = verts[static_cast<size_t>(f.vertices[i])] - ref;
      const Vec3 cc = verts[static_cast<size_t>(f.vertices[i + 1])] - ref;
      const Real t = 0.5 * glm::dot(glm::cross(b - a, cc - a), n);
      const Vec3 s = a + b + cc;
      area += t;
      p1 += t / 3.0 * s;
      p2 += t / 12.0 *
            (glm::outerProduct(a, a) + glm::outerProduct(b, b) + glm::outerProduct(cc, cc) +
             glm::outerProduct(s, s));
    }
    m.volume += area * r;
    m.first += r * p1 + 0.5 * r2 * area * n;
    m.second += r * p2 + 0.5 * r2 * symmetric(p1, n) + r3 / 3.0 * area * glm::outerProduct(n, n);
  }

  // Wedges.
  for (const HullEdge& e : core.edges()) {
    const Vec3 pa = verts[static_cast<size_t>(e.a)] - ref;
    const Vec3 pb = verts[static_cast<size_t>(e.b)] - ref;
    const Real len = glm::length(pb - pa);
    if (!(len > 0.0)) continue;
    const Vec3 dir = (pb - pa) / len;
    const Vec3& u = core.faces()[static_cast<size_t>(e.faceA)].normal;
    const Vec3& v = core.faces()[static_cast<size_t>(e.faceB)].normal;
    Real theta;
    Vec3 w;
    arc(u, v, theta, w);
    const Vec3 along = std::sin(theta) * u + (1.0 - std::cos(theta)) * w;  // integral of u(phi)
    const Real s2 = std::sin(2.0 * theta) / 4.0;
    const Real sin2 = std::sin(theta) * std::sin(theta) / 2.0;
    const Mat3 cc = (theta / 2.0 + s2) * glm::outerProduct(u, u) + sin2 * symmetric(u, w) +
                    (theta / 2.0 - s2) * glm::outerProduct(w, w);
    const Real vol = len * theta * r2 / 2.0;
    // y = s e + rho c(phi) about pa.
    const Vec3 y1 = (len * len / 2.0) * (theta * r2 / 2.0) * dir + len * (r3 / 3.0) * along;
    const Mat3 y2 = (len * len * len / 3.0) * (theta * r2 / 2.0) * glm::outerProduct(dir, dir) +
                    (len * len / 2.0) * (r3 / 3.0) * symmetric(dir, along) + len * (r4 / 4.0) * cc;
    m.volume += vol;
    m.first += vol * pa + y1;
    m.second += vol * glm::outerProduct(pa, pa) + symmetric(pa, y1) + y2;
  }

  // Sectors.
  const std::vector<NormalCone> cones = normalCones(core);
  for (size_t i = 0; i < verts.size(); ++i) {
    const Vec3 p = verts[i] - ref;
    const Real vol = r3 / 3.0 * cones[i].solidAngle;
    const Vec3 y1 = r4 / 4.0 * cones[i].first;
    const Mat3 y2 = r5 / 5.0 * cones[i].second;
    m.volume += vol;
    m.first += vol * p + y1;
    m.second += vol * glm::outerProduct(p, p) + symmetric(p, y1) + y2;
  }

  MassProperties out;
  const Vec3 center = m.first / m.volume;
  const Mat3 covariance = m.second - m.volume * glm::outerProduct(center, center);
  const Real trace = covariance[0][0] + covariance[1][1] + covariance[2][2];
  out.volume = m.volume;
  out.mass = density * m.volume;
  out.centerOfMass = ref + center;
  out.inertia = density * (Mat3(trace) - covariance);
  return out;
}

}  // namespace tumble
