// Shape: the per-kind geometry behind one value type: hulls, spheres and capsules as a core
// (one point or a segment) plus a radius, and rounded hulls (a core hull plus a radius). A new
// kind adds its branch to each query here.
#include "tumble/shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "geometry/core_point.h"
#include "geometry/cylinder.h"

namespace tumble {

const char* shapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::Hull:
      return "hull";
    case ShapeType::Sphere:
      return "sphere";
    case ShapeType::Capsule:
      return "capsule";
    case ShapeType::Compound:
      return "compound";
    case ShapeType::Mesh:
      return "mesh";
    case ShapeType::HeightField:
      return "heightfield";
    case ShapeType::Cylinder:
      return "cylinder";
    case ShapeType::RoundedHull:
      return "rounded";
  }
  return "unknown";
}

SupportShape Shape::support() const {
  if (hull_) return hull_->supportShape();
  if (rounded_) return rounded_->hull.supportShape();
  SupportShape s;
  if (cylinder_) {
    s.points = cylinder_->sample;
    s.cylinder = &cylinder_->support;
    return s;
  }
  if (compound_) {
    s.points = compound_->corePoints;
    return s;
  }
  if (mesh_) {
    s.points = mesh_->vertices;
    return s;
  }
  if (field_) {
    s.points = std::span<const Vec3>(field_->corners, 8);
    return s;
  }
  s.points = std::span<const Vec3>(round_->points, static_cast<size_t>(round_->count));
  return s;
}

namespace {

// Ray against a convex polyhedron as the intersection of half-spaces dot(normal, x) <= offset
// (Ericson 5.3.8): a hull's faces, or a rounded hull's face prism. Local frame; returns false on
// a miss. A ray starting inside hits at t = 0.
template <class Planes>
bool rayPlanes(const Planes& planes, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
               Vec3& nHit) {
  Real tEnter = 0.0, tExit = maxT;
  Vec3 nEnter(0.0);
  bool entered = false;
  for (const auto& f : planes) {
    const Real denom = glm::dot(f.normal, d);
    const Real dist = f.offset - glm::dot(f.normal, o);  // > 0: origin inside this half-space
    if (denom == 0.0) {
      if (dist < 0.0) return false;
      continue;
    }
    const Real t = dist / denom;
    if (denom < 0.0) {
      if (t > tEnter || !entered) {
        if (t >= tEnter) {
          tEnter = t;
          nEnter = f.normal;
          entered = true;
        }
      }
    } else if (t < tExit) {
      tExit = t;
    }
    if (tEnter > tExit) return false;
  }
  tHit = tEnter;
  nHit = entered ? nEnter : -d / glm::length(d);
  return true;
}

bool rayHull(const ConvexHull& hull, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
             Vec3& nHit) {
  return rayPlanes(hull.faces(), o, d, maxT, tHit, nHit);
}

// Ray against the points within `radius` of segment [p, q] (p == q: a sphere). Local frame; a
// ray starting inside hits at t = 0 with the normal against the ray, as rayHull.
bool rayRound(const Vec3& p, const Vec3& q, Real radius, const Vec3& o, const Vec3& d, Real maxT,
              Real& tHit, Vec3& nHit) {
  const Real r2 = radius * radius;
  const Vec3 e = q - p;
  const Real ee = glm::dot(e, e);
  auto closest = [&](const Vec3& x) {
    return ee > 0.0 ? p + std::clamp(glm::dot(x - p, e) / ee, Real(0.0), Real(1.0)) * e : p;
  };
  {
    const Vec3 c = closest(o);
    if (glm::dot(o - c, o - c) <= r2) {
      tHit = 0.0;
      nHit = -d / glm::length(d);
      return true;
    }
  }
  Real best = std::numeric_limits<Real>::infinity();
  // Smallest root t >= 0 of a t^2 + 2 b t + c = 0 (c > 0: the origin is outside).
  auto enter = [](Real a, Real b, Real c) {
    if (!(a > 0.0)) return std::numeric_limits<Real>::infinity();
    const Real disc = b * b - a * c;
    if (disc < 0.0 || b >= 0.0) return std::numeric_limits<Real>::infinity();
    return c / (-b + std::sqrt(disc));  // the smaller root, without cancellation
  };
  for (const Vec3& c : {p, q}) {
    const Vec3 m = o - c;
    best = std::min(best, enter(glm::dot(d, d), glm::dot(m, d), glm::dot(m, m) - r2));
  }
  if (ee > 0.0) {
    // The side: the infinite cylinder about the axis, kept where the hit lies between the ends.
    const Vec3 u = e / std::sqrt(ee);
    const Vec3 m = o - p;
    const Vec3 mp = m - glm::dot(m, u) * u, dp = d - glm::dot(d, u) * u;
    const Real t = enter(glm::dot(dp, dp), glm::dot(mp, dp), glm::dot(mp, mp) - r2);
    if (std::isfinite(t)) {
      const Real axial = glm::dot(m + t * d, u);
      if (axial >= 0.0 && axial * axial <= ee) best = std::min(best, t);
    }
  }
  if (!(best <= maxT)) return false;
  tHit = best;
  const Vec3 hit = o + best * d;
  const Vec3 n = hit - closest(hit);
  const Real len = glm::length(n);
  nHit = len > 0.0 ? n / len : -d / glm::length(d);
  return true;
}

// Ray against a rounded hull, core + ball(r): the union of the core, one prism per face (the face
// swept r along its normal) and one capsule per edge (its ends cover the vertices' spheres) is the
// rounded hull exactly, so its first hit is the first over those pieces.
bool rayRoundedHull(const RoundedHullCore& c, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
                    Vec3& nHit) {
  bool hit = false;
  Real t = 0.0;
  Vec3 n(0.0);
  auto keep = [&](bool found) {  // after the piece's test has written t and n
    if (found && (!hit || t < tHit)) hit = true, tHit = t, nHit = n;
  };
  keep(rayHull(c.hull, o, d, maxT, t, n));
  const auto& verts = c.hull.vertices();
  struct Plane {
    Vec3 normal;
    Real offset;
  };
  std::vector<Plane> prism;
  for (const HullFace& f : c.hull.faces()) {
    prism.clear();
    prism.push_back({f.normal, f.offset + c.radius});
    prism.push_back({-f.normal, -f.offset});
    const size_t count = f.vertices.size();
    for (size_t i = 0; i < count; ++i) {
      const Vec3& p0 = verts[static_cast<size_t>(f.vertices[i])];
      const Vec3& p1 = verts[static_cast<size_t>(f.vertices[(i + 1) % count])];
      const Vec3 side = glm::cross(p1 - p0, f.normal);  // outward: the cycle is counter-clockwise
      const Real len = glm::length(side);
      if (len > 0.0) prism.push_back({side / len, glm::dot(side / len, p0)});
    }
    keep(rayPlanes(prism, o, d, hit ? tHit : maxT, t, n));
  }
  for (const HullEdge& e : c.hull.edges())
    keep(rayRound(verts[static_cast<size_t>(e.a)], verts[static_cast<size_t>(e.b)], c.radius, o, d,
                  hit ? tHit : maxT, t, n));
  return hit;
}

// A capsule along y (segment half length h, radius r), or a sphere when h = 0: a cylinder of
// height 2h and two hemispheres. A hemisphere of mass m about a diameter of its flat face has
// 2/5 m r^2 (half a sphere), its centre 3r/8 from that face; moved out to the segment's end by the
// parallel-axis theorem the pair adds m_s (2/5 r^2 + h^2 + 3/4 h r) about an x or z axis through
// the capsule's centre (m_s: both hemispheres).
MassProperties roundMass(const RoundCore& c, Real density) {
  const Real r = c.radius;
  const Real h = c.count == 2 ? 0.5 * glm::length(c.points[1] - c.points[0]) : 0.0;
  const Real pi = std::numbers::pi;
  const Real volCylinder = pi * r * r * 2.0 * h;
  const Real volSphere = 4.0 / 3.0 * pi * r * r * r;
  const Real mc = density * volCylinder, ms = density * volSphere;
  const Real axial = mc * r * r / 2.0 + ms * 0.4 * r * r;
  const Real across = mc * (r * r / 4.0 + h * h / 3.0) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
  MassProperties m;
  m.volume = volCylinder + volSphere;
  m.mass = mc + ms;
  m.centerOfMass = c.count == 2 ? 0.5 * (c.points[0] + c.points[1]) : c.points[0];
  m.inertia = Mat3(0.0);
  m.inertia[0][0] = across;
  m.inertia[1][1] = axial;
  m.inertia[2][2] = across;
  return m;
}

}  // namespace

MassProperties Shape::massProperties(Real density) const {
  if (hull_) return hull_->massProperties(density);
  if (round_) return roundMass(*round_, density);
  if (cylinder_) return detail::cylinderMass(*cylinder_, density);
  if (rounded_) {
    MassProperties m = rounded_->unitMass;
    m.mass *= density;
    m.inertia *= density;
    return m;
  }
  if (!compound_) return MassProperties{};  // meshes and height fields: static, no volume
  MassProperties m = compound_->unitMass;
  m.mass *= density;
  m.inertia *= density;
  return m;
}

namespace {

// The box of `local` (a local box) under `xf`: its eight corners moved.
Aabb movedBox(const Aabb& local, const Transform& xf) {
  Aabb box{xf.apply(local.lower), xf.apply(local.lower)};
  for (int k = 1; k < 8; ++k) {
    const Vec3 p =
        xf.apply(Vec3(k & 1 ? local.upper.x : local.lower.x, k & 2 ? local.upper.y : local.lower.y,
                      k & 4 ? local.upper.z : local.lower.z));
    box.lower = glm::min(box.lower, p);
    box.upper = glm::max(box.upper, p);
  }
  return box;
}

// Ray against one triangle, either side (Moller and Trumbore 1997); the normal faces the ray.
bool rayTriangle(const TriangleRef& t, const Vec3& o, const Vec3& d, Real maxT, Real& tHit,
                 Vec3& nHit) {
  const Vec3 e1 = t.v[1] - t.v[0], e2 = t.v[2] - t.v[0];
  const Vec3 p = glm::cross(d, e2);
  const Real det = glm::dot(e1, p);
  if (det == 0.0) return false;
  const Real inv = 1.0 / det;
  const Vec3 s = o - t.v[0];
  const Real u = glm::dot(s, p) * inv;
  if (u < 0.0 || u > 1.0) return false;
  const Vec3 q = glm::cross(s, e1);
  const Real v = glm::dot(d, q) * inv;
  if (v < 0.0 || u + v > 1.0) return false;
  const Real hit = glm::dot(e2, q) * inv;
  if (hit < 0.0 || hit > maxT) return false;
  tHit = hit;
  nHit = glm::dot(t.normal, d) < 0.0 ? t.normal : -t.normal;
  return true;
}

}  // namespace

bool Shape::rayCast(const Vec3& origin, const Vec3& direction, Real maxFraction, Real& fraction,
                    Vec3& normal) const {
  if (hull_) return rayHull(*hull_, origin, direction, maxFraction, fraction, normal);
  if (cylinder_)
    return detail::rayCylinder(*cylinder_, origin, direction, maxFraction, fraction, normal);
  if (rounded_) return rayRoundedHull(*rounded_, origin, direction, maxFraction, fraction, normal);
  if (mesh_ || field_) {
    bool hit = false;
    auto test = [&](const TriangleRef& t) {
      Real th;
      Vec3 nh;
      if (rayTriangle(t, origin, direction, hit ? fraction : maxFraction, th, nh) &&
          (!hit || th < fraction))
        hit = true, fraction = th, normal = nh;
    };
    if (mesh_) {
      mesh_->tree.rayQuery(origin, direction, maxFraction, [&](int i) {
        test(mesh_->triangle(static_cast<uint32_t>(i)));
        return hit ? fraction : maxFraction;
      });
    } else {
      Aabb box{origin, origin};
      box = merge(box, Aabb{origin + maxFraction * direction, origin + maxFraction * direction});
      field_->forTriangles(box, test);
    }
    return hit;
  }
  if (compound_) {
    // The nearest child hit; ties to the lower child.
    bool hit = false;
    for (const CompoundChild& c : compound_->children) {
      Real t;
      Vec3 n;
      if (!c.shape.rayCast(c.local.applyInverse(origin), c.local.rotateInverse(direction),
                           hit ? fraction : maxFraction, t, n) ||
          (hit && !(t < fraction)))
        continue;
      hit = true;
      fraction = t;
      normal = c.local.rotate(n);
    }
    return hit;
  }
  return rayRound(round_->points[0], round_->points[round_->count - 1], round_->radius, origin,
                  direction, maxFraction, fraction, normal);
}

Real Shape::radiusAboutOrigin() const {
  if (!round_) return radiusAbout(Vec3(0.0));  // a cylinder's: its rim
  Real r = 0.0;
  for (int i = 0; i < round_->count; ++i) r = std::max(r, glm::length(round_->points[i]));
  return r + round_->radius;
}

Aabb Shape::bounds(const Transform& xf) const {
  if (cylinder_) return detail::cylinderBounds(*cylinder_, xf);
  if (mesh_) return movedBox(mesh_->box, xf);
  if (field_) return movedBox(field_->box, xf);
  if (compound_) {
    const auto& children = compound_->children;
    Aabb box = children[0].shape.bounds(compose(xf, children[0].local));
    for (size_t i = 1; i < children.size(); ++i)
      box = merge(box, children[i].shape.bounds(compose(xf, children[i].local)));
    return box;
  }
  if (round_) {
    const Vec3 r(round_->radius);
    const Vec3 first = detail::applyToCorePoint(xf, round_->points[0]);
    Aabb box{first - r, first + r};
    for (int i = 1; i < round_->count; ++i) {
      const Vec3 p = xf.apply(round_->points[i]);
      box.lower = glm::min(box.lower, p - r);
      box.upper = glm::max(box.upper, p + r);
    }
    return box;
  }
  const auto& verts = coreHull()->vertices();
  Aabb box{xf.apply(verts[0]), xf.apply(verts[0])};
  for (size_t i = 1; i < verts.size(); ++i) {
    const Vec3 p = xf.apply(verts[i]);
    box.lower = glm::min(box.lower, p);
    box.upper = glm::max(box.upper, p);
  }
  if (rounded_) {
    box.lower -= Vec3(rounded_->radius);
    box.upper += Vec3(rounded_->radius);
  }
  return box;
}

Real Shape::radiusAbout(const Vec3& localPoint) const {
  if (cylinder_) return detail::cylinderRadiusAbout(*cylinder_, localPoint);
  if (mesh_ || field_) {
    const Aabb& b = mesh_ ? mesh_->box : field_->box;
    Real r2 = 0.0;
    for (int k = 0; k < 8; ++k) {
      const Vec3 d = Vec3(k & 1 ? b.upper.x : b.lower.x, k & 2 ? b.upper.y : b.lower.y,
                          k & 4 ? b.upper.z : b.lower.z) -
                     localPoint;
      r2 = std::max(r2, glm::dot(d, d));
    }
    return std::sqrt(r2);
  }
  if (compound_) {
    Real r = 0.0;
    for (const CompoundChild& c : compound_->children)
      r = std::max(r, c.shape.radiusAbout(c.local.applyInverse(localPoint)));
    return r;
  }
  if (round_) {
    Real r = 0.0;
    for (int i = 0; i < round_->count; ++i)
      r = std::max(r, glm::length(round_->points[i] - localPoint));
    return r + round_->radius;
  }
  Real r2 = 0.0;
  for (const Vec3& v : coreHull()->vertices()) {
    const Vec3 d = v - localPoint;
    r2 = std::max(r2, glm::dot(d, d));
  }
  return rounded_ ? std::sqrt(r2) + rounded_->radius : std::sqrt(r2);
}

Expected<Shape> makeBox(const Vec3& halfExtents) {
  for (int k = 0; k < 3; ++k)
    if (!(halfExtents[k] > 0.0 && std::isfinite(halfExtents[k])))
      return Expected<Shape>::failure("makeBox: half extent " + std::string(1, "xyz"[k]) + " = " +
                                      std::to_string(halfExtents[k]) +
                                      " (expected finite and > 0 m)");
  Vec3 corners[8];
  for (int i = 0; i < 8; ++i)
    corners[i] =
        Vec3(i & 1 ? halfExtents.x : -halfExtents.x, i & 2 ? halfExtents.y : -halfExtents.y,
             i & 4 ? halfExtents.z : -halfExtents.z);
  return makeHull(corners);
}

namespace {

bool positiveFinite(Real x) {
  return std::isfinite(x) && x > 0.0;
}

}  // namespace

Expected<Shape> makeSphere(Real radius) {
  if (!positiveFinite(radius))
    return Expected<Shape>::failure("makeSphere: radius = " + std::to_string(radius) +
                                    " (expected finite and > 0 m)");
  auto core = std::make_shared<RoundCore>();
  core->radius = radius;
  return Shape(ShapeType::Sphere, std::move(core));
}

Expected<Shape> makeCapsule(Real radius, Real halfHeight) {
  if (!positiveFinite(radius))
    return Expected<Shape>::failure("makeCapsule: radius = " + std::to_string(radius) +
                                    " (expected finite and > 0 m)");
  if (!(std::isfinite(halfHeight) && halfHeight >= 0.0))
    return Expected<Shape>::failure("makeCapsule: half_height = " + std::to_string(halfHeight) +
                                    " (expected finite and >= 0 m)");
  auto core = std::make_shared<RoundCore>();
  core->points[0] = Vec3(0.0, -halfHeight, 0.0);
  core->points[1] = Vec3(0.0, halfHeight, 0.0);
  core->count = 2;
  core->radius = radius;
  return Shape(ShapeType::Capsule, std::move(core));
}

Expected<Shape> makeCompound(std::span<const CompoundChild> children) {
  using E = Expected<Shape>;
  if (children.empty()) return E::failure("makeCompound: no children (expected at least one)");
  if (children.size() > 65535)
    return E::failure("makeCompound: " + std::to_string(children.size()) +
                      " children (at most 65535)");
  auto c = std::make_shared<Compound>();
  c->children.reserve(children.size());
  for (size_t i = 0; i < children.size(); ++i) {
    const std::string at = "makeCompound: child " + std::to_string(i) + ": ";
    CompoundChild child = children[i];
    if (!child.shape) return E::failure(at + "empty shape");
    if (!child.shape.isConvex())
      return E::failure(at + "a " + shapeTypeName(child.shape.type()) +
                        " (expected a hull, sphere, capsule, cylinder or rounded hull)");
    const Quat& q = child.local.rotation;
    if (!isFinite(child.local.position) ||
        !(std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z)))
      return E::failure(at + "pose is not finite");
    const Real qn = glm::length(q);
    if (!(qn > 1e-12)) return E::failure(at + "orientation is a zero quaternion");
    child.local.rotation = q / qn;
    c->children.push_back(std::move(child));
  }
  // Mass at unit density: the children's masses and centres summed, then each child's inertia
  // turned into the compound's axes and moved to the common centre (parallel-axis theorem).
  MassProperties& m = c->unitMass;
  Vec3 moment(0.0);
  for (const CompoundChild& child : c->children) {
    const MassProperties cm = child.shape.massProperties(1.0);
    m.volume += cm.volume;
    m.mass += cm.mass;
    moment += cm.mass * child.local.apply(cm.centerOfMass);
  }
  m.centerOfMass = moment / m.mass;
  m.inertia = Mat3(0.0);
  for (const CompoundChild& child : c->children) {
    const MassProperties cm = child.shape.massProperties(1.0);
    const Mat3 r = glm::mat3_cast(child.local.rotation);
    const Vec3 d = child.local.apply(cm.centerOfMass) - m.centerOfMass;
    m.inertia += r * cm.inertia * glm::transpose(r) +
                 cm.mass * (glm::dot(d, d) * Mat3(1.0) - glm::outerProduct(d, d));
  }
  for (const CompoundChild& child : c->children) {
    c->childBounds.push_back(child.shape.bounds(child.local));
    for (const Vec3& p : child.shape.support().points)
      c->corePoints.push_back(child.local.apply(p));
  }
  c->tree = StaticBvh(c->childBounds);
  c->summariseChildren();
  return Shape(std::shared_ptr<const Compound>(std::move(c)));
}

void Compound::summariseChildren() {
  anyFilter = anySensor = solidInherits = false;
  solidFilters.clear();
  for (const CompoundChild& child : children) {
    anyFilter = anyFilter || child.filter.has_value();
    anySensor = anySensor || child.isSensor;
    if (child.isSensor) continue;
    if (!child.filter)
      solidInherits = true;
    else if (std::find(solidFilters.begin(), solidFilters.end(), *child.filter) ==
             solidFilters.end())
      solidFilters.push_back(*child.filter);
  }
}

Expected<Shape> makeHull(std::span<const Vec3> points) {
  Expected<ConvexHull> hull = ConvexHull::build(points);
  if (!hull) return Expected<Shape>::failure(hull.error());
  return Shape(std::make_shared<const ConvexHull>(std::move(*hull)));
}

Expected<Shape> makeRoundedHull(std::span<const Vec3> points, Real radius) {
  if (!positiveFinite(radius))
    return Expected<Shape>::failure("makeRoundedHull: radius = " + std::to_string(radius) +
                                    " (expected finite and > 0 m)");
  Expected<ConvexHull> hull = ConvexHull::build(points);
  if (!hull) return Expected<Shape>::failure(hull.error());
  auto core = std::make_shared<RoundedHullCore>();
  core->hull = std::move(*hull);
  core->radius = radius;
  core->unitMass = roundedHullMass(core->hull, radius, 1.0);
  return Shape(std::shared_ptr<const RoundedHullCore>(std::move(core)));
}

}  // namespace tumble
