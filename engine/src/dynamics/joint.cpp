// Joint definitions: validation (errors name the field), storage in body frames, views.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "dynamics/joint_solver.h"

namespace tumble {
namespace {

std::string num(Real v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

constexpr Real kMaxLength = 1e9;   // m (and rad, m/s, rad/s)
constexpr Real kMaxEffort = 1e12;  // N, N m
constexpr Real kMaxRate = 1e6;     // Hz, damping ratio

Real maxAbs(const Vec3& v) {
  return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)});
}

struct Check {
  std::string error;
  void fail(const std::string& field, const std::string& what) {
    if (error.empty()) error = field + ": " + what;
  }
  void finite(const char* field, Real v) {
    if (!std::isfinite(v)) fail(field, "expected a finite number, got " + num(v));
  }
  // Positions within 1e9 m (and speeds, efforts, rates within the bounds below) keep every row's
  // products finite: the solver runs with floating-point traps on in the tests and fuzzers.
  void finite(const char* field, const Vec3& v) {
    if (!isFinite(v) || std::abs(v.x) > kMaxLength || std::abs(v.y) > kMaxLength ||
        std::abs(v.z) > kMaxLength)
      fail(field, "expected finite coordinates within 1e+09 m");
  }
  void axis(const char* field, const Vec3& v) {
    if (!isFinite(v)) fail(field, "expected finite coordinates");
    if (error.empty() && !(maxAbs(v) > 1e-12)) fail(field, "zero vector (expected a direction)");
  }
  void limits(const char* field, const JointLimits& l) {
    if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || std::abs(l.lower) > kMaxLength ||
        std::abs(l.upper) > kMaxLength)
      fail(field, "expected finite lower and upper within 1e+09");
    else if (l.lower > l.upper)
      fail(field, "lower " + num(l.lower) + " > upper " + num(l.upper));
  }
  void motor(const char* field, const JointMotor& m) {
    if (!std::isfinite(m.speed) || std::abs(m.speed) > kMaxLength)
      fail(std::string(field) + ".speed", "expected a finite number within 1e+09");
    if (!std::isfinite(m.maxEffort) || m.maxEffort < 0.0 || m.maxEffort > kMaxEffort)
      fail(std::string(field) + ".maxEffort",
           "expected a number in [0, 1e+12], got " + num(m.maxEffort));
  }
  void spring(const char* field, JointType type, const JointSpring& s) {
    const std::string e = springError(type, s);
    if (!e.empty() && error.empty()) error = std::string(field) + "." + e;
  }
};

// A rotation taking x to unit `axis` (deterministic basis).
Quat frameFor(const Vec3& axis) {
  const Vec3 a = glm::normalize(axis / maxAbs(axis));  // scaled first: no overflow, no underflow
  const Vec3 p1 = std::abs(a.x) >= 0.57735 ? glm::normalize(Vec3(a.y, -a.x, 0.0))
                                           : glm::normalize(Vec3(0.0, a.z, -a.y));
  const Vec3 p2 = glm::cross(a, p1);
  return glm::normalize(glm::quat_cast(Mat3(a, p1, p2)));
}

bool bodyAlive(BodyId id, const std::vector<Body>& bodies) {
  return id.index >= 0 && id.index < static_cast<int>(bodies.size()) && bodies[id.index].alive &&
         bodies[id.index].generation == id.generation;
}

}  // namespace

std::string springError(JointType type, const JointSpring& s) {
  if (!std::isfinite(s.hertz) || s.hertz < 0.0 || (s.enabled && s.hertz == 0.0) ||
      s.hertz > kMaxRate)
    return "hertz: expected a number " + std::string(s.enabled ? "> 0" : ">= 0") +
           " and <= 1e+06, got " + num(s.hertz);
  if (!std::isfinite(s.dampingRatio) || s.dampingRatio < 0.0 || s.dampingRatio > kMaxRate)
    return "dampingRatio: expected a number in [0, 1e+06], got " + num(s.dampingRatio);
  if (type == JointType::Hinge && !(std::abs(s.target) <= std::numbers::pi))
    return "target: expected an angle in [-pi, pi] (rad), got " + num(s.target);
  if (type == JointType::Slider && !(std::abs(s.target) <= kMaxLength))
    return "target: expected a translation within 1e+09 (m), got " + num(s.target);
  if (type != JointType::Hinge && type != JointType::Slider && s.target != 0.0)
    return "target: expected 0 (a " + std::string(toString(type)) +
           " joint's spring pulls to its rest length), got " + num(s.target);
  return {};
}

const char* toString(JointType type) {
  switch (type) {
    case JointType::Ball:
      return "ball";
    case JointType::Hinge:
      return "hinge";
    case JointType::Slider:
      return "slider";
    case JointType::Distance:
      return "distance";
    case JointType::Fixed:
      return "fixed";
    case JointType::SwingTwist:
      return "swing_twist";
  }
  return "?";
}

Expected<JointId> JointSet::create(const JointDef& def, const std::vector<Body>& bodies) {
  const JointBase& base = std::visit([](const auto& d) -> const JointBase& { return d; }, def);
  Check c;
  if (base.a.valid() && !bodyAlive(base.a, bodies))
    c.fail("a", "body {index " + std::to_string(base.a.index) + "} is not alive");
  if (base.b.valid() && !bodyAlive(base.b, bodies))
    c.fail("b", "body {index " + std::to_string(base.b.index) + "} is not alive");
  if (!base.a.valid() && !base.b.valid()) c.fail("b", "a and b are both the static world");
  if (base.a.valid() && base.a == base.b) c.fail("b", "the same body as a");
  if (std::isnan(base.breakForce) || !(base.breakForce > 0.0))
    c.fail("breakForce", "expected a number > 0 (N), got " + num(base.breakForce));

  Joint j;
  j.a = base.a.valid() ? base.a.index : -1;
  j.b = base.b.valid() ? base.b.index : -1;
  j.collideConnected = base.collideConnected;
  j.breakForce = base.breakForce;
  Vec3 anchorA(0.0), anchorB(0.0), axis(1.0, 0.0, 0.0);
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, BallJointDef>) {
          j.type = JointType::Ball;
          c.finite("anchor", d.anchor);
          anchorA = anchorB = d.anchor;
        } else if constexpr (std::is_same_v<T, HingeJointDef> ||
                             std::is_same_v<T, SliderJointDef>) {
          j.type = std::is_same_v<T, HingeJointDef> ? JointType::Hinge : JointType::Slider;
          c.finite("anchor", d.anchor);
          c.axis("axis", d.axis);
          c.limits("limits", d.limits);
          c.motor("motor", d.motor);
          c.spring("spring", j.type, d.spring);
          anchorA = anchorB = d.anchor;
          axis = d.axis;
          j.limits = d.limits;
          j.motor = d.motor;
          j.spring = d.spring;
        } else if constexpr (std::is_same_v<T, DistanceJointDef>) {
          j.type = JointType::Distance;
          c.finite("anchorA", d.anchorA);
          c.finite("anchorB", d.anchorB);
          c.spring("spring", j.type, d.spring);
          anchorA = d.anchorA;
          anchorB = d.anchorB;
          const Real now = c.error.empty() ? glm::length(anchorB - anchorA) : 0.0;
          j.minLength = d.minLength.value_or(now);
          j.maxLength = d.maxLength.value_or(now);
          if (!std::isfinite(j.minLength) || j.minLength < 0.0 || j.minLength > kMaxLength)
            c.fail("minLength", "expected a number in [0, 1e+09] (m), got " + num(j.minLength));
          if (std::isnan(j.maxLength) || j.maxLength < 0.0 ||
              (std::isfinite(j.maxLength) && j.maxLength > kMaxLength))
            c.fail("maxLength",
                   "expected a number in [0, 1e+09] (m) or infinity, got " + num(j.maxLength));
          if (c.error.empty() && j.minLength > j.maxLength)
            c.fail("minLength", num(j.minLength) + " > maxLength " + num(j.maxLength));
          j.restLength = std::clamp(now, j.minLength, std::max(j.minLength, j.maxLength));
          j.spring = d.spring;
          j.limits = {true, j.minLength, j.maxLength};
        } else if constexpr (std::is_same_v<T, FixedJointDef>) {
          j.type = JointType::Fixed;
          // The anchor is the centres' average weighted by inverse mass (the one body's centre
          // when the other is the world or static): at the lighter body. A soft row's give
          // grows with the lighter body's lever arm over its inertia: half-way between the car's
          // 300 kg chassis and an 8 kg hub (a 6 cm sphere) the rear hubs sagged 15-19 cm under
          // the car's weight; at the hub's centre its arm is 1/38 of the way.
          const bool hasA = bodyAlive(base.a, bodies), hasB = bodyAlive(base.b, bodies);
          const Real wA = hasA ? bodies[base.a.index].invMass : 0.0;
          const Real wB = hasB ? bodies[base.b.index].invMass : 0.0;
          if (wA + wB > 0.0)
            anchorA = (hasA ? wA * bodies[base.a.index].center : Vec3(0.0)) / (wA + wB) +
                      (hasB ? wB * bodies[base.b.index].center : Vec3(0.0)) / (wA + wB);
          else if (hasA || hasB)
            anchorA = bodies[(hasA ? base.a : base.b).index].center;
          anchorB = anchorA;
        } else {
          j.type = JointType::SwingTwist;
          c.finite("anchor", d.anchor);
          c.axis("axis", d.axis);
          if (!std::isfinite(d.swing) || d.swing < 0.0 || d.swing > std::numbers::pi)
            c.fail("swing", "expected a number in [0, pi] (rad), got " + num(d.swing));
          c.limits("twist", {true, d.twistLower, d.twistUpper});
          if (!std::isfinite(d.friction) || d.friction < 0.0 || d.friction > 1e12)
            c.fail("friction", "expected a number in [0, 1e+12] (N m), got " + num(d.friction));
          anchorA = anchorB = d.anchor;
          axis = d.axis;
          j.swing = d.swing;
          j.friction = d.friction;
          j.limits = {true, d.twistLower, d.twistUpper};
        }
      },
      def);
  if (!c.error.empty()) return Expected<JointId>::failure("JointDef." + c.error);

  const Quat frame = j.type == JointType::Fixed ? Quat(1.0, 0.0, 0.0, 0.0) : frameFor(axis);
  // Anchor and frame in a body's frame (its centre and rotation); the world's are the world's.
  auto toLocal = [&](int body, const Vec3& anchor, Vec3& localAnchor, Quat& localFrame) {
    if (body < 0) {
      localAnchor = anchor;
      localFrame = frame;
      return;
    }
    const Body& bd = bodies[body];
    localAnchor = glm::conjugate(bd.rotation) * (anchor - bd.center);
    localFrame = glm::conjugate(bd.rotation) * frame;
  };
  toLocal(j.a, anchorA, j.localAnchorA, j.frameA);
  toLocal(j.b, anchorB, j.localAnchorB, j.frameB);
  JointId id;
  if (!freeSlots_.empty()) {
    id.index = freeSlots_.back();
    freeSlots_.pop_back();
    id.generation = joints_[id.index].generation;
  } else {
    id.index = static_cast<int>(joints_.size());
    joints_.emplace_back();
  }
  j.alive = true;
  j.generation = id.generation;
  joints_[id.index] = j;
  ++live_;
  filterDirty_ = true;
  return id;
}

bool JointSet::isAlive(JointId id) const {
  return id.index >= 0 && id.index < static_cast<int>(joints_.size()) && joints_[id.index].alive &&
         joints_[id.index].generation == id.generation;
}

void JointSet::destroy(int index) {
  Joint& j = joints_[index];
  if (!j.alive) return;
  const uint32_t generation = j.generation + 1;
  j = Joint{};
  j.generation = generation;
  freeSlots_.push_back(index);
  --live_;
  filterDirty_ = true;
}

bool JointSet::keepsApart(int a, int b) const {
  if (filterDirty_) {
    // Called for every candidate pair of every step: a body's few partners, found in a row of
    // their own, instead of a binary search over all pairs.
    filterDirty_ = false;
    std::vector<std::pair<int, int>> pairs;
    for (const Joint& j : joints_)
      if (j.alive && !j.collideConnected && j.a >= 0 && j.b >= 0)
        pairs.emplace_back(std::min(j.a, j.b), std::max(j.a, j.b));
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    const int rows = pairs.empty() ? 0 : pairs.back().first + 1;
    noCollideStart_.assign(static_cast<size_t>(rows) + 1, 0);
    for (const auto& p : pairs) ++noCollideStart_[static_cast<size_t>(p.first) + 1];
    for (int r = 0; r < rows; ++r) noCollideStart_[r + 1] += noCollideStart_[r];
    noCollide_.clear();
    for (const auto& p : pairs) noCollide_.push_back(p.second);
  }
  if (a < 0 || a + 1 >= static_cast<int>(noCollideStart_.size())) return false;
  for (int k = noCollideStart_[a], end = noCollideStart_[a + 1]; k < end; ++k)
    if (noCollide_[k] >= b) return noCollide_[k] == b;
  return false;
}

JointView JointSet::view(int index, const std::vector<Body>& bodies) const {
  const Joint& j = joints_[index];
  JointView v;
  v.id = {index, j.generation};
  v.type = j.type;
  if (j.a >= 0) v.a = {j.a, bodies[j.a].generation};
  if (j.b >= 0) v.b = {j.b, bodies[j.b].generation};
  v.collideConnected = j.collideConnected;
  v.breakForce = j.breakForce;
  const Quat qA = j.a >= 0 ? bodies[j.a].rotation : Quat(1.0, 0.0, 0.0, 0.0);
  const Quat qB = j.b >= 0 ? bodies[j.b].rotation : Quat(1.0, 0.0, 0.0, 0.0);
  const Vec3 cA = j.a >= 0 ? bodies[j.a].center : Vec3(0.0);
  const Vec3 cB = j.b >= 0 ? bodies[j.b].center : Vec3(0.0);
  v.anchorA = cA + qA * j.localAnchorA;
  v.anchorB = cB + qB * j.localAnchorB;
  const Quat fA = qA * j.frameA, fB = qB * j.frameB;
  const Vec3 axis = fA * Vec3(1.0, 0.0, 0.0);
  switch (j.type) {
    case JointType::Hinge:
    case JointType::SwingTwist: {
      Quat r = glm::conjugate(fA) * fB;
      if (r.w < 0.0) r = -r;
      v.position = 2.0 * std::atan2(r.x, r.w);
      v.axis = axis;
      break;
    }
    case JointType::Slider:
      v.position = glm::dot(axis, v.anchorB - v.anchorA);
      v.axis = axis;
      break;
    case JointType::Distance:
      v.position = glm::length(v.anchorB - v.anchorA);
      break;
    default:
      break;
  }
  v.reactionForce = j.reactionForce;
  v.reactionTorque = j.reactionTorque;
  v.motor = j.motor;
  v.limits = j.limits;
  v.spring = j.spring;
  return v;
}

}  // namespace tumble
