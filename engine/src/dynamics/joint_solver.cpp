// Joint rows in the soft step (Box2D v3's joint.c, revolute_joint.c, prismatic_joint.c,
// distance_joint.c; Box3D's spherical and weld joints; Catto, "Soft Constraints", GDC 2011).
//
// Each joint is prepared once per step: anchors relative to the centres (rA, rB) and the centres'
// offset at the step's start. In a substep the current anchor separation is measured from the
// bodies' motion since the step began (Box2D v3's relative anchors), without reading the poses:
//   d = (dpB - dpA) + (cB - cA) + dqB rB - dqA rA.
// Rigid rows are pushed back with the joint softness (twice the contact hertz, capped like the
// contacts' at a quarter of the substep rate) in the solve pass and solved without bias in the
// relax pass, so the correction leaves no velocity behind. Limits are one-sided and speculative
// (a gap may close within the substep and no more). Springs use their own hertz and damping in
// both passes; motors clamp their accumulated impulse to the effort times the substep.
// Impulses are per substep and carried across substeps and steps (warm starting).
#include "dynamics/joint_solver.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>

#include "core/prefetch.h"

namespace tumble {
namespace {

constexpr Real kJointDampingRatio = 2.0;  // Box2D v3's default joint damping ratio

// A joint whose bodies' masses differ by more than this stays iterative (soft, its row mass the
// lighter body's). In an exact group the heavy body's whole inertia reaches the light one, whose
// soft contacts are as stiff as its own mass allows: the rope's box (50 links' mass), rolling over
// the rope's end, pressed links 25 to 46 mm into the ground (6 mm with its joint soft). The
// ragdolls (at most 15 times apart between limbs) keep all their joints in groups.
constexpr Real kTreeMassRatio = 30.0;

// The links closing loops through other bodies that a group may leave to the passes, its other
// joints solved exactly (JointTree::setOpenLoops); a group with more is left to the passes whole.
// Measured with drivers outside the tree, widest anchor gap over 5 s against the whole group soft:
// rings of 4 to 11 boxes on ball joints or hinges, hung from one point and spinning, 120 and 136
// mm -> 17 mm (at the joint left soft); k x k nets of spheres on ball joints (joint_grid's
// pattern) hung by two corners and swinging, 3 x 3 (4 closing joints) 12.1 -> 0.95 mm, 4 x 4 (9)
// 4.6 -> 2.7, at 1.3-1.6 times the step; spanned without a cap, 6 x 6 (25) 13.9 -> 6.7 mm at 1.8
// times, and joint_grid (9,801) would hold to 0.004 mm, its 100 steps and loading taking 3.9 s
// of CPU time against 1.7 s: it stays soft.
constexpr int kOpenLoops = 16;

// The most a group's closing rows times its bodies may be for its closing joints to be solved
// with it (JointSet::Closure): each build makes a forward substitution of the group per closing
// row and S, m x m, summed over the group's entries, and factors S; each pass solves S and the
// group once more. Further closing joints stay in the passes. Damped nets of spheres on ball
// joints hung by two corners (a driver outside the tree, mean step over 30 s, their gaps, when
// the build solved the group whole per closing row): 3 x 3 (12 closing rows x 9 bodies) 0.006 ->
// 0.013 ms, 0.72 -> 0.19 mm; 4 x 4 (27 x 16) 0.011 -> 0.042 ms, 2.63 -> 0.22 mm; 5 x 5 (48 x
// 25; within the cap 13 of its 16 closing joints) 0.017 -> 0.092 ms, 4.56 -> 0.98 mm (all 16:
// 0.125 ms, 0.59 mm). With the forward substitutions (first 300 steps, awake): 4 x 4 0.067 ms,
// 5 x 5 0.12 ms; uncapped (and kOpenLoops 64) 5 x 5 0.15 ms, 6 x 6 0.31 ms (0.62 mm; soft whole
// 0.030 ms, 14.8 mm), 8 x 8 1.46 ms (1.25 mm; soft 0.052 ms, 119 mm): the cost grows with the
// closing rows' square and more, so the cap stays.
constexpr int kCloseWork = 1024;

// Each closing row's diagonal of S gains this share of the row's own mass (W alone, the group
// not holding): a regularisation that bounds the impulses where S is near singular. A 4 x 4
// net of ball joints hung by two corners swings through poses where some closing rows' mass with
// the group holding falls to 2-6% of their own (and a row the group already holds, a planar
// ring's closing tilts, to 0.1%); with the groups' 1e-4 alone it blew up (gaps of metres by step
// 125), with 1e-2 or 0.05 its widest gap over 30 s is 0.18 / 0.22 mm (2.6 mm with the closing
// joints in the passes), and at 0.2 the closing rows are soft enough that it never rests.
// Drivers outside the tree; the rings of 4 to 11 boxes: 2.5 mm at 1e-2 and 0.05 (17 mm in the
// passes), 5.6 mm at 0.2.
constexpr Real kCloseMixing = 0.05;

// The most a body may have turned an entry's arm or hinge axis (rad) since the groups' rows and
// factor were built for the later passes of the step to keep them (solveGroups, kShortArm). With
// every relax keeping them regardless, the rope's links, whipping at up to tens of rad/s,
// overlapped 16.5 mm; at 0.01 rad the bridge, swinging slower, factors about 1.25 times a step,
// and the 1 m pendulum test keeps 0.99681 of its energy over its last period of 10 s (0.99878
// rebuilding at every pass).
constexpr Real kRelaxTurn = 0.01;
// An arm shorter than this (m) is held to turn at most kRelaxTurn times this over its length: a
// body turns a row through its arm (by the turn times the arm) and, body a of a hinge, through
// the axis. A wheel hinged at its centre (the car's: arm 0) spins without rebuilding the rows
// of its group; an arm of 1 cm or more is held to kRelaxTurn itself.
constexpr Real kShortArm = 0.01;

// A scalar row: Cdot = vA.A.v + wA.A.w + vB.B.v + wB.B.w.
using Row = JointRow;

Real rowVelocity(const Row& J, const SolverBody& A, const SolverBody& B) {
  return glm::dot(J.vA, A.v) + glm::dot(J.wA, A.w) + glm::dot(J.vB, B.v) + glm::dot(J.wB, B.w);
}

Real rowMass(const Row& J, const SolverBody& A, const SolverBody& B) {
  const Real k = A.invMass * glm::dot(J.vA, J.vA) + glm::dot(J.wA, A.invI * J.wA) +
                 B.invMass * glm::dot(J.vB, J.vB) + glm::dot(J.wB, B.invI * J.wB);
  return k > 0.0 ? 1.0 / k : 0.0;
}

void applyRow(const Row& J, Real lambda, SolverBody& A, SolverBody& B) {
  A.v += (A.invMass * lambda) * J.vA;
  A.w += A.invI * (lambda * J.wA);
  B.v += (B.invMass * lambda) * J.vB;
  B.w += B.invI * (lambda * J.wB);
}

// Along u between the anchors: A's arm reaches b's anchor (rA + d), as in a prismatic joint.
Row linearRow(const Vec3& u, const Vec3& rA, const Vec3& rB, const Vec3& d) {
  return {-u, -glm::cross(rA + d, u), u, glm::cross(rB, u)};
}

Row angularRow(const Vec3& axis) {
  return {Vec3(0.0), -axis, Vec3(0.0), axis};
}

Mat3 skew(const Vec3& r) {
  return Mat3(0.0, r.z, -r.y, -r.z, 0.0, r.x, r.y, -r.x, 0.0);  // column-major
}

// K^-1 b by Cramer's rule (columns of K); 0 when K is singular.
Vec3 solve3(const Mat3& K, const Vec3& b) {
  const Vec3 c0 = K[0], c1 = K[1], c2 = K[2];
  const Vec3 x12 = glm::cross(c1, c2);
  const Real det = glm::dot(c0, x12);
  if (!(std::abs(det) > 1e-300)) return Vec3(0.0);
  return (1.0 / det) *
         Vec3(glm::dot(b, x12), glm::dot(c0, glm::cross(b, c2)), glm::dot(c0, glm::cross(c1, b)));
}

Mat3 safeInverse(const Mat3& K) {
  return std::abs(glm::determinant(K)) > 1e-300 ? glm::inverse(K) : Mat3(0.0);
}

// Two unit vectors perpendicular to unit `a` and to each other (deterministic).
void perpendiculars(const Vec3& a, Vec3& p1, Vec3& p2) {
  p1 = std::abs(a.x) >= 0.57735 ? glm::normalize(Vec3(a.y, -a.x, 0.0))
                                : glm::normalize(Vec3(0.0, a.z, -a.y));
  p2 = glm::cross(a, p1);
}

using Pose = JointPose;

Pose poseOf(const Joint& j, const SolverBody& A, const SolverBody& B) {
  Pose p;
  p.rA = A.dq * j.rA;
  p.rB = B.dq * j.rB;
  p.d = (B.dp - A.dp) + j.deltaCenter + p.rB - p.rA;
  if (j.type != JointType::Ball) {  // the frames now; a ball joint has no use for them
    p.fA = A.dq * j.qA;
    p.fB = B.dq * j.qB;
  }
  return p;
}

Vec3 axisOf(const Quat& frame) {
  return frame * Vec3(1.0, 0.0, 0.0);
}

// Rotation of b's frame about the joint axis relative to a's, in (-pi, pi].
Real twistAngle(const Quat& fA, const Quat& fB) {
  Quat r = glm::conjugate(fA) * fB;
  if (r.w < 0.0) r = -r;
  return 2.0 * std::atan2(r.x, r.w);
}

struct Bias {
  Real bias = 0.0, massScale = 1.0, impulseScale = 0.0;
};

Bias rigidBias(Real C, bool useBias, const Softness& soft) {
  if (!useBias) return {};
  return {soft.biasRate * C, soft.massScale, soft.impulseScale};
}

// A one-sided limit with position C >= 0 wanted along row J (Cdot of C is J v).
void solveLimit(const Row& J, Real m, Real C, Real& impulse, bool useBias, const Softness& soft,
                Real invH, SolverBody& A, SolverBody& B) {
  Bias b;
  if (C > 0.0) {
    b.bias = C * invH;  // speculative: may close within the substep
  } else if (useBias) {
    b = rigidBias(C, true, soft);
  }
  const Real cdot = rowVelocity(J, A, B);
  const Real lambda = -m * b.massScale * (cdot + b.bias) - b.impulseScale * impulse;
  const Real next = std::max(impulse + lambda, 0.0);
  applyRow(J, next - impulse, A, B);
  impulse = next;
}

bool hasSpring(const Joint& j) {
  return j.spring.enabled && j.spring.hertz > 0.0;
}

// A hinge held at one angle (limits lower == upper: the car's steering) with no spring or motor:
// in an exact group its axis is a sixth equality row, as a fixed joint's third rotation is.
// Left to its limit row, a soft row as stiff as the lighter body's inertia allows, the car's
// 12 kg front hubs turned 4.6 degrees under the wheels' motor torque.
bool lockedHinge(const Joint& j) {
  return j.type == JointType::Hinge && j.limits.enabled && j.limits.lower == j.limits.upper &&
         !j.motor.enabled && !hasSpring(j);
}

// Whether solveAxial has a row to solve for j: a spring, a motor or limits, unless its group
// holds the axis (a grouped locked hinge). A hinge with none (the bridge's) skips it and its
// axis's mass, with the same bits.
bool hasAxial(const Joint& j) {
  return (hasSpring(j) || j.motor.enabled || j.limits.enabled) && !(j.tree && lockedHinge(j));
}

// A hinge that may share a group entry with a second hinge about its axis between the same two
// bodies (JointSet::buildTree, partner_): both bodies dynamic (two hinges to the world or to a
// kinematic body are two entries at one body, no loop) and not locked (a locked hinge's entry
// holds its axis row).
bool pairableHinge(const Joint& j, const std::vector<Body>& bodies) {
  return j.type == JointType::Hinge && j.a >= 0 && j.b >= 0 && bodies[j.a].isDynamic() &&
         bodies[j.b].isDynamic() && !lockedHinge(j);
}

// Whether hinge q's axis is hinge j's (the same bodies, either order), as body j.a sees them:
// parallel axes, and q's anchor on j's axis at least kMinSpan from j's (two anchors closer than
// that would hold the axis's tilt by too short an arm). Both are fixed in the bodies.
constexpr Real kCoaxial = 1e-3;  // rad of the axes' angle, and of the anchors' line off the axis
constexpr Real kMinSpan = 0.01;  // m

bool coaxial(const Joint& j, const Joint& q) {
  const bool flip = q.a != j.a;
  const Vec3 axis = axisOf(j.frameA), other = axisOf(flip ? q.frameB : q.frameA);
  const Vec3 d = (flip ? q.localAnchorB : q.localAnchorA) - j.localAnchorA;
  const Real span = glm::length(d);
  return span >= kMinSpan && glm::length(glm::cross(axis, other)) < kCoaxial &&
         glm::length(glm::cross(axis, d)) < kCoaxial * span;
}

// Spring (to `target`), motor and limits of a joint's free coordinate along row J.
// m: the row's mass, 1 / (J M^-1 J^T). A hinge's angle and target are in [-pi, pi]: its spring
// pulls the shorter way round (the difference wrapped into [-pi, pi]; with the target 0 it is
// the angle itself, unchanged).
void solveAxial(const Joint& j, AxialImpulses& imp, const Row& J, Real m, Real coord, Real target,
                bool useBias, const Softness& soft, Real h, Real invH, SolverBody& A,
                SolverBody& B) {
  if (hasSpring(j)) {
    const Softness ss = makeSoftness(j.spring.hertz, j.spring.dampingRatio, h);
    const Real cdot = rowVelocity(J, A, B);
    Real c = coord - target;
    if (j.type == JointType::Hinge) {
      constexpr Real kTwoPi = 2.0 * std::numbers::pi;
      if (c > std::numbers::pi)
        c -= kTwoPi;
      else if (c < -std::numbers::pi)
        c += kTwoPi;
    }
    const Real lambda = -m * ss.massScale * (cdot + ss.biasRate * c) - ss.impulseScale * imp.spring;
    imp.spring += lambda;
    applyRow(J, lambda, A, B);
  }
  if (j.motor.enabled) {
    const Real cdot = rowVelocity(J, A, B);
    const Real cap = j.motor.maxEffort * h;
    const Real next = std::clamp(imp.motor - m * (cdot - j.motor.speed), -cap, cap);
    applyRow(J, next - imp.motor, A, B);
    imp.motor = next;
  }
  if (j.limits.enabled) {
    if (std::isfinite(j.limits.lower))
      solveLimit(J, m, coord - j.limits.lower, imp.lower, useBias, soft, invH, A, B);
    const Row neg{-J.vA, -J.wA, -J.vB, -J.wB};
    if (std::isfinite(j.limits.upper))
      solveLimit(neg, m, j.limits.upper - coord, imp.upper, useBias, soft, invH, A, B);
  }
}

// K = (mA + mB) 1 - [rA] IA [rA] - [rB] IB [rB] with the anchors as they are now (a K kept
// from the step's start lets a swinging pendulum gain energy); an immovable side adds nothing.
Mat3 pointMass(const Pose& p, const SolverBody& A, const SolverBody& B) {
  Mat3 K(A.invMass + B.invMass);
  if (A.invMass > 0.0) K -= skew(p.rA) * A.invI * skew(p.rA);
  if (B.invMass > 0.0) K -= skew(p.rB) * B.invI * skew(p.rB);
  return K;
}

void solvePoint(Joint& j, const Pose& p, bool useBias, const Softness& soft, SolverBody& A,
                SolverBody& B) {
  const Vec3 cdot = B.v + glm::cross(B.w, p.rB) - A.v - glm::cross(A.w, p.rA);
  const Bias b = useBias ? Bias{0.0, soft.massScale, soft.impulseScale} : Bias{};
  const Vec3 bias = useBias ? soft.biasRate * p.d : Vec3(0.0);
  const Vec3 P = -b.massScale * solve3(p.K, cdot + bias) - b.impulseScale * j.linearImpulse;
  j.linearImpulse += P;
  A.v -= A.invMass * P;
  A.w -= A.invI * glm::cross(p.rA, P);
  B.v += B.invMass * P;
  B.w += B.invI * glm::cross(p.rB, P);
}

// All three relative rotations locked (fixed, slider): C = 2 vec(fB fA^-1).
void solveAngularLock(Joint& j, const Pose& p, bool useBias, const Softness& soft, SolverBody& A,
                      SolverBody& B) {
  Quat e = p.fB * glm::conjugate(p.fA);
  if (e.w < 0.0) e = -e;
  const Vec3 C = 2.0 * Vec3(e.x, e.y, e.z);
  const Bias b = useBias ? Bias{0.0, soft.massScale, soft.impulseScale} : Bias{};
  const Vec3 bias = useBias ? soft.biasRate * C : Vec3(0.0);
  const Vec3 cdot = B.w - A.w;
  const Vec3 L = -b.massScale * (safeInverse(A.invI + B.invI) * (cdot + bias)) -
                 b.impulseScale * j.angularImpulse;
  j.angularImpulse += L;
  A.w -= A.invI * L;
  B.w += B.invI * L;
}

// The two rotations that would tilt b's axis off a's (hinge).
void solveAxisLock(Joint& j, const Pose& p, bool useBias, const Softness& soft, SolverBody& A,
                   SolverBody& B) {
  const Vec3 a = axisOf(p.fA), bAxis = axisOf(p.fB);
  Vec3 p1, p2;
  perpendiculars(a, p1, p2);
  const Vec3 c = glm::cross(a, bAxis);
  const Vec3 dw = B.w - A.w;
  const Mat3 I = A.invI + B.invI;
  const Real k11 = glm::dot(p1, I * p1), k12 = glm::dot(p1, I * p2), k22 = glm::dot(p2, I * p2);
  const Real det = k11 * k22 - k12 * k12;
  if (!(det > 0.0)) return;
  const Bias b = useBias ? Bias{0.0, soft.massScale, soft.impulseScale} : Bias{};
  const Real r1 = glm::dot(p1, dw) + (useBias ? soft.biasRate * glm::dot(p1, c) : 0.0);
  const Real r2 = glm::dot(p2, dw) + (useBias ? soft.biasRate * glm::dot(p2, c) : 0.0);
  const Real old1 = glm::dot(p1, j.angularImpulse), old2 = glm::dot(p2, j.angularImpulse);
  const Real l1 = -b.massScale * (k22 * r1 - k12 * r2) / det - b.impulseScale * old1;
  const Real l2 = -b.massScale * (k11 * r2 - k12 * r1) / det - b.impulseScale * old2;
  j.angularImpulse = (old1 + l1) * p1 + (old2 + l2) * p2;
  const Vec3 L = l1 * p1 + l2 * p2;
  A.w -= A.invI * L;
  B.w += B.invI * L;
}

// The two translations off the axis (slider), one 2x2 block.
void solveSliderLinear(Joint& j, const Pose& p, bool useBias, const Softness& soft, SolverBody& A,
                       SolverBody& B) {
  const Vec3 a = axisOf(p.fA);
  Vec3 u1, u2;
  perpendiculars(a, u1, u2);
  const Row J1 = linearRow(u1, p.rA, p.rB, p.d), J2 = linearRow(u2, p.rA, p.rB, p.d);
  auto dotK = [&](const Row& x, const Row& y) {
    return (A.invMass + B.invMass) * glm::dot(x.vB, y.vB) + glm::dot(x.wA, A.invI * y.wA) +
           glm::dot(x.wB, B.invI * y.wB);
  };
  const Real k11 = dotK(J1, J1), k12 = dotK(J1, J2), k22 = dotK(J2, J2);
  const Real det = k11 * k22 - k12 * k12;
  if (!(det > 0.0)) return;
  const Bias b = useBias ? Bias{0.0, soft.massScale, soft.impulseScale} : Bias{};
  const Real r1 = rowVelocity(J1, A, B) + (useBias ? soft.biasRate * glm::dot(u1, p.d) : 0.0);
  const Real r2 = rowVelocity(J2, A, B) + (useBias ? soft.biasRate * glm::dot(u2, p.d) : 0.0);
  const Real old1 = glm::dot(u1, j.linearImpulse), old2 = glm::dot(u2, j.linearImpulse);
  const Real l1 = -b.massScale * (k22 * r1 - k12 * r2) / det - b.impulseScale * old1;
  const Real l2 = -b.massScale * (k11 * r2 - k12 * r1) / det - b.impulseScale * old2;
  j.linearImpulse = (old1 + l1) * u1 + (old2 + l2) * u2;
  applyRow(J1, l1, A, B);
  applyRow(J2, l2, A, B);
}

// Distance row: along the line between the anchors, arms from each centre to its own anchor.
Row distanceRow(const Pose& p, Real& length) {
  length = glm::length(p.d);
  const Vec3 n = length > 1e-12 ? p.d / length : Vec3(0.0, 1.0, 0.0);
  return {-n, -glm::cross(p.rA, n), n, glm::cross(p.rB, n)};
}

// Swing-twist: the cone row turns b's axis back toward a's; the twist row about the mean axis.
// The twist angle (of the relative rotation split as swing then twist) changes at
// (wB - wA) . (a + b) / (1 + a . b): the mean axis stretched by 1 / cos(swing / 2), Box3D's
// twist Jacobian. Taken unit length, the row and the measured angle disagree at a large swing and
// the limit pumps energy into the limb (a ragdoll's arm spun at 9 rad/s on the ground). Near a
// swing of pi the twist is undefined and its rows are skipped.
SwingTwistRows swingTwistRows(const Joint& j, const Pose& p) {
  SwingTwistRows r;
  const Vec3 a = axisOf(p.fA), bAxis = axisOf(p.fB);
  const Vec3 n = glm::cross(a, bAxis);
  const Real s = glm::length(n);
  const Real angle = p.swing;
  if (s > 1e-9) {
    r.hasCone = true;
    r.cone = angularRow(-n / s);  // Cdot of (swing - angle)
    r.coneC = j.swing - angle;
  }
  const Real c = 1.0 + glm::dot(a, bAxis);
  if (c > 1e-3) {
    r.hasTwist = true;
    r.twist = angularRow((a + bAxis) / c);
    r.twistAngle = p.twist;
  }
  return r;
}

// Dry friction on all three relative rotations (a swing-twist's `friction`): the impulse that
// stops them, its length clamped to the torque times the substep (a disc clamp, as a motor at
// speed 0 clamps one row). It is kept in angularImpulse, which a swing-twist does not otherwise
// use, so it is warm started with the others.
void solveFriction(Joint& j, const Mat3& mass, Real h, SolverBody& A, SolverBody& B) {
  const Vec3 cdot = B.w - A.w;
  const Vec3 wanted = j.angularImpulse - mass * cdot;
  const Real cap = j.friction * h, length = glm::length(wanted);
  const Vec3 next = length > cap ? wanted * (cap / length) : wanted;
  const Vec3 L = next - j.angularImpulse;
  j.angularImpulse = next;
  A.w -= A.invI * L;
  B.w += B.invI * L;
}

// A swing-twist's friction, cone limit and two twist limits at the pose of r (both solve paths).
void solveSwingTwistLimits(Joint& j, const SwingTwistRows& r, Real h, bool useBias,
                           const Softness& soft, Real invH, SolverBody& A, SolverBody& B) {
  if (j.friction > 0.0) solveFriction(j, r.frictionMass, h, A, B);
  if (r.hasCone) solveLimit(r.cone, r.coneMass, r.coneC, j.twist.spring, useBias, soft, invH, A, B);
  if (r.hasTwist) {
    solveLimit(r.twist, r.twistMass, r.twistAngle - j.limits.lower, j.twist.lower, useBias, soft,
               invH, A, B);
    const Row neg{Vec3(0.0), -r.twist.wA, Vec3(0.0), -r.twist.wB};
    solveLimit(neg, r.twistMass, j.limits.upper - r.twistAngle, j.twist.upper, useBias, soft, invH,
               A, B);
  }
}

}  // namespace

namespace {

// prepare and finish walk every joint (joint_grid: 19,701, 576 bytes apart) and read the first
// five lines of each (joint_solver.h), prepare also its bodies' poses: fetched a few joints ahead.
constexpr int kJointAhead = 4;
void prefetchJoint(const Joint& j, const std::vector<Body>& bodies) {
  const char* at = reinterpret_cast<const char*>(&j);
  for (int line = 0; line < 5; ++line) detail::prefetch(at + 64 * line);
  for (const int i : {j.a, j.b})
    if (i >= 0) {
      detail::prefetch(&bodies[static_cast<size_t>(i)].center);
      detail::prefetch(&bodies[static_cast<size_t>(i)].rotation.z);
    }
}

}  // namespace

void JointSet::prepare(const std::vector<Body>& bodies, const std::vector<int>& bodyToSolver,
                       const std::vector<SolverBody>& sbs, const Settings& s, Real h, bool warm) {
  invH_ = 1.0 / h;
  // Joints are stiffer than contacts (Box2D v3 takes twice the contact hertz), but a chain of
  // fifty links solved with warm starting grows unstable above a quarter of the substep rate
  // (measured: 120 Hz at 4 substeps of 1/60 s explodes it, 60 Hz does not), Box3D's cap. The
  // softness lets a joint stretch by load / (row mass * omega^2): a heavy load on light links
  // needs more substeps (16 substeps: 240 Hz, a 50x load on a 50-link chain stretches 0.6%)
  // or the exact groups below.
  soft_ = makeSoftness(std::min(4.0 * s.contact.hertz, 0.25 * invH_), kJointDampingRatio, h);
  // The exact groups take the substep rate: no Gauss-Seidel chain to destabilise, and a stiffer
  // joint gives less where a contact stops one body of a group (ragdolls landing on stair edges,
  // 4 substeps, widest anchor gap with the groups solved before the contacts: 50 mm at 60 Hz,
  // 30 mm at 120 Hz, 17.8 mm at 240 Hz; after the contacts at 240 Hz: 5.5 mm).
  treeSoft_ = makeSoftness(invH_, kJointDampingRatio, h);
  active_.clear();
  reverse_ = false;
  touched_.clear();
  const int count = static_cast<int>(joints_.size());
  for (int k = 0; k < count; ++k) {
    if (k + kJointAhead < count) prefetchJoint(joints_[k + kJointAhead], bodies);
    Joint& j = joints_[k];
    if (!j.alive) continue;
    j.sa = j.a >= 0 ? bodyToSolver[j.a] : 0;
    j.sb = j.b >= 0 ? bodyToSolver[j.b] : 0;
    if (j.sa == 0 && j.sb == 0) continue;  // nothing awake moves it
    const Vec3 cA = j.a >= 0 ? bodies[j.a].center : Vec3(0.0);
    const Vec3 cB = j.b >= 0 ? bodies[j.b].center : Vec3(0.0);
    const Quat qA = j.a >= 0 ? bodies[j.a].rotation : Quat(1.0, 0.0, 0.0, 0.0);
    const Quat qB = j.b >= 0 ? bodies[j.b].rotation : Quat(1.0, 0.0, 0.0, 0.0);
    j.rA = qA * j.localAnchorA;
    j.rB = qB * j.localAnchorB;
    if (j.type != JointType::Ball) {  // a ball joint has no use for its frames
      j.qA = qA * j.frameA;
      j.qB = qB * j.frameB;
    }
    j.deltaCenter = cB - cA;
    if (!warm) {
      j.linearImpulse = j.angularImpulse = Vec3(0.0);
      j.axial = j.twist = AxialImpulses{};
    } else if (j.h > 0.0 && j.h != h) {
      // Impulses are per substep: a new substep length scales them.
      const Real r = h / j.h;
      j.linearImpulse *= r;
      j.angularImpulse *= r;
      for (AxialImpulses* x : {&j.axial, &j.twist})
        x->spring *= r, x->motor *= r, x->lower *= r, x->upper *= r;
    }
    j.h = h;
    j.slot = static_cast<int>(active_.size());
    active_.push_back(k);
    if (j.sa > 0) touched_.push_back(j.sa);
    if (j.sb > 0) touched_.push_back(j.sb);
  }
  if (touched_.size() > 64) {  // sorted and unique by marks: a sort of 40,000 costed 1.4%
    marks_.assign(sbs.size(), 0);
    for (int i : touched_) marks_[i] = 1;
    touched_.clear();
    for (int i = 1; i < static_cast<int>(marks_.size()); ++i)
      if (marks_[i]) touched_.push_back(i);
  } else {
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  }
  // One substep has the groups too since the geometric stiffness (geometricStiffness below, taken
  // as inertia by ContactSolver::prepareBody): without it the groups let the bridge's planks
  // zig-zag apart at one substep (gaps of 894 mm; the soft rows' 92 mm), with it 1.1 mm.
  buildTree(bodies, sbs);
}

void JointSet::geometricStiffness(std::vector<Real>& torqueArm) const {
  const int count = static_cast<int>(joints_.size());
  for (int k = 0; k < count; ++k) {
    // The fields read here fill the joint's first two lines (576-byte joints): fetched ahead.
    if (k + 2 * kJointAhead < count) {
      const char* ahead = reinterpret_cast<const char*>(&joints_[k + 2 * kJointAhead]);
      detail::prefetch(ahead);
      detail::prefetch(ahead + 64);
    }
    const Joint& j = joints_[k];
    if (!j.alive || !(j.h > 0.0)) continue;
    const Real impulse2 = glm::dot(j.linearImpulse, j.linearImpulse);
    if (!(impulse2 > 0.0)) continue;
    // |F| |r| = sqrt(|impulse|^2 |r|^2) / h: one square root an end.
    if (j.a >= 0)
      torqueArm[j.a] += std::sqrt(impulse2 * glm::dot(j.localAnchorA, j.localAnchorA)) / j.h;
    if (j.b >= 0)
      torqueArm[j.b] += std::sqrt(impulse2 * glm::dot(j.localAnchorB, j.localAnchorB)) / j.h;
  }
}

// Ball, hinge, fixed and swing-twist joints have equality rows (the point, a hinge's tilt, a
// fixed joint's rotation) that go to the exact solve where their dynamic bodies form a tree;
// sliders and distance joints, and every joint of a group with a loop (joint_grid), stay
// iterative.
void JointSet::buildTree(const std::vector<Body>& bodies, const std::vector<SolverBody>& sbs) {
  links_.clear();
  movable_.assign(touched_.empty() ? 0 : static_cast<size_t>(touched_.back()) + 1, 0);
  partner_.assign(joints_.size(), -1);
  pairHead_.assign(movable_.size(), -1);
  pairNext_.clear();
  for (int k : active_) {
    Joint& j = joints_[k];
    j.tree = false;
    if (j.sa > 0 && bodies[j.a].isDynamic()) movable_[j.sa] = 1;
    if (j.sb > 0 && bodies[j.b].isDynamic()) movable_[j.sb] = 1;
    if (j.a >= 0 && j.b >= 0 && bodies[j.a].isDynamic() && bodies[j.b].isDynamic()) {
      const Real ia = bodies[j.a].invMass, ib = bodies[j.b].invMass;
      if (ia > kTreeMassRatio * ib || ib > kTreeMassRatio * ia) continue;
    }
    if (j.type == JointType::Ball || pairableHinge(j, bodies)) {
      // A second ball joint between the same two bodies joins the first's entry (partner_):
      // together they hold the pair as a hinge about the line through their anchors would
      // (Box3D's bridge sample hangs its planks so). So does a second hinge about the first's
      // axis (a door's two hinges on a moving frame): the two anchors on the axis hold it as
      // the hinges' tilt rows would, and the entry solves the two points alone.
      const int lo = std::min(j.sa, j.sb), hi = std::max(j.sa, j.sb);
      int first = -1;
      for (int l = pairHead_[lo]; l >= 0 && first < 0; l = pairNext_[l]) {
        const JointTree::Link& o = links_[l];
        const Joint& f = joints_[o.joint];
        if (std::max(o.a, o.b) == hi && partner_[o.joint] < 0 && f.type == j.type &&
            (j.type == JointType::Ball || coaxial(f, j)))
          first = o.joint;
      }
      if (first >= 0) {
        partner_[first] = k;
        continue;
      }
      links_.push_back({k, j.sa, j.sb});
      pairNext_.push_back(pairHead_[lo]);
      pairHead_[lo] = static_cast<int>(links_.size()) - 1;
    } else if (j.type == JointType::Hinge || j.type == JointType::Fixed ||
               j.type == JointType::SwingTwist) {
      links_.push_back({k, j.sa, j.sb});
      pairNext_.push_back(-1);
    }
  }
  // The groups' structure is a function of the links and the movable bodies alone: built again
  // only when they changed (a joint, a body's sleep or kind, the solver's order of the bodies).
  const bool sameLinks = links_.size() == builtLinks_.size() && movable_ == builtMovable_ &&
                         std::equal(links_.begin(), links_.end(), builtLinks_.begin(),
                                    [](const JointTree::Link& x, const JointTree::Link& y) {
                                      return x.joint == y.joint && x.a == y.a && x.b == y.b;
                                    });
  if (!sameLinks) {
    tree_.setPairs(true);  // (solveGroups' passes: JointTree::solveWith)
    tree_.setLeavePairLoops(true);
    tree_.setOpenLoops(kOpenLoops);
    tree_.build(links_, movable_);
    builtLinks_ = links_;
    builtMovable_ = movable_;
  }
  for (int e = 0; e < tree_.size(); ++e) {
    Joint& j = joints_[tree_.joint(e)];
    j.tree = true;
    const int p = partner_[tree_.joint(e)];
    if (p < 0) continue;
    joints_[p].tree = true;
    // Two hinges' entry has no tilt rows (their points hold the axis): no tilt impulse to warm
    // start. (Partners whose group is left to the passes keep theirs: they are soft rows there.)
    if (j.type == JointType::Hinge) j.angularImpulse = joints_[p].angularImpulse = Vec3(0.0);
  }
  findClosers();
  // Ball joints outside the groups have no row but the point: four to a row (joint_wide.h).
  scalar_.clear();
  wideMembers_.clear();
  for (int k : active_)
    (!joints_[k].tree && joints_[k].type == JointType::Ball ? wideMembers_ : scalar_).push_back(k);
  // The passes' joints: a grouped joint's equality rows are solveGroups', so a grouped ball or
  // fixed joint, and a grouped hinge with no spring, motor or limits, has nothing left for them.
  iterative_.clear();
  idle_.clear();
  for (int k : scalar_) {
    Joint& j = joints_[k];
    const bool idle = j.tree && (j.type == JointType::Ball || j.type == JointType::Fixed ||
                                 (j.type == JointType::Hinge && !hasAxial(j)));
    if (!idle) {
      iterative_.push_back(k);
      continue;
    }
    idle_.push_back(k);
    // A locked hinge's axis row is the group's: its impulse joins the angular impulse, as the
    // group keeps it. Another idle hinge has no axis row (a motor, spring or limit switched off
    // since the last step left its impulse behind, which nothing would solve again).
    if (lockedHinge(j)) j.angularImpulse += j.axial.sum() * axisOf(j.qA);
    j.axial = AxialImpulses{};
  }
  wide_.build(joints_, wideMembers_, movable_, static_cast<int>(movable_.size()), sbs);
  wideLoaded_ = !wideMembers_.empty();
  group_.resize(tree_.size());
  for (int e = 0; e < tree_.size(); ++e) {
    GroupEntry& g = group_[e];
    g.joint = tree_.joint(e);
    g.sa = joints_[g.joint].sa;
    g.sb = joints_[g.joint].sb;
    g.partner = partner_[g.joint];
    g.flip = g.partner >= 0 && joints_[g.partner].sa != g.sa;
  }
  movingImmovable_ = false;
  for (const GroupEntry& g : group_)
    movingImmovable_ =
        movingImmovable_ || (g.sa > 0 && !movable_[g.sa]) || (g.sb > 0 && !movable_[g.sb]);
  groupDirty_ = false;
  if (!tree_.empty()) {
    const size_t nsb = movable_.size();
    builtDp_.resize(nsb);
    builtDq_.resize(nsb);
    moveSince_.resize(nsb);
    turnSince_.resize(nsb);
  }
  treeR_.assign(6 * static_cast<size_t>(tree_.size()), 0.0);
  poses_.resize(active_.size());
  swingTwists_.resize(active_.size());
  posesStale_ = treeStale_ = true;
  treeBuilt_ = false;
}

// What the passes read at the current pose (JointPose; a swing-twist's limit rows in
// swingTwists_): computed at the first pass after the bodies moved and read until they move again.
// The values are those each pass computed before: they depend on the pose and, for the masses, on
// the inverse masses and inertias, which hold for the step.
void JointSet::updatePoses(const std::vector<SolverBody>& sbs) {
  posesStale_ = false;
  for (int k : iterative_) {
    const Joint& j = joints_[k];
    const int kk = j.slot;
    const SolverBody& A = sbs[j.sa];
    const SolverBody& B = sbs[j.sb];
    Pose& p = poses_[kk];
    p = poseOf(j, A, B);
    const bool point = j.type == JointType::Ball || j.type == JointType::Fixed ||
                       j.type == JointType::Hinge || j.type == JointType::SwingTwist;
    if (point && !j.tree) p.K = pointMass(p, A, B);
    // A hinge's angle is read by its limits and spring only (the bridge's hinges have neither).
    if (j.type == JointType::SwingTwist ||
        (j.type == JointType::Hinge && (j.limits.enabled || j.spring.enabled)))
      p.twist = twistAngle(p.fA, p.fB);
    if (j.type == JointType::Hinge && hasAxial(j))
      p.axialMass = rowMass(angularRow(axisOf(p.fA)), A, B);
    if (j.type == JointType::SwingTwist) {
      const Vec3 a = axisOf(p.fA), b = axisOf(p.fB);
      p.swing = std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
      SwingTwistRows& r = swingTwists_[kk];
      r = swingTwistRows(j, p);
      if (r.hasCone) r.coneMass = rowMass(r.cone, A, B);
      if (r.hasTwist) r.twistMass = rowMass(r.twist, A, B);
      if (j.friction > 0.0) r.frictionMass = safeInverse(A.invI + B.invI);
    }
  }
}

void JointSet::warmStart(std::vector<SolverBody>& sbs) {
  if (posesStale_) updatePoses(sbs);
  if (groupDirty_) storeGroupImpulses();
  // The grouped joints with no row in the passes (no pose kept for them): the point's impulse
  // at the anchors now and the locked rotation's.
  for (int k : idle_) {
    const Joint& j = joints_[k];
    SolverBody& A = sbs[j.sa];
    SolverBody& B = sbs[j.sb];
    const Vec3 rA = A.dq * j.rA, rB = B.dq * j.rB;
    const Vec3 P = j.linearImpulse, L = j.angularImpulse;
    A.v -= A.invMass * P;
    A.w -= A.invI * (glm::cross(rA, P) + L);
    B.v += B.invMass * P;
    B.w += B.invI * (glm::cross(rB, P) + L);
  }
  for (int k : iterative_) {
    Joint& j = joints_[k];
    SolverBody& A = sbs[j.sa];
    SolverBody& B = sbs[j.sb];
    const Pose& p = poses_[j.slot];
    const Vec3 P = j.linearImpulse, L = j.angularImpulse;
    if (j.type == JointType::Slider) {
      Vec3 u1, u2;
      perpendiculars(axisOf(p.fA), u1, u2);
      applyRow(linearRow(u1, p.rA, p.rB, p.d), glm::dot(u1, P), A, B);
      applyRow(linearRow(u2, p.rA, p.rB, p.d), glm::dot(u2, P), A, B);
    } else if (j.type != JointType::Distance) {
      A.v -= A.invMass * P;
      A.w -= A.invI * glm::cross(p.rA, P);
      B.v += B.invMass * P;
      B.w += B.invI * glm::cross(p.rB, P);
    }
    if (j.type != JointType::Ball) {  // a ball joint's angular impulse stays 0
      A.w -= A.invI * L;
      B.w += B.invI * L;
    }
    switch (j.type) {
      case JointType::Hinge:
        applyRow(angularRow(axisOf(p.fA)), j.axial.sum(), A, B);
        break;
      case JointType::Slider:
        applyRow(linearRow(axisOf(p.fA), p.rA, p.rB, p.d), j.axial.sum(), A, B);
        break;
      case JointType::Distance: {
        Real length = 0.0;
        applyRow(distanceRow(p, length), j.axial.sum(), A, B);
        break;
      }
      case JointType::SwingTwist: {
        const SwingTwistRows& r = swingTwists_[j.slot];
        if (r.hasCone) applyRow(r.cone, j.twist.spring, A, B);
        if (r.hasTwist) applyRow(r.twist, j.twist.lower - j.twist.upper, A, B);
        break;
      }
      default:
        break;
    }
  }
  wide_.warmStart(sbs);
}

void JointSet::solve(std::vector<SolverBody>& sbs, bool useBias) {
  if (posesStale_) updatePoses(sbs);
  const Real h = 1.0 / invH_;
  // Symmetric Gauss-Seidel: every other pass runs backwards, so a load at the end of a chain
  // travels its whole length in one pass instead of one link per pass.
  const int count = static_cast<int>(iterative_.size());
  const bool backwards = reverse_;
  reverse_ = !reverse_;
  if (backwards) wide_.solve(sbs, useBias, soft_, true);
  for (int kk = 0; kk < count; ++kk) {
    Joint& j = joints_[iterative_[backwards ? count - 1 - kk : kk]];
    SolverBody& A = sbs[j.sa];
    SolverBody& B = sbs[j.sb];
    const Pose& p = poses_[j.slot];
    if (j.tree) {
      // Only the rows that stay iterative; the equality rows are solveGroups'.
      if (j.type == JointType::Hinge) {
        solveAxial(j, j.axial, angularRow(axisOf(p.fA)), p.axialMass, p.twist, j.spring.target,
                   useBias, soft_, h, invH_, A, B);
      } else if (j.type == JointType::SwingTwist) {
        solveSwingTwistLimits(j, swingTwists_[j.slot], h, useBias, soft_, invH_, A, B);
      }
      continue;
    }
    switch (j.type) {
      case JointType::Ball:
        solvePoint(j, p, useBias, soft_, A, B);
        break;
      case JointType::Fixed:
        solveAngularLock(j, p, useBias, soft_, A, B);
        solvePoint(j, p, useBias, soft_, A, B);
        break;
      case JointType::Hinge: {
        if (hasAxial(j))
          solveAxial(j, j.axial, angularRow(axisOf(p.fA)), p.axialMass, p.twist, j.spring.target,
                     useBias, soft_, h, invH_, A, B);
        solveAxisLock(j, p, useBias, soft_, A, B);
        solvePoint(j, p, useBias, soft_, A, B);
        break;
      }
      case JointType::Slider: {
        const Vec3 a = axisOf(p.fA);
        const Row J = linearRow(a, p.rA, p.rB, p.d);
        solveAxial(j, j.axial, J, rowMass(J, A, B), glm::dot(a, p.d), j.spring.target, useBias,
                   soft_, h, invH_, A, B);
        solveAngularLock(j, p, useBias, soft_, A, B);
        solveSliderLinear(j, p, useBias, soft_, A, B);
        break;
      }
      case JointType::Distance: {
        Real length = 0.0;
        const Row J = distanceRow(p, length);
        if (j.minLength == j.maxLength && !hasSpring(j)) {
          // A rod: one rigid row (kept in the spring slot).
          const Bias b = rigidBias(length - j.minLength, useBias, soft_);
          const Real m = rowMass(J, A, B);
          const Real lambda =
              -m * b.massScale * (rowVelocity(J, A, B) + b.bias) - b.impulseScale * j.axial.spring;
          j.axial.spring += lambda;
          applyRow(J, lambda, A, B);
        } else {
          solveAxial(j, j.axial, J, rowMass(J, A, B), length, j.restLength, useBias, soft_, h,
                     invH_, A, B);
        }
        break;
      }
      case JointType::SwingTwist: {
        solveSwingTwistLimits(j, swingTwists_[j.slot], h, useBias, soft_, invH_, A, B);
        solvePoint(j, p, useBias, soft_, A, B);
        break;
      }
    }
  }
  if (!backwards) wide_.solve(sbs, useBias, soft_, false);
}

// The groups' position errors at the bodies' pose now, from those at the pose the rows were
// built at along the rows (solveGroups): C = C0 + J (dx, dtheta), the motion since that pose
// in moveSince_ and turnSince_ (none for the immovable body 0).
void JointSet::carryErrors() {
  auto carry = [&](GroupEntry& g) {
    const Vec3 xA = g.sa > 0 ? moveSince_[g.sa] : Vec3(0.0);
    const Vec3 tA = g.sa > 0 ? turnSince_[g.sa] : Vec3(0.0);
    const Vec3 xB = g.sb > 0 ? moveSince_[g.sb] : Vec3(0.0);
    const Vec3 tB = g.sb > 0 ? turnSince_[g.sb] : Vec3(0.0);
    const Vec3 dx = (xB + glm::cross(tB, g.rB)) - (xA + glm::cross(tA, g.rA));
    const Vec3 dt = tB - tA;
    for (int k = 0; k < 3; ++k) g.C[k] = g.C0[k] + dx[k];
    if (g.partner >= 0) {
      const Vec3 dx2 = (xB + glm::cross(tB, g.rB2)) - (xA + glm::cross(tA, g.rA2));
      for (int k = 0; k < 3; ++k) g.C[3 + k] = g.C0[3 + k] + dx2[k];
      return;
    }
    for (int k = 3; k < g.m; ++k) g.C[k] = g.C0[k] + glm::dot(g.axes[k - 3], dt);
  };
  for (GroupEntry& g : group_) carry(g);
  for (Closer& c : closers_) carry(c.g);
}

// The group rows' impulses (GroupEntry::lambda, along the rows as built) back into the joints'
// world vectors, which the warm start, a new build and finish read.
void JointSet::storeGroupImpulses() {
  groupDirty_ = false;
  auto store = [&](const GroupEntry& g) {
    Joint& j = joints_[g.joint];
    j.linearImpulse = Vec3(g.lambda[0], g.lambda[1], g.lambda[2]);
    if (g.partner >= 0) {
      const Real sign = g.flip ? -1.0 : 1.0;
      joints_[g.partner].linearImpulse = sign * Vec3(g.lambda[3], g.lambda[4], g.lambda[5]);
    } else if (g.m > 3) {
      Vec3 L(0.0);
      for (int k = 3; k < g.m; ++k) L += g.lambda[k] * g.axes[k - 3];
      j.angularImpulse = L;
    }
  };
  for (const GroupEntry& g : group_) store(g);
  for (const Closer& c : closers_) store(c.g);
}

void JointSet::buildEntry(GroupEntry& g, JointTree::Rows& rows,
                          const std::vector<SolverBody>& sbs) {
  const Joint& j = joints_[g.joint];
  // (the pose computed here: a grouped joint with no row in the passes keeps none)
  Pose p = poseOf(j, sbs[j.sa], sbs[j.sb]);
  if (lockedHinge(j)) p.twist = twistAngle(p.fA, p.fB);
  auto setRow = [&](int k, const Vec3& linA, const Vec3& angA, const Vec3& linB, const Vec3& angB) {
    for (int i = 0; i < 3; ++i) {
      rows.a[k][i] = linA[i];
      rows.a[k][3 + i] = angA[i];
      rows.b[k][i] = linB[i];
      rows.b[k][3 + i] = angB[i];
    }
  };
  for (int k = 0; k < 3; ++k) {
    Vec3 u(0.0);
    u[k] = 1.0;
    setRow(k, -u, -glm::cross(p.rA, u), u, glm::cross(p.rB, u));
    g.C[k] = p.d[k];
    g.lambda[k] = j.linearImpulse[k];
  }
  g.rA = p.rA;
  g.rB = p.rB;
  rows.m = 3;
  rows.point = true;  // the rows below add no linear parts
  if (g.partner >= 0) {
    // The partner's point, as rows 3-5 along the same world axes (its arms and error in
    // this entry's a-to-b sense), the rows not a point's alone any more.
    const Joint& q = joints_[g.partner];
    const Pose p2 = poseOf(q, sbs[q.sa], sbs[q.sb]);
    const Real sign = g.flip ? -1.0 : 1.0;
    g.rA2 = g.flip ? p2.rB : p2.rA;
    g.rB2 = g.flip ? p2.rA : p2.rB;
    for (int k = 0; k < 3; ++k) {
      Vec3 u(0.0);
      u[k] = 1.0;
      setRow(3 + k, -u, -glm::cross(g.rA2, u), u, glm::cross(g.rB2, u));
      g.C[3 + k] = sign * p2.d[k];
      g.lambda[3 + k] = sign * q.linearImpulse[k];
    }
    rows.m = g.m = 6;
    rows.point = false;
    std::copy(g.C, g.C + 6, g.C0);
    return;
  }
  // The rotation rows (a hinge's two tilts, with a locked hinge's axis; a fixed joint's
  // three world axes) act on the angular velocities alone, along g.axes.
  if (j.type == JointType::Hinge) {
    const Vec3 a = axisOf(p.fA), c = glm::cross(a, axisOf(p.fB));
    perpendiculars(a, g.axes[0], g.axes[1]);
    g.C[3] = glm::dot(g.axes[0], c);
    g.C[4] = glm::dot(g.axes[1], c);
    rows.m = 5;
    if (lockedHinge(j)) {
      g.axes[2] = a;
      // (angles wrap: a hinge held at pi reads its angle in (-pi, pi])
      g.C[5] = std::remainder(p.twist - j.limits.lower, 2.0 * std::numbers::pi);
      rows.m = 6;
    }
  } else if (j.type == JointType::Fixed) {
    Quat q = p.fB * glm::conjugate(p.fA);
    if (q.w < 0.0) q = -q;
    const Vec3 angle = 2.0 * Vec3(q.x, q.y, q.z);
    for (int k = 0; k < 3; ++k) {
      g.axes[k] = Vec3(0.0);
      g.axes[k][k] = 1.0;
      g.C[3 + k] = angle[k];
    }
    rows.m = 6;
  }
  g.m = rows.m;
  for (int k = 3; k < g.m; ++k) {
    setRow(k, Vec3(0.0), -g.axes[k - 3], Vec3(0.0), g.axes[k - 3]);
    g.lambda[k] = glm::dot(g.axes[k - 3], j.angularImpulse);
  }
  std::copy(g.C, g.C + 6, g.C0);
}

void JointSet::solveGroups(std::vector<SolverBody>& sbs, bool useBias) {
  const int n = tree_.size();
  // The rows and factor are kept from the pose they were built at while no entry's rows have
  // turned more than kRelaxTurn since (their rows depend on the rotation alone: the arms and
  // axes turn, the inverse inertias hold for the step; kShortArm), by the relax passes and the next
  // substeps' passes too. The position errors are then carried along the kept rows, C = C0 + J
  // (dx, dtheta) from the built pose, never measured again at the new pose: a right-hand side
  // J v + bias C in the range of J leaves the mixing's near-null directions (a bridge's
  // redundant tilt rows) nothing, where an error measured at another pose than its rows' was
  // multiplied by the mixing's 1e4 and blew the bridge up. What the linearisation leaves out
  // (under 0.5 kRelaxTurn^2 of an arm) is measured at the next build: the first pass of every
  // step builds.
  // Each group's rows are kept or built again on their own: a group none of whose entries have
  // turned too far keeps its factor while another is built again (twenty ragdolls, a few of them
  // still tumbling). With a moving immovable body (kinematic) in a group every group is built
  // again together: such a body may be shared between groups, and its built pose is one.
  bool rebuild = treeStale_ || !treeBuilt_;
  bool all = !treeBuilt_;
  if (rebuild && treeBuilt_) {
    const Real limit = kRelaxTurn * kRelaxTurn;
    bool turned = false;
    for (int i : touched_) {
      const SolverBody& b = sbs[i];
      Quat q = b.dq * glm::conjugate(builtDq_[i]);
      if (q.w < 0.0) q = -q;
      const Vec3 t = 2.0 * Vec3(q.x, q.y, q.z);
      turnSince_[i] = t;
      moveSince_[i] = b.dp - builtDp_[i];
      turned = turned || glm::dot(t, t) > limit;
    }
    // A row turns with its arm (by the turn times the arm) and, a hinge's rotation rows, with
    // body a: the rows are rebuilt when any entry's have turned too far (kShortArm). While no
    // body has turned past kRelaxTurn no entry's have (a short arm allows more, never less).
    bool anyGroup = false;
    if (turned) {
      auto turnOf = [&](int s) { return s > 0 ? glm::dot(turnSince_[s], turnSince_[s]) : 0.0; };
      auto armTurned = [&](int s, const Vec3& r) {
        const Real t2 = turnOf(s), r2 = glm::dot(r, r);
        return r2 >= kShortArm * kShortArm ? t2 > limit : t2 * r2 > limit * kShortArm * kShortArm;
      };
      // An entry's or closing joint's rows turned too far: its group is built again.
      rebuildGroup_.assign(static_cast<size_t>(tree_.groupCount()), 0);
      auto mark = [&](const GroupEntry& g, int grp) {
        if (rebuildGroup_[grp]) return;
        if (armTurned(g.sa, g.rA) || armTurned(g.sb, g.rB) ||
            (g.partner >= 0 && (armTurned(g.sa, g.rA2) || armTurned(g.sb, g.rB2))) ||
            (g.partner < 0 && g.m > 3 && joints_[g.joint].type == JointType::Hinge &&
             turnOf(g.sa) > limit)) {
          rebuildGroup_[grp] = 1;
          anyGroup = true;
        }
      };
      for (int e = 0; e < n; ++e) mark(group_[e], tree_.groupOf(e));
      for (const Closer& c : closers_) mark(c.g, c.group);
      all = anyGroup && movingImmovable_;
    }
    rebuild = anyGroup;
    treeStale_ = false;
    // The errors of the rows kept (those built again are measured again below).
    if (!all) carryErrors();
  }
  if (rebuild) {
    if (groupDirty_) storeGroupImpulses();
    treeStale_ = false;
    treeBuilt_ = true;
    if (all) {
      for (int i : touched_) {
        builtDp_[i] = sbs[i].dp;
        builtDq_[i] = sbs[i].dq;
      }
    } else {
      for (int grp = 0; grp < tree_.groupCount(); ++grp) {
        if (!rebuildGroup_[grp]) continue;
        for (int i : tree_.groupBodies(grp)) {
          builtDp_[i] = sbs[i].dp;
          builtDq_[i] = sbs[i].dq;
        }
      }
    }
    for (int e = 0; e < n; ++e)
      if (all || rebuildGroup_[tree_.groupOf(e)]) buildEntry(group_[e], tree_.rows(e), sbs);
    for (Closer& c : closers_)
      if (all || rebuildGroup_[c.group]) buildEntry(c.g, c.rows, sbs);
    if (all) {
      tree_.factor(sbs);
    } else {
      for (int grp = 0; grp < tree_.groupCount(); ++grp)
        if (rebuildGroup_[grp]) tree_.factorGroup(grp, sbs);
    }
    for (Closure& c : closures_)
      if (all || rebuildGroup_[c.group]) factorClosure(c, sbs);
  }
  groupDirty_ = true;
  // Right-hand sides J v (+ bias C), the rows' velocities as they were built: rows 0-2 the
  // relative velocity of the anchors (their arms as built), the others the relative angular
  // velocity along g.axes; then the impulses' change d (the soft step's with bias, -x in the
  // relax) applied as J^T d, each entry's as the substitution finishes it.
  const Real biasRate = useBias ? treeSoft_.biasRate : 0.0;
  const Real massScale = treeSoft_.massScale, impulseScale = treeSoft_.impulseScale;
  tree_.solveWith(
      treeR_,
      [&](int e, Real* r) {
        const GroupEntry& g = group_[e];
        const SolverBody& A = sbs[g.sa];
        const SolverBody& B = sbs[g.sb];
        const Vec3 dv = (B.v + glm::cross(B.w, g.rB)) - (A.v + glm::cross(A.w, g.rA));
        for (int k = 0; k < 3; ++k) r[k] = dv[k];
        if (g.partner >= 0) {
          const Vec3 dv2 = (B.v + glm::cross(B.w, g.rB2)) - (A.v + glm::cross(A.w, g.rA2));
          for (int k = 0; k < 3; ++k) r[3 + k] = dv2[k];
        } else if (g.m > 3) {
          const Vec3 dw = B.w - A.w;
          for (int k = 3; k < g.m; ++k) r[k] = glm::dot(g.axes[k - 3], dw);
        }
        if (useBias)
          for (int k = 0; k < g.m; ++k) r[k] += biasRate * g.C[k];
      },
      [&](int e, const Real* x) {
        GroupEntry& g = group_[e];
        SolverBody& A = sbs[g.sa];
        SolverBody& B = sbs[g.sb];
        auto change = [&](int k) {
          const Real d = useBias ? -massScale * x[k] - impulseScale * g.lambda[k] : -x[k];
          g.lambda[k] += d;
          return d;
        };
        // J^T d: the point's impulse P at the arms, and the rotation rows' torque.
        const Vec3 P(change(0), change(1), change(2));
        if (g.partner >= 0) {
          const Vec3 P2(change(3), change(4), change(5));
          A.v -= A.invMass * (P + P2);
          A.w -= A.invI * (glm::cross(g.rA, P) + glm::cross(g.rA2, P2));
          B.v += B.invMass * (P + P2);
          B.w += B.invI * (glm::cross(g.rB, P) + glm::cross(g.rB2, P2));
          return;
        }
        Vec3 torque(0.0);
        for (int k = 3; k < g.m; ++k) torque += change(k) * g.axes[k - 3];
        const Vec3 angA = -glm::cross(g.rA, P) - torque;
        const Vec3 angB = glm::cross(g.rB, P) + torque;
        A.v -= A.invMass * P;
        A.w += A.invI * angA;
        B.v += B.invMass * P;
        B.w += B.invI * angB;
      });
  if (!closures_.empty()) solveClosures(sbs, useBias);
}

// The links that close loops within a kept group (buildTree's links_ with no entry, both
// bodies in one group), in link order, grouped by group; each group's within kCloseWork.
void JointSet::findClosers() {
  closers_.clear();
  closures_.clear();
  const int groups = tree_.groupCount();
  if (groups == 0) return;
  bodyGroup_.assign(movable_.size(), -1);
  bodySlot_.assign(movable_.size(), -1);
  for (int grp = 0; grp < groups; ++grp) {
    int slot = 0;
    for (int b : tree_.groupBodies(grp)) {
      bodyGroup_[b] = grp;
      bodySlot_[b] = slot++;
    }
  }
  auto rowsOf = [&](const Joint& j) {
    if (j.type == JointType::Hinge) return lockedHinge(j) ? 6 : 5;
    return j.type == JointType::Fixed ? 6 : 3;
  };
  for (const JointTree::Link& l : links_) {
    const Joint& j = joints_[l.joint];
    if (j.tree || partner_[l.joint] >= 0 || l.a <= 0 || l.b <= 0) continue;
    if (!movable_[l.a] || !movable_[l.b]) continue;
    const int grp = bodyGroup_[l.a];
    if (grp < 0 || bodyGroup_[l.b] != grp) continue;
    Closer& c = closers_.emplace_back();
    c.group = grp;
    c.g.joint = l.joint;
    c.g.sa = j.sa;
    c.g.sb = j.sb;
  }
  if (closers_.empty()) return;
  // The pairs of bodies an entry joins: a further joint between such a pair (a third ball
  // joint, a ball joint on a hinge's pair; setLeavePairLoops) stays in the passes. It repeats
  // rows the entry holds, or nearly (three ball joints nearly in line weld the pair through a
  // row whose mass is small), and its soft rows give where exact ones fought the entry: chains
  // of boxes with three ball joints per pair, whipping, parted up to 79 mm with the third joint
  // soft and 104 mm with it closed exactly (a driver outside the tree, 200 random chains).
  auto key = [](int a, int b) {
    return (static_cast<uint64_t>(std::min(a, b)) << 32) | static_cast<uint32_t>(std::max(a, b));
  };
  pairKeys_.clear();
  for (int e = 0; e < tree_.size(); ++e) {
    const Joint& j = joints_[tree_.joint(e)];
    pairKeys_.push_back(key(j.sa, j.sb));
  }
  std::sort(pairKeys_.begin(), pairKeys_.end());
  std::erase_if(closers_, [&](const Closer& c) {
    return std::binary_search(pairKeys_.begin(), pairKeys_.end(), key(c.g.sa, c.g.sb));
  });
  if (closers_.empty()) return;
  // Grouped by group (the same order whatever the threads: links_ is in joint order).
  std::stable_sort(closers_.begin(), closers_.end(),
                   [](const Closer& x, const Closer& y) { return x.group < y.group; });
  size_t kept = 0;
  for (size_t i = 0; i < closers_.size(); ++i) {
    Closer& c = closers_[i];
    const int m = rowsOf(joints_[c.g.joint]);
    if (closures_.empty() || closures_.back().group != c.group) {
      Closure& z = closures_.emplace_back();
      z.group = c.group;
      z.first = static_cast<int>(kept);
    }
    Closure& z = closures_.back();
    const int bodies = static_cast<int>(tree_.groupBodies(c.group).size());
    if ((z.m + m) * bodies > kCloseWork) continue;  // left to the passes
    z.m += m;
    ++z.count;
    joints_[c.g.joint].tree = true;
    closers_[kept++] = std::move(c);
  }
  closers_.resize(kept);
  std::erase_if(closures_, [](const Closure& z) { return z.count == 0; });
}

namespace {

// W J^T for a row's 6 parts on a body (linear, angular), times `scale`, added to v: the velocity
// change a unit impulse along the row makes (the group's factor's W: inverse mass along the free
// axes, inverse inertia).
void addImpulse(Real* v, const SolverBody& b, const Real* J, Real scale) {
  const Vec3 lin(J[0], J[1], J[2]), ang(J[3], J[4], J[5]);
  const Vec3 dv = b.invMass * (b.linearFree * lin), dw = b.invI * ang;
  for (int i = 0; i < 3; ++i) {
    v[i] += scale * dv[i];
    v[3 + i] += scale * dw[i];
  }
}

Real dot6(const Real* J, const Real* v) {
  Real t = 0.0;
  for (int i = 0; i < 6; ++i) t += J[i] * v[i];
  return t;
}

}  // namespace

// The right-hand sides J_e v of group `grp`'s entries for velocity changes on a few of its bodies
// (velocityOf(body): 6 values, or null where none), written to r; the others' left 0.
template <class VelocityOf>
void JointSet::groupRowsTimes(int grp, VelocityOf&& velocityOf, std::vector<Real>& r) const {
  const auto [entryBegin, entryEnd] = tree_.groupEntries(grp);
  std::fill(r.begin() + 6 * static_cast<ptrdiff_t>(entryBegin),
            r.begin() + 6 * static_cast<ptrdiff_t>(entryEnd), 0.0);
  for (int e = entryBegin; e < entryEnd; ++e) {
    const GroupEntry& g = group_[static_cast<size_t>(e)];
    const Real* vA = velocityOf(g.sa);
    const Real* vB = velocityOf(g.sb);
    if (!vA && !vB) continue;
    const JointTree::Rows& rows = tree_.rows(e);
    Real* y = &r[6 * static_cast<size_t>(e)];
    for (int q = 0; q < rows.m; ++q)
      y[q] = (vA ? dot6(rows.a[q], vA) : 0.0) + (vB ? dot6(rows.b[q], vB) : 0.0);
  }
}

// S of one group's closing rows for the rows and factor just built (Closure).
void JointSet::factorClosure(Closure& c, const std::vector<SolverBody>& sbs) {
  const size_t m = static_cast<size_t>(c.m);
  const auto [entryBegin, entryEnd] = tree_.groupEntries(c.group);
  const size_t ne = static_cast<size_t>(entryEnd - entryBegin);
  c.S.assign(m * m, 0.0);
  c.WJ.assign(m * 12, 0.0);
  closeR_.assign(6 * static_cast<size_t>(tree_.size()), 0.0);
  closeY_.assign(closeR_.size(), 0.0);
  // L^-1 B and D^-1 L^-1 B by entry and component, the closing rows side by side:
  // [(e * 6 + l) * m + row] for the group's entry e (0 where a row's substitution did not reach).
  closeYd_.assign(ne * 6 * m, 0.0);
  closePd_.assign(ne * 6 * m, 0.0);
  closeLive_.assign(ne, 0);
  // Per row: W J_c^T at its two bodies, and the group's rows' velocity from it (B's column) put
  // through the forward substitution.
  size_t r = 0;
  for (int i = c.first; i < c.first + c.count; ++i) {
    const Closer& z = closers_[static_cast<size_t>(i)];
    for (int k = 0; k < z.rows.m; ++k, ++r) {
      Real* wa = &c.WJ[12 * r];
      Real* wb = wa + 6;
      addImpulse(wa, sbs[z.g.sa], z.rows.a[k], 1.0);
      addImpulse(wb, sbs[z.g.sb], z.rows.b[k], 1.0);
      groupRowsTimes(
          c.group,
          [&](int body) -> const Real* {
            return body == z.g.sa ? wa : body == z.g.sb ? wb : nullptr;
          },
          closeR_);
      tree_.forwardGroup(c.group, closeR_, closeY_, closeReached_);
      for (int e : closeReached_) {
        const size_t at = static_cast<size_t>(e - entryBegin);
        closeLive_[at] = 1;
        for (size_t l = 0; l < 6; ++l) {
          closeYd_[(at * 6 + l) * m + r] = closeY_[6 * static_cast<size_t>(e) + l];
          closePd_[(at * 6 + l) * m + r] = closeR_[6 * static_cast<size_t>(e) + l];
        }
      }
    }
  }
  // S = A - (L^-1 B)^T D^-1 (L^-1 B) (symmetric: the lower triangle is written), each diagonal
  // given kCloseMixing of the row's own mass A_rr. A_rc is not zero where rows r and c share a
  // body; the product is summed entry by entry, each entry's rows at once.
  closeBodies_.resize(2 * m);
  closeJ_.resize(2 * m);
  r = 0;
  for (int i = c.first; i < c.first + c.count; ++i) {
    const Closer& z = closers_[static_cast<size_t>(i)];
    for (int k = 0; k < z.rows.m; ++k, ++r) {
      closeBodies_[2 * r] = z.g.sa;
      closeBodies_[2 * r + 1] = z.g.sb;
      closeJ_[2 * r] = z.rows.a[k];
      closeJ_[2 * r + 1] = z.rows.b[k];
    }
  }
  closeE_.assign(m, 0.0);  // A_rr
  for (r = 0; r < m; ++r)
    for (size_t col = 0; col <= r; ++col) {
      Real a = 0.0;
      for (int side = 0; side < 2; ++side)
        for (int other = 0; other < 2; ++other)
          if (closeBodies_[2 * col + other] == closeBodies_[2 * r + side])
            a += dot6(closeJ_[2 * r + side], &c.WJ[12 * col + 6 * other]);
      c.S[r * m + col] = a;
      if (col == r) closeE_[r] = a;
    }
  for (size_t e = 0; e < ne; ++e) {
    if (!closeLive_[e]) continue;
    for (size_t l = 0; l < 6; ++l) {
      const Real* y = &closeYd_[(e * 6 + l) * m];
      const Real* p = &closePd_[(e * 6 + l) * m];
      for (r = 0; r < m; ++r) {
        const Real a = y[r];
        if (a == 0.0) continue;
        Real* row = &c.S[r * m];
        for (size_t col = 0; col <= r; ++col) row[col] -= a * p[col];
      }
    }
  }
  for (r = 0; r < m; ++r) c.S[r * m + r] += kCloseMixing * closeE_[r];
  // Cholesky, lower (S is positive definite with the mixing; a pivot rounding left at zero or
  // below would be dropped, its impulse kept at 0).
  for (size_t k = 0; k < m; ++k) {
    Real d = c.S[k * m + k];
    for (size_t i = 0; i < k; ++i) d -= c.S[k * m + i] * c.S[k * m + i];
    const Real pivot = d > 0.0 ? std::sqrt(d) : 0.0;
    c.S[k * m + k] = pivot;
    for (size_t row = k + 1; row < m; ++row) {
      Real v = c.S[row * m + k];
      for (size_t i = 0; i < k; ++i) v -= c.S[row * m + i] * c.S[k * m + i];
      c.S[row * m + k] = pivot > 0.0 ? v / pivot : 0.0;
    }
  }
}

// The closing rows after their group's solve: S y = J_c v (+ bias C), the impulses' change d as
// the group's entries take theirs, applied to the closing rows' bodies (W J_c^T d); then the
// group's rows answer the velocity that gave them (K x = B d), their impulses -x.
void JointSet::solveClosures(std::vector<SolverBody>& sbs, bool useBias) {
  const Real biasRate = useBias ? treeSoft_.biasRate : 0.0;
  const Real massScale = treeSoft_.massScale, impulseScale = treeSoft_.impulseScale;
  closeR_.resize(6 * static_cast<size_t>(tree_.size()));
  for (const Closure& c : closures_) {
    const std::span<const int> bodies = tree_.groupBodies(c.group);
    const size_t m = static_cast<size_t>(c.m);
    closeE_.assign(m, 0.0);
    size_t r = 0;
    for (int i = c.first; i < c.first + c.count; ++i) {
      const Closer& z = closers_[static_cast<size_t>(i)];
      const SolverBody& A = sbs[z.g.sa];
      const SolverBody& B = sbs[z.g.sb];
      for (int k = 0; k < z.rows.m; ++k, ++r) {
        const Real* a = z.rows.a[k];
        const Real* b = z.rows.b[k];
        Real e = 0.0;
        for (int q = 0; q < 3; ++q)
          e += a[q] * A.v[q] + a[3 + q] * A.w[q] + b[q] * B.v[q] + b[3 + q] * B.w[q];
        closeE_[r] = e + biasRate * z.g.C[k];
      }
    }
    for (size_t k = 0; k < m; ++k) {  // L y' = e, then L^T y = y'
      Real v = closeE_[k];
      for (size_t i = 0; i < k; ++i) v -= c.S[k * m + i] * closeE_[i];
      const Real pivot = c.S[k * m + k];
      closeE_[k] = pivot > 0.0 ? v / pivot : 0.0;
    }
    for (size_t k = m; k-- > 0;) {
      Real v = closeE_[k];
      for (size_t i = k + 1; i < m; ++i) v -= c.S[i * m + k] * closeE_[i];
      const Real pivot = c.S[k * m + k];
      closeE_[k] = pivot > 0.0 ? v / pivot : 0.0;
    }
    // The closing rows' impulses' change d, and the velocity change it makes at their bodies.
    closeDv_.assign(6 * bodies.size(), 0.0);
    r = 0;
    for (int i = c.first; i < c.first + c.count; ++i) {
      GroupEntry& g = closers_[static_cast<size_t>(i)].g;
      for (int k = 0; k < g.m; ++k, ++r) {
        const Real d = useBias ? -massScale * closeE_[r] - impulseScale * g.lambda[k] : -closeE_[r];
        g.lambda[k] += d;
        Real* va = &closeDv_[6 * static_cast<size_t>(bodySlot_[g.sa])];
        Real* vb = &closeDv_[6 * static_cast<size_t>(bodySlot_[g.sb])];
        for (int l = 0; l < 6; ++l) {
          va[l] += d * c.WJ[12 * r + l];
          vb[l] += d * c.WJ[12 * r + 6 + l];
        }
      }
    }
    auto velocityOf = [&](int body) -> const Real* {
      if (body <= 0 || bodyGroup_[body] != c.group) return nullptr;
      const Real* v = &closeDv_[6 * static_cast<size_t>(bodySlot_[body])];
      for (int l = 0; l < 6; ++l)
        if (v[l] != 0.0) return v;
      return nullptr;
    };
    groupRowsTimes(c.group, velocityOf, closeR_);
    for (size_t slot = 0; slot < bodies.size(); ++slot) {
      const Real* v = &closeDv_[6 * slot];
      SolverBody& body = sbs[bodies[slot]];
      body.v += Vec3(v[0], v[1], v[2]);
      body.w += Vec3(v[3], v[4], v[5]);
    }
    tree_.solveGroup(c.group, closeR_);
    const auto [entryBegin, entryEnd] = tree_.groupEntries(c.group);
    for (int e = entryBegin; e < entryEnd; ++e) {
      GroupEntry& g = group_[static_cast<size_t>(e)];
      const JointTree::Rows& rows = tree_.rows(e);
      const Real* x = &closeR_[6 * static_cast<size_t>(e)];
      const bool moveA = g.sa > 0 && bodyGroup_[g.sa] == c.group;
      const bool moveB = g.sb > 0 && bodyGroup_[g.sb] == c.group;
      // J^T (-x) on each body, then W once.
      Real pA[6] = {}, pB[6] = {}, dA[6] = {}, dB[6] = {};
      for (int q = 0; q < rows.m; ++q) {
        g.lambda[q] -= x[q];
        for (int l = 0; l < 6; ++l) {
          pA[l] -= x[q] * rows.a[q][l];
          pB[l] -= x[q] * rows.b[q][l];
        }
      }
      if (moveA) addImpulse(dA, sbs[g.sa], pA, 1.0);
      if (moveB) addImpulse(dB, sbs[g.sb], pB, 1.0);
      if (moveA) {
        sbs[g.sa].v += Vec3(dA[0], dA[1], dA[2]);
        sbs[g.sa].w += Vec3(dA[3], dA[4], dA[5]);
      }
      if (moveB) {
        sbs[g.sb].v += Vec3(dB[0], dB[1], dB[2]);
        sbs[g.sb].w += Vec3(dB[3], dB[4], dB[5]);
      }
    }
  }
}

void JointSet::finish(std::vector<int>& broken) {
  broken.clear();
  if (groupDirty_) storeGroupImpulses();
  if (wideLoaded_) {  // the step's wide rows hold their joints' impulses until here
    wide_.store(joints_);
    wideLoaded_ = false;
  }
  const int count = static_cast<int>(active_.size());
  for (int n = 0; n < count; ++n) {
    if (n + kJointAhead < count) {
      const char* at = reinterpret_cast<const char*>(&joints_[active_[n + kJointAhead]]);
      for (int line = 0; line < 5; ++line) detail::prefetchWrite(at + 64 * line);
    }
    Joint& j = joints_[active_[n]];
    Vec3 force = j.linearImpulse, torque = j.angularImpulse;
    switch (j.type) {  // (a ball joint's frames are not kept: qA is read by the others only)
      case JointType::Hinge:
        torque += j.axial.sum() * axisOf(j.qA);
        break;
      case JointType::Slider:
        force += j.axial.sum() * axisOf(j.qA);
        break;
      case JointType::Distance: {
        const Vec3 d = j.deltaCenter + j.rB - j.rA;
        const Real l = glm::length(d);
        force += j.axial.sum() * (l > 1e-12 ? d / l : Vec3(0.0));
        break;
      }
      case JointType::SwingTwist:
        torque += (j.twist.lower - j.twist.upper) * axisOf(j.qA);
        break;
      default:
        break;
    }
    j.reactionForce = invH_ * force;
    j.reactionTorque = invH_ * torque;
    // (no length for an unbreakable joint: nothing exceeds an infinite break force)
    if (std::isfinite(j.breakForce) && glm::length(j.reactionForce) > j.breakForce)
      broken.push_back(active_[n]);
  }
}

}  // namespace tumble
