// Cylinders about the local y axis: an exact support function for GJK and EPA (support.h), and
// closed forms for mass, bounds and ray casts.
#include "geometry/cylinder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace tumble {

namespace detail {

MassProperties cylinderMass(const CylinderCore& c, Real density) {
  const Real r = c.support.radius, h = c.support.halfHeight;
  MassProperties m;
  m.volume = std::numbers::pi * r * r * 2.0 * h;
  m.mass = density * m.volume;
  m.centerOfMass = Vec3(0.0);
  m.inertia = Mat3(0.0);
  const Real across = m.mass * (r * r / 4.0 + h * h / 3.0);
  m.inertia[0][0] = across;
  m.inertia[1][1] = m.mass * r * r / 2.0;
  m.inertia[2][2] = across;
  return m;
}

Aabb cylinderBounds(const CylinderCore& c, const Transform& xf) {
  const Vec3 a = xf.rotate(Vec3(0.0, 1.0, 0.0));
  Vec3 e;
  for (int i = 0; i < 3; ++i)
    e[i] = c.support.halfHeight * std::abs(a[i]) +
           c.support.radius * std::sqrt(std::max(Real(0.0), 1.0 - a[i] * a[i]));
  return Aabb{xf.position - e, xf.position + e};
}

bool rayCylinder(const CylinderCore& c, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
                 Vec3& nHit) {
  const Real r = c.support.radius, h = c.support.halfHeight;
  const Real c0 = o.x * o.x + o.z * o.z - r * r;
  if (std::abs(o.y) <= h && c0 <= 0.0) {
    tHit = 0.0;
    nHit = -d / glm::length(d);
    return true;
  }
  constexpr Real kInf = std::numeric_limits<Real>::infinity();
  // The slab |y| <= h and the infinite cylinder x^2 + z^2 <= r^2: the ray is in both over
  // [enter, leave]; the later of the two entries is the hit.
  Real slabIn = -kInf, slabOut = kInf;
  if (d.y != 0.0) {
    const Real t0 = (-h - o.y) / d.y, t1 = (h - o.y) / d.y;
    slabIn = std::min(t0, t1);
    slabOut = std::max(t0, t1);
  } else if (std::abs(o.y) > h) {
    return false;
  }
  Real sideIn = -kInf, sideOut = kInf;
  const Real a = d.x * d.x + d.z * d.z;
  if (a > 0.0) {
    const Real b = o.x * d.x + o.z * d.z;
    const Real disc = b * b - a * c0;
    if (disc < 0.0) return false;
    const Real q = -(b + std::copysign(std::sqrt(disc), b));  // roots q / a and c0 / q
    Real t0 = q / a, t1 = q != 0.0 ? c0 / q : t0;
    if (t0 > t1) std::swap(t0, t1);
    sideIn = t0;
    sideOut = t1;
  } else if (c0 > 0.0) {
    return false;
  }
  const Real enter = std::max(slabIn, sideIn), leave = std::min(slabOut, sideOut);
  if (!(enter <= leave) || enter < 0.0 || enter > maxT) return false;
  tHit = enter;
  if (slabIn >= sideIn) {
    nHit = Vec3(0.0, d.y > 0.0 ? -1.0 : 1.0, 0.0);
  } else {
    const Vec3 p = o + enter * d;
    const Real l = std::sqrt(p.x * p.x + p.z * p.z);
    nHit = l > 0.0 ? Vec3(p.x / l, 0.0, p.z / l) : -d / glm::length(d);
  }
  return true;
}

Real cylinderRadiusAbout(const CylinderCore& c, const Vec3& p) {
  const Real out = std::sqrt(p.x * p.x + p.z * p.z) + c.support.radius;
  const Real dy = std::abs(p.y) + c.support.halfHeight;
  return std::sqrt(out * out + dy * dy);
}

}  // namespace detail

Expected<Shape> makeCylinder(Real radius, Real halfHeight) {
  if (!(std::isfinite(radius) && radius > 0.0))
    return Expected<Shape>::failure("makeCylinder: radius = " + std::to_string(radius) +
                                    " (expected finite and > 0 m)");
  if (!(std::isfinite(halfHeight) && halfHeight > 0.0))
    return Expected<Shape>::failure("makeCylinder: half_height = " + std::to_string(halfHeight) +
                                    " (expected finite and > 0 m)");
  auto c = std::make_shared<CylinderCore>();
  c->support.radius = radius;
  c->support.halfHeight = halfHeight;
  for (int k = 0; k < 8; ++k) {
    const Real angle = k * std::numbers::pi / 4.0;
    const Real x = radius * std::cos(angle), z = radius * std::sin(angle);
    c->sample[k] = Vec3(x, -halfHeight, z);
    c->sample[8 + k] = Vec3(x, halfHeight, z);
  }
  return Shape(std::shared_ptr<const CylinderCore>(std::move(c)));
}

}  // namespace tumble
