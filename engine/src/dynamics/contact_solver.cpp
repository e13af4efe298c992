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

constexpr Real kMaxCorrection = 0.2;    // m per position pass, keeps deep overlaps from exploding
constexpr Real kRegularisation = 1e-6;  // relative, of the manifold's K for the exact solve
constexpr int kBlockSweeps = 6;
constexpr int kActiveSetAttempts = 3;  // exact re-solves on a changed set of pushing points

// Index of (i, j), j <= i, in a lower triangle packed row by row.
constexpr int tri(int i, int j) {
  return i * (i + 1) / 2 + j;
}

// Cholesky factor L (lower, packed) of A + eps I for a small symmetric positive semi-definite A.
// Returns false when a pivot is not positive.
bool factorSpd(int n, const Real a[4][4], Real eps, Real* l) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) {
      Real v = a[i][j] + (i == j ? eps : 0.0);
      for (int q = 0; q < j; ++q) v -= l[tri(i, q)] * l[tri(j, q)];
      if (i == j) {
        if (!(v > 0.0)) return false;
        l[tri(i, i)] = std::sqrt(v);
      } else {
        l[tri(i, j)] = v / l[tri(j, j)];
      }
    }
  return true;
}

// Solves L L^T x = b in place (b becomes x).
void solveFactored(int n, const Real* l, Real* b) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) b[i] -= l[tri(i, j)] * b[j];
    b[i] /= l[tri(i, i)];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) b[i] -= l[tri(j, i)] * b[j];
    b[i] /= l[tri(i, i)];
  }
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
  sweep_ = 0;
  solverBodies_.assign(1, SolverBody{});
  bodyToSolver_.assign(bodies.size(), -1);
  constraints_.clear();
  cold_.clear();
  moveStamp_.clear();
  moveCount_ = 0;
  // Every awake dynamic body gets a solver entry, so storeVelocities covers them all.
  for (int i = 0; i < static_cast<int>(bodies.size()); ++i)
    if (bodies[i].alive && bodies[i].isDynamic() && bodies[i].awake) solverIndex(i);

  for (int mi = 0; mi < static_cast<int>(manifolds.size()); ++mi) {
    const Manifold& m = manifolds[mi];
    if (m.pointCount == 0) continue;
    const Body& A = bodies[m.a.index];
    const Body& B = bodies[m.b.index];
    if (!((A.isDynamic() && A.awake) || (B.isDynamic() && B.awake))) continue;
    Constraint& c = constraints_.emplace_back();
    c.a = solverIndex(m.a.index);
    c.b = solverIndex(m.b.index);
    c.manifold = mi;
    c.normal = m.normal;
    c.t1 = m.tangent1;
    c.t2 = m.tangent2;
    Cold& cold = cold_.emplace_back();
    cold.localNormal = glm::conjugate(A.rotation) * m.normal;
    c.friction = m.friction;
    c.restitution = m.restitution;
    c.count = m.pointCount;
    const SolverBody& sa = solverBodies_[c.a];
    const SolverBody& sb = solverBodies_[c.b];
    const Real mSum = sa.invMass + sb.invMass;
    const Vec3 dv = sb.v - sa.v;
    const Mat3 rotA = glm::mat3_cast(A.rotation), rotB = glm::mat3_cast(B.rotation);
    Vec3 rA[4], rB[4];
    for (int k = 0; k < m.pointCount; ++k) {
      const ContactPoint& cp = m.points[k];
      Point& p = c.p[k];
      p = Point{};
      rA[k] = rotA * cp.localA;
      rB[k] = rotB * cp.localB;
      p.nA = glm::cross(rA[k], c.normal);
      p.nB = glm::cross(rB[k], c.normal);
      p.iA = sa.invI * p.nA;
      p.iB = sb.invI * p.nB;
      const Real kn = mSum + glm::dot(p.nA, p.iA) + glm::dot(p.nB, p.iB);
      p.normalMass = kn > 0.0 ? 1.0 / kn : 0.0;
      cold.relativeVelocity[k] =
          glm::dot(dv, c.normal) + glm::dot(sb.w, p.nB) - glm::dot(sa.w, p.nA);
      const Real sep = cp.separation;
      if (sep > 0.0) {
        p.bias = sep / h;  // speculative: the gap may close this substep, no more
      } else if (baumgarteInVelocity_) {
        p.bias = contact_.baumgarte * std::min(0.0, sep + contact_.slop) / h;
      }
      if (warmStarting_) p.normalImpulse = cp.normalImpulse;
    }
    Vec3 rAc(0.0), rBc(0.0);
    for (int k = 0; k < c.count; ++k) rAc += rA[k], rBc += rB[k];
    rAc /= static_cast<Real>(c.count);
    rBc /= static_cast<Real>(c.count);
    Real deepest = 0.0;
    for (int k = 0; k < c.count; ++k) {
      const Vec3 d = rB[k] - rBc;
      c.twistArm += glm::length(d - glm::dot(d, c.normal) * c.normal) / static_cast<Real>(c.count);
      deepest = std::max(deepest, -m.points[k].separation);
    }
    // A corner or edge pressed d deep into a face overlaps it in a patch about d across, which
    // resists twisting: without it a body pinched between two corner contacts swings about the
    // line through them like a frictionless pendulum, for ever (1000-box heap, seed 18).
    c.twistArm = std::max(c.twistArm, deepest);
    {
      const Vec3 t[2] = {c.t1, c.t2};
      for (int i = 0; i < 2; ++i) {
        c.fA[i] = glm::cross(rAc, t[i]);
        c.fB[i] = glm::cross(rBc, t[i]);
        c.fIA[i] = sa.invI * c.fA[i];
        c.fIB[i] = sb.invI * c.fB[i];
      }
      Real kt[2][2];
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          kt[i][j] =
              (i == j ? mSum : 0.0) + glm::dot(c.fA[i], c.fIA[j]) + glm::dot(c.fB[i], c.fIB[j]);
      const Real det = kt[0][0] * kt[1][1] - kt[0][1] * kt[1][0];
      if (det > 0.0) {
        c.tangentInv[0][0] = kt[1][1] / det;
        c.tangentInv[1][1] = kt[0][0] / det;
        c.tangentInv[0][1] = -kt[0][1] / det;
        c.tangentInv[1][0] = -kt[1][0] / det;
      } else {
        c.tangentInv[0][0] = c.tangentInv[0][1] = c.tangentInv[1][0] = c.tangentInv[1][1] = 0.0;
      }
      c.twistIA = sa.invI * c.normal;
      c.twistIB = sb.invI * c.normal;
      const Real kTwist = glm::dot(c.normal, c.twistIA) + glm::dot(c.normal, c.twistIB);
      c.twistMass = kTwist > 0.0 ? 1.0 / kTwist : 0.0;
    }
    if (warmStarting_) {
      c.frictionImpulse[0] = m.frictionImpulse[0];
      c.frictionImpulse[1] = m.frictionImpulse[1];
      c.twistImpulse = m.twistImpulse;
    }
    // The manifold's normal coupling matrix K_ij = J_i M^-1 J_j^T for the block solve.
    for (int i = 0; i < c.count; ++i)
      for (int j = 0; j <= i; ++j)
        c.k[i][j] = c.k[j][i] =
            mSum + glm::dot(c.p[i].nA, c.p[j].iA) + glm::dot(c.p[i].nB, c.p[j].iB);
    // Cholesky factor of K + eps I (K is singular for four coplanar points: the regularisation
    // picks the least-norm split of the load, which the iterative solve would converge to).
    c.cholesky = false;
    c.setCount = -1;
    if (c.count > 1) {
      Real diag = 0.0;
      for (int i = 0; i < c.count; ++i) diag = std::max(diag, c.k[i][i]);
      c.cholesky = diag > 0.0 && factorSpd(c.count, c.k, kRegularisation * diag, c.l);
    }
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
    Real sum = 0.0;
    Vec3 wA(0.0), wB(0.0);
    for (int k = 0; k < c.count; ++k) {
      const Point& p = c.p[k];
      sum += p.normalImpulse;
      wA += p.normalImpulse * p.iA;
      wB += p.normalImpulse * p.iB;
    }
    const Real f0 = c.frictionImpulse[0], f1 = c.frictionImpulse[1];
    const Vec3 linear = sum * c.normal + f0 * c.t1 + f1 * c.t2;
    a.v -= a.invMass * linear;
    b.v += b.invMass * linear;
    a.w -= wA + f0 * c.fIA[0] + f1 * c.fIA[1] + c.twistImpulse * c.twistIA;
    b.w += wB + f0 * c.fIB[0] + f1 * c.fIB[1] + c.twistImpulse * c.twistIB;
  }
}

void ContactSolver::solveVelocities() {
  for (DragConstraint* d : *drags_) solveDrag(*d, solverBodies_[d->solverBody]);
  // Alternate the sweep direction (symmetric Gauss-Seidel): a fixed order biases the residual
  // of an unconverged solve the same way every iteration, and piles rock in that direction.
  if (sweep_++ & 1) {
    for (auto it = constraints_.rbegin(); it != constraints_.rend(); ++it) solveConstraint(*it);
  } else {
    for (Constraint& c : constraints_) solveConstraint(c);
  }
}

// The manifold's normal LCP: impulses lambda >= 0 with r + K (lambda - old) >= 0 and
// complementarity. Exact Cholesky solves on a guessed set of pushing points (the usual resting
// case: all of them, or last iteration's set), accepted when the solution is complementary; else
// a few projected Gauss-Seidel sweeps on K.
void ContactSolver::solveBlock(Constraint& c, const Real* r, const Real* old, Real* lambda,
                               bool cache) const {
  const int count = std::min(c.count, 4);  // at most 4, said so for the compiler's bounds checks
  if (count == 1) {
    lambda[0] = std::max(old[0] - c.p[0].normalMass * r[0], 0.0);
    return;
  }
  // Solves the sub-system of the points in idx[0..n) exactly with factor l (the others released
  // to zero); true and lambda set when the result is complementary. `active` gets the set the
  // result suggests next when it is not.
  auto trySet = [&](int n, const int* idx, const Real* l, bool* active) {
    bool in[4] = {false, false, false, false};
    for (int p = 0; p < n; ++p) in[idx[p]] = true;
    Real x[4] = {0.0, 0.0, 0.0, 0.0};  // impulse changes
    for (int i = 0; i < count; ++i)
      if (!in[i]) x[i] = -old[i];
    Real rhs[4];
    for (int p = 0; p < n; ++p) {
      rhs[p] = -r[idx[p]];
      for (int i = 0; i < count; ++i)
        if (!in[i]) rhs[p] -= c.k[idx[p]][i] * x[i];
    }
    solveFactored(n, l, rhs);
    for (int p = 0; p < n; ++p) x[idx[p]] = rhs[p];
    bool good = true;
    for (int i = 0; i < count; ++i) {
      active[i] = in[i];
      if (in[i]) {
        if (old[i] + x[i] < 0.0) active[i] = false, good = false;
      } else {
        Real vn = r[i];
        for (int j = 0; j < count; ++j) vn += c.k[i][j] * x[j];
        if (vn < 0.0) active[i] = true, good = false;
      }
    }
    if (good)
      for (int i = 0; i < count; ++i) lambda[i] = std::max(old[i] + x[i], 0.0);
    return good;
  };
  // Every point released: lambda = 0 is the answer when then no point approaches (the usual
  // case for speculative points that stay apart).
  auto tryZero = [&]() {
    for (int i = 0; i < count; ++i) {
      Real vn = r[i];
      for (int j = 0; j < count; ++j) vn -= c.k[i][j] * old[j];
      if (vn < 0.0) return false;
    }
    for (int i = 0; i < count; ++i) lambda[i] = 0.0;
    return true;
  };
  if (c.cholesky) {
    bool active[4];
    if (cache && c.setCount == 0 && tryZero()) return;
    if (cache && c.setCount > 0 && c.setCount < count &&
        trySet(c.setCount, c.setIndex, c.setL, active))
      return;
    // All points pushing: solve K d = -r with the Cholesky factor of (K + eps I) from prepare().
    const int all[4] = {0, 1, 2, 3};
    if (trySet(count, all, c.l, active)) {
      if (cache) c.setCount = count;
      return;
    }
    // Active set (the enumeration of Box2D's two-point block solver, by iteration): keep the
    // points that pushed, release the others to zero, solve the smaller system exactly, and
    // accept when the released points do not penetrate and the kept ones still push.
    for (int attempt = 0; attempt < kActiveSetAttempts; ++attempt) {
      int idx[4], n = 0;
      for (int i = 0; i < count; ++i)
        if (active[i]) idx[n++] = i;
      if (n == 0) {
        if (!tryZero()) break;
        if (cache) c.setCount = 0;
        return;
      }
      Real a[4][4], l[10], diag = 0.0;
      for (int p = 0; p < n; ++p) {
        for (int q = 0; q < n; ++q) a[p][q] = c.k[idx[p]][idx[q]];
        diag = std::max(diag, a[p][p]);
      }
      if (!factorSpd(n, a, kRegularisation * diag, l)) break;
      if (trySet(n, idx, l, active)) {
        if (cache) {
          c.setCount = n;
          for (int p = 0; p < n; ++p) {
            c.setIndex[p] = idx[p];
            for (int q = 0; q <= p; ++q) c.setL[tri(p, q)] = l[tri(p, q)];
          }
        }
        return;
      }
    }
  }
  for (int i = 0; i < count; ++i) lambda[i] = old[i];
  for (int sweep = 0; sweep < kBlockSweeps; ++sweep) {
    for (int i = 0; i < count; ++i) {
      Real vn = r[i];
      for (int j = 0; j < count; ++j) vn += c.k[i][j] * (lambda[j] - old[j]);
      lambda[i] = std::max(lambda[i] - c.p[i].normalMass * vn, 0.0);
    }
  }
}

void ContactSolver::solveConstraint(Constraint& c) {
  SolverBody& a = solverBodies_[c.a];
  SolverBody& b = solverBodies_[c.b];
  // Friction first: non-penetration, solved last, matters more (Box2D). Friction acts at the
  // centre of the manifold, both tangents at once (2x2 block) clamped to the disc mu * sum(normal
  // impulses), and a twist about the normal clamped to mu * sum(normal) * mean arm. Solving it at
  // the centre, not per point, keeps the order of the points from spinning stacked bodies
  // ("central friction", as in PhysX's patch friction).
  Real normalSum = 0.0;
  for (int k = 0; k < c.count; ++k) normalSum += c.p[k].normalImpulse;
  // No load and no friction carried: the friction would be clamped to zero (speculative points
  // that have not closed, a third of a falling heap's manifolds).
  const bool unloaded = normalSum == 0.0 && c.frictionImpulse[0] == 0.0 &&
                        c.frictionImpulse[1] == 0.0 && c.twistImpulse == 0.0;
  if (!unloaded) {
    const Vec3 dv = b.v - a.v;
    const Real v0 = glm::dot(dv, c.t1) + glm::dot(b.w, c.fB[0]) - glm::dot(a.w, c.fA[0]);
    const Real v1 = glm::dot(dv, c.t2) + glm::dot(b.w, c.fB[1]) - glm::dot(a.w, c.fA[1]);
    const Real old0 = c.frictionImpulse[0], old1 = c.frictionImpulse[1];
    Real n0 = old0 - (c.tangentInv[0][0] * v0 + c.tangentInv[0][1] * v1);
    Real n1 = old1 - (c.tangentInv[1][0] * v0 + c.tangentInv[1][1] * v1);
    const Real limit = c.friction * normalSum;
    const Real len2 = n0 * n0 + n1 * n1;
    if (len2 > limit * limit) {
      const Real scale = len2 > 0.0 ? limit / std::sqrt(len2) : 0.0;
      n0 *= scale;
      n1 *= scale;
    }
    c.frictionImpulse[0] = n0;
    c.frictionImpulse[1] = n1;
    const Real d0 = n0 - old0, d1 = n1 - old1;
    const Vec3 p = d0 * c.t1 + d1 * c.t2;
    a.v -= a.invMass * p;
    b.v += b.invMass * p;
    a.w -= d0 * c.fIA[0] + d1 * c.fIA[1];
    b.w += d0 * c.fIB[0] + d1 * c.fIB[1];
  }
  if (!unloaded) {
    const Real wn = glm::dot(b.w - a.w, c.normal);
    const Real old = c.twistImpulse;
    const Real limit = c.friction * normalSum * c.twistArm;
    c.twistImpulse = std::clamp(old - c.twistMass * wn, -limit, limit);
    const Real d = c.twistImpulse - old;
    a.w -= d * c.twistIA;
    b.w += d * c.twistIB;
  }
  // Normal: the points of one manifold are solved together (a small projected Gauss-Seidel on
  // the manifold's own K matrix, then one impulse applied), so the order of the points leaves no
  // spurious spin. Point-by-point sequential impulses tilt stacked boxes a little every step
  // while the stack settles, and a tall tower leans over (a block solver in the spirit of Box2D
  // v2's two-point LCP, Catto GDC 2009, extended to four points by iteration).
  Real r[4], lambda[4], old[4];
  const Real vn = glm::dot(b.v - a.v, c.normal);
  for (int i = 0; i < c.count; ++i) {
    const Point& p = c.p[i];
    r[i] = vn + glm::dot(b.w, p.nB) - glm::dot(a.w, p.nA) + p.bias;
    lambda[i] = old[i] = p.normalImpulse;
  }
  solveBlock(c, r, old, lambda, true);
  bool changed = false;
  for (int i = 0; i < c.count; ++i) {
    changed = changed || lambda[i] != old[i];
    c.p[i].maxNormalImpulse = std::max(c.p[i].maxNormalImpulse, lambda[i]);
  }
  if (!changed) return;
  Real sum = 0.0;
  Vec3 wA(0.0), wB(0.0);
  for (int i = 0; i < c.count; ++i) {
    Point& p = c.p[i];
    const Real d = lambda[i] - old[i];
    p.normalImpulse = lambda[i];
    sum += d;
    wA += d * p.iA;
    wB += d * p.iB;
  }
  a.v -= (a.invMass * sum) * c.normal;
  a.w -= wA;
  b.v += (b.invMass * sum) * c.normal;
  b.w += wB;
}

void ContactSolver::applyRestitution() {
  for (size_t ci = 0; ci < constraints_.size(); ++ci) {
    Constraint& c = constraints_[ci];
    if (c.restitution == 0.0) continue;
    const Real* relativeVelocity = cold_[ci].relativeVelocity;
    SolverBody& a = solverBodies_[c.a];
    SolverBody& b = solverBodies_[c.b];
    for (int k = 0; k < c.count; ++k) {
      Point& p = c.p[k];
      if (relativeVelocity[k] > -restitutionThreshold_ || p.maxNormalImpulse == 0.0) continue;
      const Real vn = glm::dot(b.v - a.v, c.normal) + glm::dot(b.w, p.nB) - glm::dot(a.w, p.nA);
      const Real next = std::max(
          p.normalImpulse - p.normalMass * (vn + c.restitution * relativeVelocity[k]), 0.0);
      const Real delta = next - p.normalImpulse;
      p.normalImpulse = next;
      a.v -= (a.invMass * delta) * c.normal;
      a.w -= delta * p.iA;
      b.v += (b.invMass * delta) * c.normal;
      b.w += delta * p.iB;
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
  // Nonlinear Gauss-Seidel per manifold: separations are re-measured from the current poses, the
  // manifold's points are corrected together through its K matrix (as the normal velocities are)
  // and the resulting translation and rotation applied once.
  // A manifold that needed no correction is measured again only after one of its bodies moved:
  // the same poses would give the same separations (exactly; this only saves the work).
  if (moveStamp_.size() != solverBodies_.size()) moveStamp_.assign(solverBodies_.size(), 0);
  Real deepest = 0.0;
  for (size_t ci = 0; ci < constraints_.size(); ++ci) {
    Constraint& c = constraints_[ci];
    Cold& cold = cold_[ci];
    if (cold.idle && moveStamp_[c.a] <= cold.stamp && moveStamp_[c.b] <= cold.stamp) {
      deepest = std::min(deepest, cold.idleDeepest);
      continue;
    }
    const SolverBody& sa = solverBodies_[c.a];
    const SolverBody& sb = solverBodies_[c.b];
    const Manifold& m = (*manifolds_)[c.manifold];
    Body& A = (*bodies_)[m.a.index];
    Body& B = (*bodies_)[m.b.index];
    const Vec3 n = A.rotation * cold.localNormal;
    Vec3 rA[4], rB[4];
    Real C[4], lambda[4] = {0.0, 0.0, 0.0, 0.0};
    bool any = false;
    Real least = 0.0;
    for (int k = 0; k < c.count; ++k) {
      rA[k] = A.rotation * m.points[k].localA;
      rB[k] = B.rotation * m.points[k].localB;
      const Real sep = glm::dot((B.center + rB[k]) - (A.center + rA[k]), n);
      least = std::min(least, sep);
      C[k] = std::clamp(contact_.baumgarte * (sep + contact_.slop), -kMaxCorrection, 0.0);
      any = any || C[k] < 0.0;
    }
    deepest = std::min(deepest, least);
    cold.idle = !any;
    cold.stamp = moveCount_;
    cold.idleDeepest = least;
    if (!any) continue;
    const Real zero[4] = {0.0, 0.0, 0.0, 0.0};
    solveBlock(c, C, zero, lambda, true);
    Vec3 linear(0.0), angularA(0.0), angularB(0.0);
    for (int k = 0; k < c.count; ++k) {
      linear += lambda[k] * n;
      angularA += glm::cross(rA[k], lambda[k] * n);
      angularB += glm::cross(rB[k], lambda[k] * n);
    }
    ++moveCount_;
    if (sa.invMass > 0.0) {
      A.center -= sa.invMass * linear;
      A.rotation = rotateBy(A.rotation, -(sa.invI * angularA));
      moveStamp_[c.a] = moveCount_;
    }
    if (sb.invMass > 0.0) {
      B.center += sb.invMass * linear;
      B.rotation = rotateBy(B.rotation, sb.invI * angularB);
      moveStamp_[c.b] = moveCount_;
    }
  }
  return -deepest;
}

void ContactSolver::storeImpulses() {
  for (const Constraint& c : constraints_) {
    Manifold& m = (*manifolds_)[c.manifold];
    m.frictionImpulse[0] = c.frictionImpulse[0];
    m.frictionImpulse[1] = c.frictionImpulse[1];
    m.twistImpulse = c.twistImpulse;
    for (int k = 0; k < c.count; ++k) {
      m.points[k].normalImpulse = c.p[k].normalImpulse;
    }
  }
}

}  // namespace tumble
