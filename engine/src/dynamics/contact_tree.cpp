// contact.exact_ratio: the normal rows of loop-free contact groups with a mass ratio, solved
// together exactly (the joints' exact groups, joint_tree.cpp, on contact rows).
//
// Why: at rest a soft contact is a spring holding its load, k = m_eff (2 pi f)^2 with m_eff the
// row's own effective mass, so a 1 kg box under a 100 kg one holds 100 kg with a 1 kg body's
// spring and the stack sinks 7 mm more than a 1 kg box would (docs/ARCHITECTURE.md, "Solver").
// Taken against the group's K = J M^-1 J^T instead (lambda += -massScale K^-1 (J v + bias) -
// impulseScale lambda), the spring is K^-1 omega^2: at rest the contact impulses hold every body
// against gravity, so K lambda = J (-g h), which is 0 between two bodies (both fall alike) and
// g h against the ground: each contact gives as if it held its own body alone, whatever it holds.
//
// What: the contacts of every group of dynamic bodies joined by contacts (its contacts with
// static, kinematic and sleeping bodies included) in which two touching bodies' masses differ by
// contact.exact_ratio or more. Left with the Gauss-Seidel rows: a group whose contacts form a
// loop (a box touching two that touch each other), contacts with restitution, rolling
// resistance or a locked translation axis, and contacts between two bodies with joints (the
// joints may hold them against the contact, which the group, whose K knows only contacts, would
// push apart at once: a car's wheel pressed into its chassis drove the car sideways). The rows
// (a manifold's points' normals, at most 4 per contact; the anchors and inverse inertias are the
// step's, as the wide rows') are factored once per step; every solve pass (soft) and relax pass
// (rigid) then solves them after the wide rows, which keep the contacts' friction, warm start
// and store (the lanes' normal mass and impulse scale are 0, so the wide rows pass their normal
// impulses through unchanged).
//
// Contacts push and never pull (an active set, per group: the groups share no moving body, so
// each goes through its rounds as if alone). A point out of the solve comes back at a pass's
// start where its contact closes or presses (J v + bias < 0); then, round by round, the group is
// solved and, if some point's impulse would be negative, the point that would pull hardest
// leaves (its impulse released to 0, its row cleared, its group factored again), until none
// would (at most one round per point). One point a round: taking every such point out at once,
// or one per contact, let a tilted heavy box fall through a light one. With every point back at
// each pass's start, `pile`'s 600 steps factored a group 12,540 times; keeping out the points
// that keep opening, 1,048 (solveExact 284 -> 33 M instructions, callgrind). The rows of a face
// contact (four points, three degrees of freedom) are redundant: JointTree's constraint force
// mixing shares the load between them.
#include <algorithm>
#include <numeric>

#include "dynamics/contact_solver.h"
#include "dynamics/island.h"
#include "dynamics/joint_solver.h"
#include "dynamics/joint_tree.h"

namespace tumble {

using wide::kLanes;
using wide::Lane;

namespace {
// The groups' constraint force mixing (JointTree::setMixing), a compliance: each contact gives
// mixing times a row's own K times its load more (100 kg on 1 kg: 0.07 mm at 1e-5, 0.08 mm at
// 1e-3, 0.21 mm at 1e-2, 1.5 mm at 0.1). Every value from 1e-5 to 0.1 brought the stacks tried
// to rest (1 and 100 or 1000 kg, either way up, and towers of four); before the active set took
// one point out at a time, 1e-4 left a tower of four jittering at 0.1 m/s and 0.1 blew one up.
constexpr Real kExactMixing = 1e-3;
}  // namespace

ContactSolver::ContactSolver() {
  exact_.setMixing(kExactMixing);
}

void ContactSolver::buildExact(const JointSet* joints) {
  exactSlot_.clear();
  exactBodies_.clear();
  if (!ratioFound_) return;
  const int nb = static_cast<int>(solverBodies_.size());
  const int nc = constraintCount_;
  auto movable = [&](int i) { return i > 0 && dynamic_[i] != 0; };
  // Each constraint's row and lane.
  exactSlotOf_.assign(nc, -1);
  for (int r = 0; r < rowCount_; ++r)
    for (int l = 0; l < kLanes; ++l) {
      const int ci = rowMembers_[static_cast<size_t>(r) * kLanes + l];
      if (ci >= 0) exactSlotOf_[ci] = r * kLanes + l;
    }
  // Bodies with joints (a contact between two of them stays with the Gauss-Seidel rows).
  exactLocal_.assign(nb, 0);
  if (joints)
    for (int i : joints->solverBodies()) exactLocal_[i] = 1;
  // The contacts that may join a group.
  exactEligible_.assign(nc, 0);
  for (int ci = 0; ci < nc; ++ci) {
    const int a = constraintBodies_[2 * ci], b = constraintBodies_[2 * ci + 1];
    const int slot = exactSlotOf_[ci];
    const int r = slot / kLanes, l = slot % kLanes;
    const WideContact& c = rows_[r];
    const WideCold& cold = cold_[r];
    if (c.bounce && cold.restitution[l] != Lane(0)) continue;
    if (c.rolling && cold.rollingResistance[l] != Lane(0)) continue;
    if (c.locked &&
        (solverBodies_[a].linearFree != Vec3(1.0) || solverBodies_[b].linearFree != Vec3(1.0)))
      continue;
    // Two jointed bodies: the joints may hold them against the contact (a car's wheel pressed
    // into its chassis), which the group, whose K knows only the contacts, would push apart at
    // once (the car drove sideways at 0.08 m/s instead of 0.003).
    if (exactLocal_[a] && exactLocal_[b]) continue;
    exactEligible_[ci] = 1;
  }
  // The groups: dynamic bodies joined by those contacts; the ones with a ratio pair are kept.
  exactParent_.resize(nb);
  std::iota(exactParent_.begin(), exactParent_.end(), 0);
  for (int ci = 0; ci < nc; ++ci) {
    const int a = constraintBodies_[2 * ci], b = constraintBodies_[2 * ci + 1];
    if (!exactEligible_[ci] || !movable(a) || !movable(b)) continue;
    const int ra = findRoot(exactParent_, a), rb = findRoot(exactParent_, b);
    if (ra != rb) exactParent_[std::max(ra, rb)] = std::min(ra, rb);
  }
  exactMarked_.assign(nb, 0);
  bool any = false;
  for (int ci = 0; ci < nc; ++ci) {
    const int a = constraintBodies_[2 * ci], b = constraintBodies_[2 * ci + 1];
    if (!exactEligible_[ci] || !movable(a) || !movable(b)) continue;
    if (ratioPair(solverBodies_[a].invMass, solverBodies_[b].invMass)) {
      exactMarked_[findRoot(exactParent_, a)] = 1;
      any = true;
    }
  }
  if (!any) return;
  std::vector<JointTree::Link>& links = exactLinks_;
  links.clear();
  for (int ci = 0; ci < nc; ++ci) {
    const int a = constraintBodies_[2 * ci], b = constraintBodies_[2 * ci + 1];
    if (exactEligible_[ci] && exactMarked_[findRoot(exactParent_, movable(a) ? a : b)])
      links.push_back({ci, a, b});
  }
  // The groups' bodies numbered 1, 2, ... in the order of the world's bodies (solver bodies are
  // numbered by thread: the elimination order, and so every bit, must not depend on that);
  // 0 is every immovable one.
  exactBodies_.clear();
  exactLocal_.assign(nb, 0);
  for (JointTree::Link& link : links)
    for (int body : {link.a, link.b})
      if (movable(body) && exactLocal_[body] == 0) {
        exactLocal_[body] = 1;
        exactBodies_.push_back(body);
      }
  std::sort(exactBodies_.begin(), exactBodies_.end(),
            [&](int x, int y) { return solverBodies_[x].body < solverBodies_[y].body; });
  const int local = static_cast<int>(exactBodies_.size());
  exactSb_.resize(static_cast<size_t>(local) + 1);
  exactSb_[0] = solverBodies_[0];
  for (int j = 0; j < local; ++j) {
    exactLocal_[exactBodies_[j]] = j + 1;
    exactSb_[static_cast<size_t>(j) + 1] = solverBodies_[exactBodies_[j]];
  }
  for (JointTree::Link& link : links) {
    link.a = movable(link.a) ? exactLocal_[link.a] : 0;
    link.b = movable(link.b) ? exactLocal_[link.b] : 0;
  }
  exactMovable_.assign(static_cast<size_t>(local) + 1, 1);
  exactMovable_[0] = 0;
  exact_.build(links, exactMovable_);
  const int n = exact_.size();
  if (n == 0) {
    exactBodies_.clear();
    return;
  }
  exactSlot_.resize(n);
  exactR_.assign(6 * static_cast<size_t>(n), 0.0);
  exactActive_.assign(6 * static_cast<size_t>(n), 1);
  exactDirty_.assign(exact_.groupCount(), 0);
  for (int e = 0; e < n; ++e) {
    const int ci = exact_.joint(e);
    const int slot = exactSlotOf_[ci];
    const int r = slot / kLanes, l = slot % kLanes;
    exactSlot_[e] = slot;
    WideContact& c = rows_[r];
    JointTree::Rows& rows = exact_.rows(e);
    rows.m = constraintPoints_[ci];
    rows.point = false;
    for (int k = 0; k < rows.m; ++k) setExactRow(e, k, true);
    // The wide rows pass the lane's normal impulses through (exactly: 0 normal mass, 0 impulse
    // scale) and keep its friction, warm start and store.
    c.impulseScale[l] = Lane(0);
    for (int k = 0; k < rows.m; ++k) c.p[k].normalMass[l] = Lane(0);
  }
  exact_.factor(exactSb_);
}

void ContactSolver::setExactRow(int e, int k, bool active) {
  const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
  const WideContact& c = rows_[r];
  JointTree::Rows& rows = exact_.rows(e);
  const Vec3 normal(c.normal.x[l], c.normal.y[l], c.normal.z[l]);
  const WidePoint& p = c.p[k];
  const Vec3 rA(p.rA.x[l], p.rA.y[l], p.rA.z[l]), rB(p.rB.x[l], p.rB.y[l], p.rB.z[l]);
  const Vec3 nA = glm::cross(rA, normal), nB = glm::cross(rB, normal);
  const Real on = active ? 1.0 : 0.0;
  for (int i = 0; i < 3; ++i) {
    rows.a[k][i] = -normal[i] * on;
    rows.a[k][3 + i] = -nA[i] * on;
    rows.b[k][i] = normal[i] * on;
    rows.b[k][3 + i] = nB[i] * on;
  }
  exactActive_[6 * static_cast<size_t>(e) + k] = active ? 1 : 0;
}

void ContactSolver::solveExact(bool useBias) {
  const int n = static_cast<int>(exactSlot_.size());
  for (int i : exactBodies_) pull(i);
  // Applies impulse changes to the points of entry e (delta[k] for its point k).
  auto apply = [&](int e, const Real* delta) {
    const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
    WideContact& c = rows_[r];
    const int ia = c.a[l], ib = c.b[l];
    const Vec3 normal(c.normal.x[l], c.normal.y[l], c.normal.z[l]);
    const int m = exact_.rows(e).m;
    Vec3 linear(0.0), angA(0.0), angB(0.0);
    for (int k = 0; k < m; ++k) {
      if (delta[k] == 0.0) continue;
      const WidePoint& p = c.p[k];
      const Vec3 rA(p.rA.x[l], p.rA.y[l], p.rA.z[l]), rB(p.rB.x[l], p.rB.y[l], p.rB.z[l]);
      linear += delta[k] * normal;
      angA += delta[k] * glm::cross(rA, normal);
      angB += delta[k] * glm::cross(rB, normal);
    }
    if (ia > 0 && dynamic_[ia]) {
      SolverBody& A = solverBodies_[ia];
      A.v -= A.invMass * linear;
      A.w -= A.invI * angA;
    }
    if (ib > 0 && dynamic_[ib]) {
      SolverBody& B = solverBodies_[ib];
      B.v += B.invMass * linear;
      B.w += B.invI * angB;
    }
  };
  // Takes point k of entry e out of the solve: its impulse released to 0, its row cleared.
  auto drop = [&](int e, int k) {
    const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
    WidePoint& p = rows_[r].p[k];
    Real delta[6] = {};
    delta[k] = -static_cast<Real>(p.normalImpulse[l]);
    p.normalImpulse[l] = Lane(0);
    apply(e, delta);
    setExactRow(e, k, false);
  };
  const int groups = exact_.groupCount();
  // The active set's rounds (the top of this file). At most one round per point; a group that
  // would need more (never seen) takes its last solution clamped at 0.
  const int limit = std::min(6 * n, 256);
  exactLive_.assign(groups, 1);
  for (int round = 0;; ++round) {
    for (int e = 0; e < n; ++e) {
      if (!exactLive_[exact_.groupOf(e)]) continue;
      const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
      const WideContact& c = rows_[r];
      const SolverBody& A = solverBodies_[c.a[l]];
      const SolverBody& B = solverBodies_[c.b[l]];
      const Vec3 normal(c.normal.x[l], c.normal.y[l], c.normal.z[l]);
      Real roundness = 0.0;
      if (c.round) {
        const WideCold& cold = cold_[r];
        roundness = cold.radiusA[l] * (glm::dot(normal, A.dq * normal) - 1.0) +
                    cold.radiusB[l] * (glm::dot(normal, B.dq * normal) - 1.0);
      }
      Real* rhs = &exactR_[6 * static_cast<size_t>(e)];
      const int m = exact_.rows(e).m;
      for (int k = 0; k < m; ++k) {
        const WidePoint& p = c.p[k];
        const Vec3 rA(p.rA.x[l], p.rA.y[l], p.rA.z[l]), rB(p.rB.x[l], p.rB.y[l], p.rB.z[l]);
        const Real sep = glm::dot(normal, B.dp + B.dq * rB - A.dp - A.dq * rA) +
                         static_cast<Real>(p.baseSeparation[l]) + roundness;
        const Real vn = glm::dot(B.v + glm::cross(B.w, rB) - A.v - glm::cross(A.w, rA), normal);
        // As the wide rows: a gap may close within the substep and no more, a penetration is
        // pushed out softly (solve) or not at all (relax).
        Real bias = 0.0;
        if (sep > 0.0)
          bias = sep * invH_;
        else if (useBias)
          bias = std::max(exactSoftness_.biasRate * sep, -pushVelocity_);
        rhs[k] = vn + bias;
      }
    }
    if (round == 0) {
      // A point out of the solve (since a pass before) comes back where its contact now closes
      // or presses (J v + bias < 0: it would need a push); one that keeps opening stays out.
      for (int e = 0; e < n; ++e) {
        const int m = exact_.rows(e).m;
        const Real* rhs = &exactR_[6 * static_cast<size_t>(e)];
        for (int k = 0; k < m; ++k)
          if (!exactActive_[6 * static_cast<size_t>(e) + k] && rhs[k] < 0.0) {
            setExactRow(e, k, true);
            exactDirty_[exact_.groupOf(e)] = 1;
          }
      }
      for (int g = 0; g < groups; ++g)
        if (exactDirty_[g]) {
          exact_.factorGroup(g, exactSb_);
          exactDirty_[g] = 0;
        }
    }
    for (int g = 0; g < groups; ++g)
      if (exactLive_[g]) exact_.solveGroup(g, exactR_);
    // The new impulses; per group the point that would pull hardest.
    exactWorst_.assign(groups, 0.0);
    exactWorstAt_.assign(groups, -1);
    for (int e = 0; e < n; ++e) {
      const int g = exact_.groupOf(e);
      if (!exactLive_[g]) continue;
      const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
      const int m = exact_.rows(e).m;
      Real* x = &exactR_[6 * static_cast<size_t>(e)];
      for (int k = 0; k < m; ++k) {
        const size_t at = 6 * static_cast<size_t>(e) + k;
        if (!exactActive_[at]) {
          x[k] = 0.0;
          continue;
        }
        const Real old = rows_[r].p[k].normalImpulse[l];
        const Real next =
            useBias ? old - exactSoftness_.massScale * x[k] - exactSoftness_.impulseScale * old
                    : old - x[k];
        if (next < exactWorst_[g]) {
          exactWorst_[g] = next;
          exactWorstAt_[g] = static_cast<int>(at);
        }
        x[k] = next;
      }
    }
    bool live = false;
    for (int g = 0; g < groups; ++g) {
      if (!exactLive_[g]) continue;
      if (exactWorstAt_[g] < 0 || round >= limit) {
        exactLive_[g] = 0;  // done: its impulses are final
        continue;
      }
      const int at = exactWorstAt_[g];
      drop(at / 6, at % 6);
      exact_.factorGroup(g, exactSb_);
      live = true;
    }
    if (live) continue;
    for (int e = 0; e < n; ++e) {
      const int r = exactSlot_[e] / kLanes, l = exactSlot_[e] % kLanes;
      const int m = exact_.rows(e).m;
      const Real* x = &exactR_[6 * static_cast<size_t>(e)];
      Real delta[6] = {};
      for (int k = 0; k < m; ++k) {
        if (!exactActive_[6 * static_cast<size_t>(e) + k]) continue;
        WidePoint& p = rows_[r].p[k];
        const Real old = p.normalImpulse[l];
        const Lane stored = static_cast<Lane>(std::max(x[k], 0.0));
        p.normalImpulse[l] = stored;
        p.totalImpulse[l] = std::max(p.totalImpulse[l], stored);
        delta[k] = static_cast<Real>(stored) - old;
      }
      apply(e, delta);
    }
    break;
  }
  for (int i : exactBodies_) push(i);
}

}  // namespace tumble
