// Sequential impulses over contact manifolds: warm starting, Coulomb friction with two tangents
// clamped to the friction disc, restitution above a threshold, speculative contacts, and position
// correction.
//
// Position correction: nonlinear Gauss-Seidel on positions after integration (Box2D v2.x
// "SolvePositionConstraints"; Catto GDC 2009). It moves bodies out of overlap without adding
// velocity, so corrections never turn into bounce or energy gain (Baumgarte's velocity bias
// does: the push-out speed remains as kinetic energy), and unlike split impulses it needs no
// second velocity state. `contact.baumgarte` is the fraction of the error fixed per pass and
// `contact.slop` the penetration left alone so contacts persist. With
// `solver.position_iterations` = 0 the Baumgarte velocity bias is used instead.
#include "dynamics/contact_solver.h"

#include <algorithm>
#include <cmath>

#include "dynamics/body_ops.h"
#include "dynamics/drag.h"

namespace tumble {
namespace {

constexpr Real kMaxCorrection = 0.2;  // m per position pass, keeps deep overlaps from exploding

Real effectiveMass(const SolverBody& a, const SolverBody& b, const Vec3& rA, const Vec3& rB,
                   const Vec3& dir) {
  const Vec3 ca = glm::cross(rA, dir), cb = glm::cross(rB, dir);
  const Real k = a.invMass + b.invMass + glm::dot(ca, a.invI * ca) + glm::dot(cb, b.invI * cb);
  return k > 0.0 ? 1.0 / k : 0.0;
}

void applyImpulse(SolverBody& a, SolverBody& b, const Vec3& rA, const Vec3& rB, const Vec3& p) {
  a.v -= a.invMass * p;
  a.w -= a.invI * glm::cross(rA, p);
  b.v += b.invMass * p;
  b.w += b.invI * glm::cross(rB, p);
}

Vec3 relativeVelocity(const SolverBody& a, const SolverBody& b, const Vec3& rA, const Vec3& rB) {
  return b.v + glm::cross(b.w, rB) - a.v - glm::cross(a.w, rA);
}

}  // namespace

int ContactSolver::solverIndex(int body) {
  const Body& b = (*bodies_)[body];
  const bool moves = (b.isDynamic() && b.awake) || b.type == BodyType::Kinematic;
  if (!moves) return 0;
  if (bodyToSolver_[body] >= 0) return bodyToSolver_[body];
  SolverBody sb;
  sb.v = b.linearVelocity;
  sb.w = b.angularVelocity;
  if (b.isDynamic()) {
    sb.invMass = b.invMass;
    sb.invI = b.invInertiaWorld();
  }
  sb.body = body;
  solverBodies_.push_back(sb);
  bodyToSolver_[body] = static_cast<int>(solverBodies_.size()) - 1;
  return bodyToSolver_[body];
}

void ContactSolver::prepare(std::vector<Body>& bodies, std::vector<Manifold>& manifolds,
                            std::vector<DragConstraint*>& drags, const Settings& s, Real h) {
  bodies_ = &bodies;
  manifolds_ = &manifolds;
  drags_ = &drags;
  contact_ = s.contact;
  h_ = h;
  restitutionThreshold_ = s.contact.restitutionThreshold;
  warmStarting_ = s.solver.warmStarting;
  baumgarteInVelocity_ = s.solver.positionIterations == 0;
  solverBodies_.assign(1, SolverBody{});
  bodyToSolver_.assign(bodies.size(), -1);
  constraints_.clear();
  // Every awake dynamic body gets a solver entry, so storeVelocities covers them all.
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i)
    if (bodies[i].alive && bodies[i].isDynamic() && bodies[i].awake) solverIndex(i);

  for (int mi = 0; mi < static_cast<int>(manifolds.size()); ++mi) {
    Manifold& m = manifolds[mi];
    if (m.pointCount == 0) continue;
    const Body& A = bodies[m.a.index];
    const Body& B = bodies[m.b.index];
    if (!((A.isDynamic() && A.awake) || (B.isDynamic() && B.awake))) continue;
    Constraint c;
    c.a = solverIndex(m.a.index);
    c.b = solverIndex(m.b.index);
    c.manifold = mi;
    c.normal = m.normal;
    c.t1 = m.tangent1;
    c.t2 = m.tangent2;
    c.localNormal = glm::conjugate(A.rotation) * m.normal;
    c.friction = m.friction;
    c.restitution = m.restitution;
    c.count = m.pointCount;
    const SolverBody& sa = solverBodies_[c.a];
    const SolverBody& sb = solverBodies_[c.b];
    for (int k = 0; k < m.pointCount; ++k) {
      const ContactPoint& cp = m.points[k];
      Point& p = c.p[k];
      p.localA = cp.localA;
      p.localB = cp.localB;
      p.rA = A.rotation * cp.localA;
      p.rB = B.rotation * cp.localB;
      p.normalMass = effectiveMass(sa, sb, p.rA, p.rB, c.normal);
      p.tangentMass[0] = effectiveMass(sa, sb, p.rA, p.rB, c.t1);
      p.tangentMass[1] = effectiveMass(sa, sb, p.rA, p.rB, c.t2);
      p.relativeVelocity = glm::dot(relativeVelocity(sa, sb, p.rA, p.rB), c.normal);
      const Real sep = cp.separation;
      if (sep > 0.0) {
        p.bias = sep / h;  // speculative: the gap may close this substep, no more
      } else if (baumgarteInVelocity_) {
        p.bias = contact_.baumgarte * std::min(0.0, sep + contact_.slop) / h;
      }
      if (warmStarting_) {
        p.normalImpulse = cp.normalImpulse;
        p.tangentImpulse[0] = cp.tangentImpulse[0];
        p.tangentImpulse[1] = cp.tangentImpulse[1];
      }
    }
    constraints_.push_back(c);
  }
  for (DragConstraint* d : drags) {
    const int si = solverIndex(d->body);
    prepareDrag(*d, bodies[d->body], solverBodies_[si], si, h);
  }
}

void ContactSolver::warmStart() {
  if (!warmStarting_) return;
  for (Constraint& c : constraints_) {
    SolverBody& a = solverBodies_[c.a];
    SolverBody& b = solverBodies_[c.b];
    for (int k = 0; k < c.count; ++k) {
      const Point& p = c.p[k];
      const Vec3 P =
          p.normalImpulse * c.normal + p.tangentImpulse[0] * c.t1 + p.tangentImpulse[1] * c.t2;
      applyImpulse(a, b, p.rA, p.rB, P);
    }
  }
}

void ContactSolver::solveVelocities() {
  for (DragConstraint* d : *drags_) solveDrag(*d, solverBodies_[d->solverBody]);
  for (Constraint& c : constraints_) {
    SolverBody& a = solverBodies_[c.a];
    SolverBody& b = solverBodies_[c.b];
    // Friction first: non-penetration, solved last, matters more (Box2D).
    for (int k = 0; k < c.count; ++k) {
      Point& p = c.p[k];
      const Vec3 vr = relativeVelocity(a, b, p.rA, p.rB);
      const Real old0 = p.tangentImpulse[0], old1 = p.tangentImpulse[1];
      Real n0 = old0 - p.tangentMass[0] * glm::dot(vr, c.t1);
      Real n1 = old1 - p.tangentMass[1] * glm::dot(vr, c.t2);
      const Real limit = c.friction * p.normalImpulse;
      const Real len2 = n0 * n0 + n1 * n1;
      if (len2 > limit * limit) {
        const Real scale = len2 > 0.0 ? limit / std::sqrt(len2) : 0.0;
        n0 *= scale;
        n1 *= scale;
      }
      p.tangentImpulse[0] = n0;
      p.tangentImpulse[1] = n1;
      applyImpulse(a, b, p.rA, p.rB, (n0 - old0) * c.t1 + (n1 - old1) * c.t2);
    }
    for (int k = 0; k < c.count; ++k) {
      Point& p = c.p[k];
      const Real vn = glm::dot(relativeVelocity(a, b, p.rA, p.rB), c.normal);
      const Real next = std::max(p.normalImpulse - p.normalMass * (vn + p.bias), 0.0);
      const Real delta = next - p.normalImpulse;
      p.normalImpulse = next;
      p.maxNormalImpulse = std::max(p.maxNormalImpulse, next);
      applyImpulse(a, b, p.rA, p.rB, delta * c.normal);
    }
  }
}

void ContactSolver::applyRestitution() {
  for (Constraint& c : constraints_) {
    if (c.restitution == 0.0) continue;
    SolverBody& a = solverBodies_[c.a];
    SolverBody& b = solverBodies_[c.b];
    for (int k = 0; k < c.count; ++k) {
      Point& p = c.p[k];
      if (p.relativeVelocity > -restitutionThreshold_ || p.maxNormalImpulse == 0.0) continue;
      const Real vn = glm::dot(relativeVelocity(a, b, p.rA, p.rB), c.normal);
      const Real next =
          std::max(p.normalImpulse - p.normalMass * (vn + c.restitution * p.relativeVelocity), 0.0);
      const Real delta = next - p.normalImpulse;
      p.normalImpulse = next;
      applyImpulse(a, b, p.rA, p.rB, delta * c.normal);
    }
  }
}

void ContactSolver::storeVelocities() {
  for (size_t i = 1; i < solverBodies_.size(); ++i) {
    Body& b = (*bodies_)[solverBodies_[i].body];
    if (!b.isDynamic()) continue;
    b.linearVelocity = solverBodies_[i].v;
    b.angularVelocity = solverBodies_[i].w;
  }
}

Real ContactSolver::solvePositions() {
  Real deepest = 0.0;
  for (Constraint& c : constraints_) {
    const SolverBody& sa = solverBodies_[c.a];
    const SolverBody& sb = solverBodies_[c.b];
    Body& A = (*bodies_)[(*manifolds_)[c.manifold].a.index];
    Body& B = (*bodies_)[(*manifolds_)[c.manifold].b.index];
    for (int k = 0; k < c.count; ++k) {
      const Point& p = c.p[k];
      const Vec3 n = A.rotation * c.localNormal;
      const Vec3 rA = A.rotation * p.localA, rB = B.rotation * p.localB;
      const Real sep = glm::dot((B.center + rB) - (A.center + rA), n);
      deepest = std::min(deepest, sep);
      const Real C = std::clamp(contact_.baumgarte * (sep + contact_.slop), -kMaxCorrection, 0.0);
      const Real mass = effectiveMass(sa, sb, rA, rB, n);
      const Vec3 P = (-C * mass) * n;
      if (sa.invMass > 0.0) {
        A.center -= sa.invMass * P;
        A.rotation = rotateBy(A.rotation, -(sa.invI * glm::cross(rA, P)));
      }
      if (sb.invMass > 0.0) {
        B.center += sb.invMass * P;
        B.rotation = rotateBy(B.rotation, sb.invI * glm::cross(rB, P));
      }
    }
  }
  return -deepest;
}

void ContactSolver::storeImpulses() {
  for (const Constraint& c : constraints_) {
    Manifold& m = (*manifolds_)[c.manifold];
    for (int k = 0; k < c.count; ++k) {
      m.points[k].normalImpulse = c.p[k].normalImpulse;
      m.points[k].tangentImpulse[0] = c.p[k].tangentImpulse[0];
      m.points[k].tangentImpulse[1] = c.p[k].tangentImpulse[1];
      m.points[k].maxNormalImpulse = c.p[k].maxNormalImpulse;
      m.points[k].relativeVelocity = c.p[k].relativeVelocity;
    }
  }
}

}  // namespace tumble
