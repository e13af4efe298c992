// The ball joints solved four to a row (engine/src/dynamics/joint_wide.h) on random bodies and
// joints (some bodies shared by many joints, so several colours and the overflow are used):
// a pass conserves linear and angular momentum, the relax passes converge to the exact velocity
// projection found by a dense solve (an independent method), and every joint's impulse comes
// back to its own joint.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "dynamics/joint_solver.h"
#include "dynamics/joint_wide.h"
#include "world_fixtures.h"

using namespace tumble;
using Catch::Matchers::WithinAbs;

namespace {

struct Scene {
  std::vector<SolverBody> sb;  // 0: the immovable body
  std::vector<Vec3> center;    // per solver body, world
  std::vector<Joint> joints;
  std::vector<int> members;
  std::vector<char> dynamic;
};

Mat3 randomRotation(std::mt19937& rng) {
  std::normal_distribution<Real> n(0.0, 1.0);
  const Quat q = glm::normalize(Quat(n(rng), n(rng), n(rng), n(rng)));
  return glm::mat3_cast(q);
}

// `bodies` dynamic bodies; `count` joints between random pairs, every fourth joint on body 1
// (a hub: more joints than colours, so some go to the overflow); with `ground`, every fifth joint
// holds its body to the immovable body 0. Anchors coincide at the pose (no gap).
Scene makeScene(int bodies, int count, bool ground, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0), mass(0.5, 4.0);
  Scene s;
  s.sb.resize(static_cast<size_t>(bodies) + 1);
  s.center.assign(s.sb.size(), Vec3(0.0));
  s.dynamic.assign(s.sb.size(), 0);
  for (int i = 1; i <= bodies; ++i) {
    SolverBody& b = s.sb[i];
    b.invMass = 1.0 / mass(rng);
    const Mat3 R = randomRotation(rng);
    const Mat3 D(1.0 / mass(rng), 0.0, 0.0, 0.0, 1.0 / mass(rng), 0.0, 0.0, 0.0, 1.0 / mass(rng));
    b.invI = R * D * glm::transpose(R);
    b.v = Vec3(u(rng), u(rng), u(rng));
    b.w = Vec3(u(rng), u(rng), u(rng));
    b.body = i - 1;
    s.center[i] = 5.0 * Vec3(u(rng), u(rng), u(rng));
    s.dynamic[i] = 1;
  }
  std::uniform_int_distribution<int> pick(1, bodies);
  std::vector<std::pair<int, int>> used;  // no pair twice: two joints of a pair repeat a row
  for (int k = 0; k < count; ++k) {
    int a = 0, b = 0;
    do {
      a = ground && k % 5 == 0 ? 0 : k % 4 == 0 ? 1 : pick(rng);
      b = pick(rng);
    } while (b == a || std::find(used.begin(), used.end(), std::pair(a, b)) != used.end() ||
             std::find(used.begin(), used.end(), std::pair(b, a)) != used.end());
    used.emplace_back(a, b);
    Joint j;
    j.type = JointType::Ball;
    j.alive = true;
    j.sa = a;
    j.sb = b;
    const Vec3 p = 0.5 * (s.center[a] + s.center[b]) + Vec3(u(rng), u(rng), u(rng));
    j.rA = p - s.center[a];
    j.rB = p - s.center[b];
    j.deltaCenter = s.center[b] - s.center[a];
    s.members.push_back(static_cast<int>(s.joints.size()));
    s.joints.push_back(j);
  }
  return s;
}

Vec3 linearMomentum(const Scene& s) {
  Vec3 p(0.0);
  for (size_t i = 1; i < s.sb.size(); ++i) p += s.sb[i].v / s.sb[i].invMass;
  return p;
}

Vec3 angularMomentum(const Scene& s) {
  Vec3 l(0.0);
  for (size_t i = 1; i < s.sb.size(); ++i) {
    const SolverBody& b = s.sb[i];
    l += glm::inverse(b.invI) * b.w + glm::cross(s.center[i], b.v / b.invMass);
  }
  return l;
}

// The sums above without their cancellations (each term's length): the scale that rounding each
// body's velocities perturbs.
Real momentumScale(const Scene& s) {
  Real sum = 0.0;
  for (size_t i = 1; i < s.sb.size(); ++i) {
    const SolverBody& b = s.sb[i];
    sum += glm::length(b.v / b.invMass) + glm::length(glm::inverse(b.invI) * b.w) +
           glm::length(glm::cross(s.center[i], b.v / b.invMass));
  }
  return sum;
}

// The rows' lanes are float by default (TUMBLE_SOLVER_FLOAT): each gather rounds a body's
// velocities to float and each scatter writes the float result back, so what is exact in double
// lanes (to 1e-9) holds there to a small multiple of float's epsilon (1.2e-7) of the scale.
constexpr bool kFloatLanes = sizeof(wide::Lane) == 4;
constexpr Real kLaneEpsilon = std::numeric_limits<wide::Lane>::epsilon();

// Cdot of a joint's three point rows.
Vec3 pointVelocity(const Scene& s, const Joint& j) {
  const SolverBody& A = s.sb[j.sa];
  const SolverBody& B = s.sb[j.sb];
  return B.v + glm::cross(B.w, j.rB) - A.v - glm::cross(A.w, j.rA);
}

// The velocities the rigid point rows allow, nearest in the mass metric: v' = v + M^-1 J^T x
// with J M^-1 J^T x = -J v, by Gaussian elimination with partial pivoting.
std::vector<Vec3> projectedVelocities(const Scene& s) {
  const int n = 3 * static_cast<int>(s.joints.size());
  const int dofs = 6 * static_cast<int>(s.sb.size());
  // J as dense rows over (v, w) of every solver body.
  std::vector<std::vector<Real>> J(n, std::vector<Real>(dofs, 0.0));
  for (size_t k = 0; k < s.joints.size(); ++k) {
    const Joint& j = s.joints[k];
    for (int c = 0; c < 3; ++c) {
      Vec3 e(0.0);
      e[c] = 1.0;
      std::vector<Real>& row = J[3 * k + c];
      const Vec3 ca = glm::cross(j.rA, e), cb = glm::cross(j.rB, e);
      for (int i = 0; i < 3; ++i) {
        row[6 * j.sa + i] -= e[i];
        row[6 * j.sa + 3 + i] -= ca[i];
        row[6 * j.sb + i] += e[i];
        row[6 * j.sb + 3 + i] += cb[i];
      }
    }
  }
  auto invMassTimes = [&](const std::vector<Real>& x) {  // M^-1 x over all dofs
    std::vector<Real> y(dofs, 0.0);
    for (size_t b = 0; b < s.sb.size(); ++b) {
      const Vec3 lin(x[6 * b], x[6 * b + 1], x[6 * b + 2]);
      const Vec3 ang(x[6 * b + 3], x[6 * b + 4], x[6 * b + 5]);
      const Vec3 yl = s.sb[b].invMass * lin, ya = s.sb[b].invI * ang;
      for (int i = 0; i < 3; ++i) y[6 * b + i] = yl[i], y[6 * b + 3 + i] = ya[i];
    }
    return y;
  };
  std::vector<std::vector<Real>> MJt(n);
  for (int r = 0; r < n; ++r) MJt[r] = invMassTimes(J[r]);
  std::vector<Real> v(dofs, 0.0);
  for (size_t b = 0; b < s.sb.size(); ++b)
    for (int i = 0; i < 3; ++i) v[6 * b + i] = s.sb[b].v[i], v[6 * b + 3 + i] = s.sb[b].w[i];
  std::vector<std::vector<Real>> A(n, std::vector<Real>(n + 1, 0.0));
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c)
      for (int d = 0; d < dofs; ++d) A[r][c] += J[r][d] * MJt[c][d];
    for (int d = 0; d < dofs; ++d) A[r][n] -= J[r][d] * v[d];
  }
  for (int c = 0; c < n; ++c) {
    int best = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(A[r][c]) > std::abs(A[best][c])) best = r;
    std::swap(A[c], A[best]);
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const Real f = A[r][c] / A[c][c];
      for (int k = c; k <= n; ++k) A[r][k] -= f * A[c][k];
    }
  }
  std::vector<Real> x(n);
  for (int r = 0; r < n; ++r) x[r] = A[r][n] / A[r][r];
  for (int r = 0; r < n; ++r)
    for (int d = 0; d < dofs; ++d) v[d] += MJt[r][d] * x[r];
  std::vector<Vec3> out;
  for (size_t b = 0; b < s.sb.size(); ++b) {
    out.emplace_back(v[6 * b], v[6 * b + 1], v[6 * b + 2]);
    out.emplace_back(v[6 * b + 3], v[6 * b + 4], v[6 * b + 5]);
  }
  return out;
}

}  // namespace

TEST_CASE("wide ball rows conserve momentum and return every joint its impulse", "[joint_wide]") {
  Scene s = makeScene(40, 120, false, 7);
  // Each joint starts with its own impulse, told apart by its index.
  for (size_t k = 0; k < s.joints.size(); ++k)
    s.joints[k].linearImpulse = 0.01 * Vec3(Real(k), -Real(k) * 0.5, 1.0);
  WideBallJoints wide;
  wide.build(s.joints, s.members, s.dynamic, static_cast<int>(s.sb.size()), s.sb);
  const Vec3 p0 = linearMomentum(s), l0 = angularMomentum(s);
  const Real scale = momentumScale(s);
  const Softness soft = makeSoftness(60.0, 2.0, 1.0 / 240.0);
  wide.warmStart(s.sb);
  for (int pass = 0; pass < 4; ++pass) wide.solve(s.sb, pass % 2 == 0, soft, pass % 2 == 1);
  const Vec3 p1 = linearMomentum(s), l1 = angularMomentum(s);
  const Real linearTol = kFloatLanes ? 8.0 * kLaneEpsilon * scale : 1e-9;
  const Real angularTol = kFloatLanes ? 8.0 * kLaneEpsilon * scale : 1e-8;
  INFO("momentum scale " << scale);
  for (int i = 0; i < 3; ++i) {
    CHECK_THAT(p1[i], WithinAbs(p0[i], linearTol));
    CHECK_THAT(l1[i], WithinAbs(l0[i], angularTol));
  }
  // The passes did something: the velocities changed.
  Real change = 0.0;
  Scene fresh = makeScene(40, 120, false, 7);
  for (size_t i = 1; i < s.sb.size(); ++i) change += glm::length(s.sb[i].v - fresh.sb[i].v);
  CHECK(change > 1.0);

  // Each joint's impulse goes to a lane and comes back to the same joint.
  Scene rest = makeScene(40, 120, false, 7);
  for (size_t k = 0; k < rest.joints.size(); ++k)
    rest.joints[k].linearImpulse = Vec3(Real(k), 2.0 * Real(k), 3.0);
  WideBallJoints marks;
  marks.build(rest.joints, rest.members, rest.dynamic, static_cast<int>(rest.sb.size()), rest.sb);
  for (Joint& j : rest.joints) j.linearImpulse = Vec3(-1.0);
  marks.store(rest.joints);
  for (size_t k = 0; k < rest.joints.size(); ++k) {
    CHECK(rest.joints[k].linearImpulse.x == Real(k));
    CHECK(rest.joints[k].linearImpulse.y == 2.0 * Real(k));
  }
}

TEST_CASE("the relax passes of wide ball rows converge to the exact velocity projection",
          "[joint_wide]") {
  for (uint32_t seed : {1u, 2u, 3u}) {
    Scene s = makeScene(24, 20, true, seed);
    const std::vector<Vec3> exact = projectedVelocities(s);
    WideBallJoints wide;
    wide.build(s.joints, s.members, s.dynamic, static_cast<int>(s.sb.size()), s.sb);
    Real before = 0.0;
    for (const Joint& j : s.joints) before = std::max(before, glm::length(pointVelocity(s, j)));
    for (int pass = 0; pass < 20000; ++pass) wide.solve(s.sb, false, Softness{}, pass % 2 == 1);
    Real after = 0.0;
    for (const Joint& j : s.joints) after = std::max(after, glm::length(pointVelocity(s, j)));
    INFO("seed " << seed << ": widest point speed " << before << " -> " << after);
    CHECK(before > 0.5);
    // Float lanes converge to their rounding of the velocities (about epsilon times `before`).
    CHECK(after < (kFloatLanes ? 16.0 * kLaneEpsilon * before : 1e-9));
    const Real tol = kFloatLanes ? 16.0 * kLaneEpsilon * before : 1e-8;
    for (size_t b = 1; b < s.sb.size(); ++b)
      for (int i = 0; i < 3; ++i) {
        CHECK_THAT(s.sb[b].v[i], WithinAbs(exact[2 * b][i], tol));
        CHECK_THAT(s.sb[b].w[i], WithinAbs(exact[2 * b + 1][i], tol));
      }
  }
}
