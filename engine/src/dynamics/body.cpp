// Bodies: validation, mass properties from the hull, semi-implicit Euler integration.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dynamics/body_ops.h"

namespace tumble {
namespace {

bool finite(const Quat& q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

std::string vecText(const Vec3& v) {
  return "[" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + "]";
}

}  // namespace

Real rollingRadius(const Shape& convex) {
  switch (convex.type()) {
    case ShapeType::Sphere:
    case ShapeType::Capsule:
    case ShapeType::RoundedHull:
      return convex.roundRadius();
    case ShapeType::Cylinder:
      return convex.cylinder()->support.radius;
    default:
      return 0.0;
  }
}

Real rollingResistanceOf(const Body& a, uint32_t childA, const Body& b, uint32_t childB) {
  // A child of a compound rolls on its own radius; a triangle of a mesh or height field (static
  // only) does not roll.
  auto radius = [](const Shape& s, uint32_t child) {
    if (const Compound* c = s.compound())
      return child < c->children.size() ? rollingRadius(c->children[child].shape) : 0.0;
    return rollingRadius(s);
  };
  Real r = 0.0;
  if (a.rollingResistance > 0.0) r = a.rollingResistance * radius(a.shape, childA);
  if (b.rollingResistance > 0.0) r = std::max(r, b.rollingResistance * radius(b.shape, childB));
  return r;
}

Expected<Body> makeBody(const BodyDef& def) {
  using E = Expected<Body>;
  if (!def.shape) return E::failure("body: shape is empty (expected a hull, sphere or capsule)");
  if (def.shape.isStaticOnly() && def.type != BodyType::Static)
    return E::failure(std::string("body: a ") + shapeTypeName(def.shape.type()) +
                      " is static only (a dynamic concave body is a compound)");
  if (def.shape.hull() && def.shape.hull()->vertices().size() < 4)
    return E::failure("body: shape has fewer than 4 vertices");
  if (!isFinite(def.position))
    return E::failure("body: position " + vecText(def.position) + " is not finite");
  if (!isFinite(def.linearVelocity)) return E::failure("body: linear_velocity is not finite");
  if (!isFinite(def.angularVelocity)) return E::failure("body: angular_velocity is not finite");
  if (!finite(def.orientation)) return E::failure("body: orientation is not finite");
  const Real qn = glm::length(def.orientation);
  if (!(qn > 1e-12))
    return E::failure("body: orientation is a zero quaternion (expected a unit w, x, y, z)");
  if (!(def.friction >= 0.0 && def.friction <= 10.0))
    return E::failure("body: friction " + std::to_string(def.friction) + " out of range [0, 10]");
  if (!(def.restitution >= 0.0 && def.restitution <= 1.0))
    return E::failure("body: restitution " + std::to_string(def.restitution) +
                      " out of range [0, 1]");
  // Finite first: an ordered comparison with a NaN raises the invalid-operation flag.
  if (!(std::isfinite(def.rollingResistance) && def.rollingResistance >= 0.0))
    return E::failure("body: rollingResistance " + std::to_string(def.rollingResistance) +
                      " must be finite and >= 0");
  if (std::isnan(def.hitEventSpeed) || def.hitEventSpeed < 0.0)
    return E::failure("body: hitEventSpeed " + std::to_string(def.hitEventSpeed) +
                      " must be >= 0 m/s (+infinity: no hit events)");
  if (!(std::isfinite(def.linearDamping) && def.linearDamping >= 0.0))
    return E::failure("body: linearDamping " + std::to_string(def.linearDamping) +
                      " must be finite and >= 0 (1/s)");
  if (!(std::isfinite(def.angularDamping) && def.angularDamping >= 0.0))
    return E::failure("body: angularDamping " + std::to_string(def.angularDamping) +
                      " must be finite and >= 0 (1/s)");
  if (!std::isfinite(def.gravityScale))
    return E::failure("body: gravityScale " + std::to_string(def.gravityScale) + " must be finite");
  if (def.type == BodyType::Dynamic && !(def.density > 0.0 && std::isfinite(def.density)))
    return E::failure("body: density " + std::to_string(def.density) +
                      " must be > 0 for a dynamic body");

  Body b;
  b.type = def.type;
  b.shape = def.shape;
  b.support = def.shape.support();
  b.rotation = def.orientation / qn;
  b.friction = def.friction;
  b.restitution = def.restitution;
  b.rollingResistance = def.rollingResistance;
  b.userData = def.userData;
  b.filter = def.filter;
  b.isSensor = def.isSensor;
  // Past float's range is off (a plain cast of such a double overflows).
  b.hitEventSpeed = def.hitEventSpeed > std::numeric_limits<float>::max()
                        ? std::numeric_limits<float>::infinity()
                        : static_cast<float>(def.hitEventSpeed);
  b.alive = true;
  if (def.type == BodyType::Dynamic) {
    // The options act on dynamic bodies only; other kinds keep the defaults.
    b.linearDamping = def.linearDamping;
    b.angularDamping = def.angularDamping;
    b.gravityScale = def.gravityScale;
    b.bullet = def.bullet;
    for (int k = 0; k < 3; ++k) {
      b.linearFree[k] = def.lockTranslation[k] ? 0.0 : 1.0;
      b.angularFree[k] = def.lockRotation[k] ? 0.0 : 1.0;
    }
    refreshOptions(b);
  }
  if (def.type == BodyType::Dynamic) {
    const MassProperties mp = def.shape.massProperties(def.density);
    if (!(mp.mass > 0.0) || !std::isfinite(mp.mass))
      return E::failure("body: shape has no volume (mass " + std::to_string(mp.mass) + ")");
    b.mass = mp.mass;
    b.invMass = 1.0 / mp.mass;
    b.localCenter = mp.centerOfMass;
    b.localInertia = mp.inertia;
    b.invLocalInertia = glm::inverse(mp.inertia);
    b.linearVelocity = def.linearVelocity * b.linearFree;
    b.angularVelocity = def.angularVelocity * b.angularFree;
    b.awake = def.awake;
  } else {
    // Static and kinematic bodies: infinite mass; the centre is the centroid of the core's points
    // only so that rotations of kinematic bodies turn about a sensible point.
    Vec3 c(0.0);
    const std::span<const Vec3> vertices = def.shape.support().points;
    for (const Vec3& v : vertices) c += v;
    b.localCenter = c / static_cast<Real>(vertices.size());
    if (def.type == BodyType::Kinematic) {
      b.linearVelocity = def.linearVelocity;
      b.angularVelocity = def.angularVelocity;
    }
    b.awake = def.type == BodyType::Kinematic;
  }
  b.center = def.position + b.rotation * b.localCenter;
  b.radius = boundingRadius(b);
  return b;
}

void refreshOptions(Body& b) {
  b.hasOptions = b.linearDamping != 0.0 || b.angularDamping != 0.0 || b.gravityScale != 1.0 ||
                 b.linearFree != Vec3(1.0) || b.angularFree != Vec3(1.0);
}

Real boundingRadius(const Body& b) {
  return b.shape.radiusAbout(b.localCenter);
}

}  // namespace tumble
