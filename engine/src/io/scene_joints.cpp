// The scene files' top-level "joints" array (README, "Scene files"): one object per joint, its
// bodies by index into "bodies" (generators' bodies following in order; -1 the static world),
// anchors and axes in world coordinates. Errors name the JSON path (`joints[2].axis: ...`).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "io/scene_internal.h"

namespace tumble::scene {
namespace {

std::string shortNum(Real v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

int bodyIndex(const Json& j, const std::string& path, const char* key, int bodyCount) {
  const std::string at = path + "." + key;
  if (!j.contains(key)) fail(at, "missing (a body index into bodies, -1 for the static world)");
  const Json& v = j[key];
  if (!v.is_number_integer()) fail(at, "expected a body index (an integer), got " + typeName(v));
  const long long i = v.get<long long>();
  if (i < -1 || i >= bodyCount)
    fail(at, "body index " + std::to_string(i) + " out of range [-1, " +
                 std::to_string(bodyCount - 1) + "] (-1 is the static world)");
  return static_cast<int>(i);
}

Vec3 requiredVec3(const Json& j, const std::string& path, const char* key, const char* what) {
  if (!j.contains(key)) fail(path + "." + key, std::string("missing (") + what + ")");
  return vec3(j[key], path + "." + key);
}

Vec3 axis(const Json& j, const std::string& path) {
  const Vec3 a = requiredVec3(j, path, "axis", "[x, y, z], a direction in world coordinates");
  if (!(std::max({std::abs(a.x), std::abs(a.y), std::abs(a.z)}) > 1e-12))
    fail(path + ".axis", "zero vector (expected a direction)");
  return a;
}

// [lo, hi] with lo <= hi.
std::pair<Real, Real> range(const Json& j, const std::string& at) {
  if (!j.is_array() || j.size() != 2) fail(at, "expected [lo, hi], got " + typeName(j));
  const Real lo = number(j[0], at + "[0]"), hi = number(j[1], at + "[1]");
  if (lo > hi) fail(at, "lower " + shortNum(lo) + " > upper " + shortNum(hi));
  return {lo, hi};
}

JointLimits limits(const Json& j, const std::string& path) {
  if (!j.contains("limits")) return {};
  const auto [lo, hi] = range(j["limits"], path + ".limits");
  return {true, lo, hi};
}

JointMotor motor(const Json& j, const std::string& path, const char* effortKey) {
  if (!j.contains("motor")) return {};
  const std::string at = path + ".motor";
  const Json& m = object(j["motor"], at);
  checkKeys(m, at, {"speed", effortKey});
  JointMotor out{true, numberOr(m, at, "speed", 0.0), 0.0};
  const std::string effortAt = at + "." + effortKey;
  if (!m.contains(effortKey)) fail(effortAt, "missing (a number >= 0)");
  out.maxEffort = number(m[effortKey], effortAt);
  if (out.maxEffort < 0.0) fail(effortAt, "expected a number >= 0, got " + shortNum(out.maxEffort));
  return out;
}

// A joint's "spring": {"hz", "damping"}, and for a hinge or slider "target" (the angle in rad
// or the translation in m it pulls to; 0 by default). A distance joint's spring pulls to its
// rest length and takes no target.
JointSpring spring(const Json& j, const std::string& path, JointType type) {
  if (!j.contains("spring")) return {};
  const std::string at = path + ".spring";
  const Json& s = object(j["spring"], at);
  const bool axial = type == JointType::Hinge || type == JointType::Slider;
  if (axial)
    checkKeys(s, at, {"hz", "damping", "target"});
  else
    checkKeys(s, at, {"hz", "damping"});
  if (!s.contains("hz")) fail(at + ".hz", "missing (a frequency > 0, Hz)");
  JointSpring out{true, number(s["hz"], at + ".hz"), numberOr(s, at, "damping", 0.0)};
  if (!(out.hertz > 0.0))
    fail(at + ".hz", "expected a number > 0 (Hz), got " + shortNum(out.hertz));
  if (out.dampingRatio < 0.0)
    fail(at + ".damping", "expected a number >= 0, got " + shortNum(out.dampingRatio));
  if (axial && s.contains("target")) {
    out.target = number(s["target"], at + ".target");
    // (a slider's bound, 1e9 m as its limits' and speeds', is createJoint's to check)
    if (type == JointType::Hinge && !(std::abs(out.target) <= std::numbers::pi))
      fail(at + ".target", "expected an angle in [-pi, pi] (rad), got " + shortNum(out.target));
  }
  return out;
}

SceneJoint readJoint(const Json& j, const std::string& path, int bodyCount) {
  object(j, path);
  if (!j.contains("type"))
    fail(path + ".type", "missing (ball, hinge, slider, distance, fixed or swing_twist)");
  const std::string type = string(j["type"], path + ".type");
  SceneJoint out;
  JointBase base;
  if (j.contains("collide")) base.collideConnected = boolean(j["collide"], path + ".collide");
  if (j.contains("break_force")) {
    base.breakForce = number(j["break_force"], path + ".break_force");
    if (!(base.breakForce > 0.0))
      fail(path + ".break_force", "expected a number > 0 (N), got " + shortNum(base.breakForce));
  }
  auto common = [&](std::initializer_list<const char*> keys) {
    // checkKeys takes one list: the common keys are repeated by each kind below.
    checkKeys(j, path, keys);
    out.a = bodyIndex(j, path, "a", bodyCount);
    out.b = bodyIndex(j, path, "b", bodyCount);
    if (out.a == out.b)
      fail(path + ".b", out.a < 0 ? "a and b are both the static world (-1)"
                                  : "the same body as a (a body cannot be joined to itself)");
  };
  const char* anchorWhat = "[x, y, z], world coordinates";
  if (type == "ball") {
    common({"type", "a", "b", "collide", "break_force", "anchor"});
    BallJointDef d;
    static_cast<JointBase&>(d) = base;
    d.anchor = requiredVec3(j, path, "anchor", anchorWhat);
    out.def = d;
  } else if (type == "hinge" || type == "slider") {
    // One free coordinate along an axis, with limits, a motor and a spring: a hinge's motor
    // takes a torque, a slider's a force.
    common({"type", "a", "b", "collide", "break_force", "anchor", "axis", "limits", "motor",
            "spring"});
    auto axial = [&](auto d, const char* effortKey) {
      static_cast<JointBase&>(d) = base;
      d.anchor = requiredVec3(j, path, "anchor", anchorWhat);
      d.axis = axis(j, path);
      d.limits = limits(j, path);
      d.motor = motor(j, path, effortKey);
      d.spring = spring(j, path, type == "hinge" ? JointType::Hinge : JointType::Slider);
      out.def = d;
    };
    if (type == "hinge")
      axial(HingeJointDef{}, "max_torque");
    else
      axial(SliderJointDef{}, "max_force");
  } else if (type == "distance") {
    common({"type", "a", "b", "collide", "break_force", "anchor_a", "anchor_b", "min", "max",
            "spring"});
    DistanceJointDef d;
    static_cast<JointBase&>(d) = base;
    d.anchorA = requiredVec3(j, path, "anchor_a", anchorWhat);
    d.anchorB = requiredVec3(j, path, "anchor_b", anchorWhat);
    const Real now = glm::length(d.anchorB - d.anchorA);
    if (j.contains("min")) {
      d.minLength = number(j["min"], path + ".min");
      if (*d.minLength < 0.0)
        fail(path + ".min", "expected a length >= 0 (m), got " + shortNum(*d.minLength));
    }
    if (j.contains("max")) {
      d.maxLength = number(j["max"], path + ".max");
      if (*d.maxLength < 0.0)
        fail(path + ".max", "expected a length >= 0 (m), got " + shortNum(*d.maxLength));
    }
    if (d.minLength.value_or(now) > d.maxLength.value_or(now))
      fail(path + ".min",
           shortNum(d.minLength.value_or(now)) + " > max " + shortNum(d.maxLength.value_or(now)));
    d.spring = spring(j, path, JointType::Distance);
    out.def = d;
  } else if (type == "fixed") {
    common({"type", "a", "b", "collide", "break_force"});
    FixedJointDef d;
    static_cast<JointBase&>(d) = base;
    out.def = d;
  } else if (type == "swing_twist") {
    common({"type", "a", "b", "collide", "break_force", "anchor", "axis", "swing", "twist",
            "friction"});
    SwingTwistJointDef d;
    static_cast<JointBase&>(d) = base;
    d.anchor = requiredVec3(j, path, "anchor", anchorWhat);
    d.axis = axis(j, path);
    if (j.contains("swing")) {
      d.swing = number(j["swing"], path + ".swing");
      if (d.swing < 0.0 || d.swing > std::numbers::pi)
        fail(path + ".swing", "expected an angle in [0, pi] (rad), got " + shortNum(d.swing));
    }
    if (j.contains("twist")) {
      const auto [lo, hi] = range(j["twist"], path + ".twist");
      d.twistLower = lo;
      d.twistUpper = hi;
    }
    if (j.contains("friction")) {
      d.friction = number(j["friction"], path + ".friction");
      if (d.friction < 0.0 || d.friction > 1e12)
        fail(path + ".friction",
             "expected a torque in [0, 1e+12] (N m), got " + shortNum(d.friction));
    }
    out.def = d;
  } else {
    fail(path + ".type", "unknown joint type \"" + type +
                             "\" (expected ball, hinge, slider, distance, fixed or swing_twist)");
  }
  return out;
}

}  // namespace

std::vector<SceneJoint> readJoints(const Json& j, int bodyCount) {
  if (!j.is_array()) fail("joints", "expected an array, got " + typeName(j));
  std::vector<SceneJoint> out;
  for (size_t i = 0; i < j.size(); ++i)
    out.push_back(readJoint(j[i], "joints[" + std::to_string(i) + "]", bodyCount));
  return out;
}

}  // namespace tumble::scene
