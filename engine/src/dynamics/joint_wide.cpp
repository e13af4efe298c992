// Ball joints four to a row (joint_wide.h). Per lane the same soft point row as solvePoint in
// joint_solver.cpp: Cdot = vB + wB x rB - vA - wA x rA, P = -m K^-1 (Cdot + bias d) - s P_acc,
// with K = (mA + mB) 1 + [rA]^T IA [rA] + [rB]^T IB [rB] inverted once per pose (the bodies move
// only when the solver integrates positions), not solved by Cramer's rule in every pass.
#include "dynamics/joint_wide.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "core/prefetch.h"
#include "dynamics/joint_solver.h"

namespace tumble {
namespace {

using Lanes = WideBallJoints::Lanes;  // wide::Wide
using V = WideBallJoints::V;
using S = WideBallJoints::S;
using wide::cross;
using wide::greater;
using wide::select;
using wide::setLane;
using wide::splat;

// [r]^T I [r] (symmetric): entry ij is c_i . I c_j with c_k = r x e_k the columns of [r]:
// cx = (0, rz, -ry), cy = (-rz, 0, rx), cz = (ry, -rx, 0), their zeros left out of the products
// (a product with 0 is not free: 0 * x is not folded away without -ffast-math).
inline S armMass(const V& r, const S& I) {
  const V ix{I.xy * r.z - I.xz * r.y, I.yy * r.z - I.yz * r.y, I.yz * r.z - I.zz * r.y};
  const V iy{I.xz * r.x - I.xx * r.z, I.yz * r.x - I.xy * r.z, I.zz * r.x - I.xz * r.z};
  const V iz{I.xx * r.y - I.xy * r.x, I.xy * r.y - I.yy * r.x, I.xz * r.y - I.yz * r.x};
  return {r.z * ix.y - r.y * ix.z, r.z * iy.y - r.y * iy.z, r.z * iz.y - r.y * iz.z,
          r.x * iy.z - r.z * iy.x, r.x * iz.z - r.z * iz.x, r.y * iz.x - r.x * iz.y};
}

// The rows' bodies come in no order the hardware prefetcher follows: their solver bodies' first
// line (the velocities) is fetched a few rows ahead, and the second (the motion since the step
// began) only for a pass that computes the poses (`pose`): the other passes read the velocities
// alone. Fetching both lines in every pass left joint_grid's passes waiting on the prefetches
// themselves (the line fill buffers full: half the pass's samples).
// The row whose bodies are fetched reads its indices: its first line is fetched kAhead rows
// before that (the rows stream from beyond the cache: joint_grid's 4,950 rows of 576 bytes, 2.8
// MB).
constexpr int kAhead = 3;
inline void prefetchBodies(const std::vector<SolverBody>& sb, const WideBallJoints::Row& r,
                           bool pose) {
  static_assert(offsetof(SolverBody, w) + sizeof(Vec3) <= 64, "the velocities in the first line");
  for (int l = 0; l < 4; ++l)
    for (const int i : {r.a[l], r.b[l]}) {
      const char* at = reinterpret_cast<const char*>(&sb[i]);
      detail::prefetch(at);
      if (pose) detail::prefetch(at + 64);
    }
}

struct Velocities {
  V v, w;
};

// Rounded into the lanes (float by default) from the solver bodies' double state.
inline Velocities gather(const std::vector<SolverBody>& sb, const int* index) {
  Velocities r;
  for (int l = 0; l < 4; ++l) {
    const SolverBody& b = sb[index[l]];
    setLane(r.v, l, b.v);
    setLane(r.w, l, b.w);
  }
  return r;
}

inline void scatter(std::vector<SolverBody>& sb, const int* index, unsigned write,
                    const Velocities& r) {
  for (int l = 0; l < 4; ++l) {
    if (!(write & (1u << l))) continue;
    SolverBody& b = sb[index[l]];
    b.v = wide::lane(r.v, l);
    b.w = wide::lane(r.w, l);
  }
}

// The impulse P on both bodies of a row: A takes -P at rA, B takes P at rB.
inline void apply(const WideBallJoints::Row& c, const V& P, Velocities& A, Velocities& B) {
  A.v = A.v - c.invMassA * P;
  A.w = A.w - c.invIA * cross(c.rA, P);
  B.v = B.v + c.invMassB * P;
  B.w = B.w + c.invIB * cross(c.rB, P);
}

void updatePose(WideBallJoints::Row& r, const WideBallJoints::Start& t,
                const std::vector<SolverBody>& sb);

}  // namespace

void WideBallJoints::build(const std::vector<Joint>& joints, const std::vector<int>& members,
                           const std::vector<char>& dynamic, int bodyCount,
                           const std::vector<SolverBody>& sb) {
  rowCount_ = 0;
  posesStale_ = true;
  if (members.empty()) return;
  pairs_.clear();
  for (int k : members) {
    pairs_.push_back(joints[k].sa);
    pairs_.push_back(joints[k].sb);
  }
  graph_.build(pairs_, dynamic, bodyCount);
  const size_t most = graph_.overflow().size() + members.size() / 4 + ConstraintGraph::kColors;
  if (rows_.size() < most) rows_.resize(most), starts_.resize(most);
  auto pack = [&](const int* list, int count) {
    Start& t = starts_[rowCount_];
    Row& r = rows_[rowCount_++];
    r.lanes = count;
    r.writeA = r.writeB = 0;
    for (int l = 0; l < 4; ++l) {
      r.joint[l] = -1;
      r.a[l] = r.b[l] = 0;
      const Joint* j = l < count ? &joints[members[list[l]]] : nullptr;
      if (j) {
        r.joint[l] = members[list[l]];
        r.a[l] = j->sa;
        r.b[l] = j->sb;
        if (dynamic[j->sa]) r.writeA |= static_cast<uint8_t>(1u << l);
        if (dynamic[j->sb]) r.writeB |= static_cast<uint8_t>(1u << l);
      }
      // An empty lane joins the immovable body 0 to itself: no mass, K = 0, no impulse.
      const SolverBody& A = sb[r.a[l]];
      const SolverBody& B = sb[r.b[l]];
      r.invMassA[l] = static_cast<wide::Lane>(A.invMass);
      r.invMassB[l] = static_cast<wide::Lane>(B.invMass);
      setLane(r.invIA, l, A.invI);
      setLane(r.invIB, l, B.invI);
      setLane(t.rA0, l, j ? j->rA : Vec3(0.0));
      setLane(t.rB0, l, j ? j->rB : Vec3(0.0));
      setLane(t.center, l, j ? j->deltaCenter : Vec3(0.0));
      setLane(r.impulse, l, j ? j->linearImpulse : Vec3(0.0));
    }
    // The step's first pose (every solver body's motion is still dp = 0, dq = 1 until the
    // positions are integrated), while the row and its bodies' lines are at hand.
    updatePose(r, t, sb);
  };
  // The overflow's joints may share bodies: one to a row, before the colours.
  for (int i : graph_.overflow()) pack(&i, 1);
  // A colour's joints come in no order the hardware prefetcher follows: the lines pack reads of
  // the joints four rows ahead (their bodies, impulse, anchors) and of the bodies of the joints
  // two rows ahead (the inverse mass and inertia) are fetched first.
  auto fetch = [&](const int* list, int count, bool bodies) {
    for (int l = 0; l < count; ++l) {
      const Joint& j = joints[members[list[l]]];
      const char* at = reinterpret_cast<const char*>(&j);
      if (!bodies) {
        detail::prefetch(at);
        detail::prefetch(at + offsetof(Joint, rA));
        detail::prefetch(at + offsetof(Joint, deltaCenter));
        continue;
      }
      for (const int i : {j.sa, j.sb}) {
        const char* body = reinterpret_cast<const char*>(&sb[i]);
        detail::prefetch(body + offsetof(SolverBody, invMass));
        detail::prefetch(body + offsetof(SolverBody, invI));
        detail::prefetch(body + offsetof(SolverBody, invI) + sizeof(Mat3) - 1);
      }
    }
  };
  for (int c = 0; c < graph_.colorCount(); ++c) {
    const std::vector<int>& color = graph_.color(c);
    const int n = static_cast<int>(color.size());
    for (int i = 0; i < n; i += 4) {
      if (i + 16 < n) fetch(color.data() + i + 16, std::min(4, n - i - 16), false);
      if (i + 8 < n) fetch(color.data() + i + 8, std::min(4, n - i - 8), true);
      pack(color.data() + i, std::min(4, n - i));
    }
  }
  posesStale_ = false;
}

namespace {

// A row's anchors, gap and K^-1 at its bodies' current poses. Called by the first pass after the
// bodies moved, row by row (the pass reads the same bodies' lines next): the poses do not change
// between passes, so this is the value a separate loop before the pass would give.
void updatePose(WideBallJoints::Row& r, const WideBallJoints::Start& t,
                const std::vector<SolverBody>& sb) {
  wide::Rot qA, qB;
  V dpA, dpB;
  for (int l = 0; l < 4; ++l) {
    const SolverBody& A = sb[r.a[l]];
    const SolverBody& B = sb[r.b[l]];
    setLane(dpA, l, A.dp);
    setLane(dpB, l, B.dp);
    qA.w[l] = static_cast<wide::Lane>(A.dq.w), qA.x[l] = static_cast<wide::Lane>(A.dq.x);
    qA.y[l] = static_cast<wide::Lane>(A.dq.y), qA.z[l] = static_cast<wide::Lane>(A.dq.z);
    qB.w[l] = static_cast<wide::Lane>(B.dq.w), qB.x[l] = static_cast<wide::Lane>(B.dq.x);
    qB.y[l] = static_cast<wide::Lane>(B.dq.y), qB.z[l] = static_cast<wide::Lane>(B.dq.z);
  }
  r.rA = wide::rotate(qA, t.rA0);
  r.rB = wide::rotate(qB, t.rB0);
  r.d = (dpB - dpA) + t.center + r.rB - r.rA;
  const S qa = armMass(r.rA, r.invIA), qb = armMass(r.rB, r.invIB);
  const Lanes m = r.invMassA + r.invMassB;
  const S K{m + qa.xx + qb.xx, qa.xy + qb.xy, qa.xz + qb.xz,
            m + qa.yy + qb.yy, qa.yz + qb.yz, m + qa.zz + qb.zz};
  // The inverse by cofactors; a lane with a singular K (an empty lane, two immovable bodies)
  // gets 0, as solve3 gives the one-at-a-time rows.
  const Lanes c00 = K.yy * K.zz - K.yz * K.yz, c01 = K.xz * K.yz - K.xy * K.zz;
  const Lanes c02 = K.xy * K.yz - K.xz * K.yy, c11 = K.xx * K.zz - K.xz * K.xz;
  const Lanes c12 = K.xy * K.xz - K.xx * K.yz, c22 = K.xx * K.yy - K.xy * K.xy;
  const Lanes det = K.xx * c00 + K.xy * c01 + K.xz * c02;
  const Lanes tiny = splat(wide::kTiny);
  const wide::Mask ok = greater(det, tiny) | greater(-tiny, det);
  const Lanes inv = select(ok, splat(1.0) / select(ok, det, splat(1.0)), wide::zero());
  r.mass = {inv * c00, inv * c01, inv * c02, inv * c11, inv * c12, inv * c22};
}

}  // namespace

void WideBallJoints::warmStart(std::vector<SolverBody>& sb) {
  const bool pose = posesStale_;
  posesStale_ = false;
  for (int i = 0; i < rowCount_; ++i) {
    if (i + kAhead < rowCount_) prefetchBodies(sb, rows_[i + kAhead], pose);
    if (i + 2 * kAhead < rowCount_) detail::prefetch(&rows_[i + 2 * kAhead]);
    Row& r = rows_[i];
    if (pose) updatePose(r, starts_[i], sb);
    Velocities A = gather(sb, r.a), B = gather(sb, r.b);
    apply(r, r.impulse, A, B);
    scatter(sb, r.a, r.writeA, A);
    scatter(sb, r.b, r.writeB, B);
  }
}

void WideBallJoints::solve(std::vector<SolverBody>& sb, bool useBias, const Softness& soft,
                           bool backwards) {
  const Lanes massScale = splat(useBias ? soft.massScale : 1.0);
  const Lanes impulseScale = splat(useBias ? soft.impulseScale : 0.0);
  const Lanes biasRate = splat(useBias ? soft.biasRate : 0.0);
  const int n = rowCount_;
  const bool pose = posesStale_;
  posesStale_ = false;
  for (int i = 0; i < n; ++i) {
    if (i + kAhead < n)
      prefetchBodies(sb, rows_[backwards ? n - 1 - i - kAhead : i + kAhead], pose);
    if (i + 2 * kAhead < n)
      detail::prefetch(&rows_[backwards ? n - 1 - i - 2 * kAhead : i + 2 * kAhead]);
    const int at = backwards ? n - 1 - i : i;
    Row& r = rows_[at];
    if (pose) updatePose(r, starts_[at], sb);
    Velocities A = gather(sb, r.a), B = gather(sb, r.b);
    const V cdot = (B.v + cross(B.w, r.rB)) - (A.v + cross(A.w, r.rA));
    const V rhs = cdot + biasRate * r.d;
    const V P = massScale * (r.mass * rhs) + impulseScale * r.impulse;
    const V negP{-P.x, -P.y, -P.z};
    r.impulse = r.impulse + negP;
    apply(r, negP, A, B);
    scatter(sb, r.a, r.writeA, A);
    scatter(sb, r.b, r.writeB, B);
  }
}

void WideBallJoints::store(std::vector<Joint>& joints) const {
  for (int i = 0; i < rowCount_; ++i)
    for (int l = 0; l < rows_[i].lanes; ++l) {
      const Row& r = rows_[i];
      joints[r.joint[l]].linearImpulse = wide::lane(r.impulse, l);
    }
}

}  // namespace tumble
