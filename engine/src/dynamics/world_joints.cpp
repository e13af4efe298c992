// The World's joint calls and its joint hooks in the step (world.cpp calls them): joints wake
// what they connect, keep their bodies in one island, filter their bodies' pairs and break.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/prefetch.h"
#include "dynamics/joint_solver.h"
#include "tumble/assert.h"
#include "tumble/debug_draw.h"
#include "tumble/world.h"

namespace tumble {
namespace {

std::string staleMessage(JointId id) {
  char message[120];
  std::snprintf(message, sizeof message, "JointId {index %d, generation %u} is not alive", id.index,
                id.generation);
  return message;
}

bool reportStaleJoint(JointId id, const char* call) {
  reportAssert("isAlive(id)", ("World::" + std::string(call) + ": " + staleMessage(id)).c_str(),
               __FILE__, __LINE__);
  return false;
}

}  // namespace

Expected<JointId> World::createJoint(const JointDef& def) {
  ++edits_;
  Expected<JointId> id = joints_->create(def, bodies_);
  if (!id) return id;
  const Joint& j = joints_->joints()[id->index];
  if (j.a >= 0) wakeBody(j.a);
  if (j.b >= 0) wakeBody(j.b);
  return id;
}

bool World::isAlive(JointId joint) const {
  return joints_->isAlive(joint);
}

void World::destroyJoint(JointId id) {
  ++edits_;
  if (!isAlive(id) && !reportStaleJoint(id, "destroyJoint")) return;
  const Joint& j = joints_->joints()[id.index];
  if (j.a >= 0) wakeBody(j.a);
  if (j.b >= 0) wakeBody(j.b);
  joints_->destroy(id.index);
}

Expected<JointView> World::joint(JointId id) const {
  if (!isAlive(id)) return Expected<JointView>::failure(staleMessage(id));
  return joints_->view(id.index, bodies_);
}

std::vector<JointId> World::jointIds() const {
  std::vector<JointId> ids;
  const std::vector<Joint>& js = joints_->joints();
  for (int i = 0; i < static_cast<int>(js.size()); ++i)
    if (js[i].alive) ids.push_back({i, js[i].generation});
  return ids;
}

int World::jointCount() const {
  return joints_->count();
}

namespace {

Expected<void> fieldError(const char* field, const std::string& what) {
  return Expected<void>::failure(std::string(field) + ": " + what);
}

bool hasAxial(JointType t) {
  return t == JointType::Hinge || t == JointType::Slider;
}

}  // namespace

Expected<void> World::setJointMotor(JointId id, const JointMotor& motor) {
  ++edits_;
  if (!isAlive(id)) return Expected<void>::failure(staleMessage(id));
  Joint& j = joints_->joints()[id.index];
  if (!hasAxial(j.type))
    return fieldError("motor", std::string("a ") + toString(j.type) + " joint has no motor");
  if (!std::isfinite(motor.speed) || std::abs(motor.speed) > 1e9)
    return fieldError("motor.speed", "expected a finite number within 1e+09");
  if (!std::isfinite(motor.maxEffort) || motor.maxEffort < 0.0 || motor.maxEffort > 1e12)
    return fieldError("motor.maxEffort", "expected a number in [0, 1e+12]");
  j.motor = motor;
  // A row switched off leaves no impulse behind: the warm start would apply it in every substep
  // with nothing to solve it again (a hinge's motor let go held its bar level for ever).
  if (!motor.enabled) j.axial.motor = 0.0;
  if (j.a >= 0) wakeBody(j.a);
  if (j.b >= 0) wakeBody(j.b);
  return ok();
}

Expected<void> World::setJointLimits(JointId id, const JointLimits& limits) {
  ++edits_;
  if (!isAlive(id)) return Expected<void>::failure(staleMessage(id));
  Joint& j = joints_->joints()[id.index];
  if (j.type == JointType::Ball || j.type == JointType::Fixed)
    return fieldError("limits", std::string("a ") + toString(j.type) + " joint has no limits");
  if (!std::isfinite(limits.lower) || std::isnan(limits.upper) || std::abs(limits.lower) > 1e9 ||
      (std::isfinite(limits.upper) && std::abs(limits.upper) > 1e9) ||
      (std::isinf(limits.upper) && j.type != JointType::Distance))
    return fieldError("limits", "expected finite lower and upper within 1e+09");
  if (limits.lower > limits.upper) return fieldError("limits", "lower > upper");
  j.limits = limits;
  if (j.type == JointType::Distance) {
    j.minLength = limits.lower, j.maxLength = limits.upper;
    j.limits.enabled = true;
    if (limits.lower < 0.0) return fieldError("limits.lower", "expected a length >= 0");
  }
  if (j.type == JointType::SwingTwist) j.limits.enabled = true;
  if (!j.limits.enabled) j.axial.lower = j.axial.upper = 0.0;  // (as the motor's above)
  if (j.type == JointType::Distance && !std::isfinite(j.maxLength)) j.axial.upper = 0.0;
  if (j.a >= 0) wakeBody(j.a);
  if (j.b >= 0) wakeBody(j.b);
  return ok();
}

Expected<void> World::setJointSpring(JointId id, const JointSpring& spring) {
  ++edits_;
  if (!isAlive(id)) return Expected<void>::failure(staleMessage(id));
  Joint& j = joints_->joints()[id.index];
  if (!hasAxial(j.type) && j.type != JointType::Distance)
    return fieldError("spring", std::string("a ") + toString(j.type) + " joint has no spring");
  if (const std::string e = springError(j.type, spring); !e.empty())
    return Expected<void>::failure("spring." + e);
  j.spring = spring;
  // (as the motor's above; a distance joint whose bounds meet keeps its impulse there: a rod's)
  if (!spring.enabled && !(j.type == JointType::Distance && j.minLength == j.maxLength))
    j.axial.spring = 0.0;
  if (j.a >= 0) wakeBody(j.a);
  if (j.b >= 0) wakeBody(j.b);
  return ok();
}

void World::destroyJointsOf(int body) {
  std::vector<Joint>& js = joints_->joints();
  for (int i = 0; i < static_cast<int>(js.size()); ++i) {
    if (!js[i].alive || (js[i].a != body && js[i].b != body)) continue;
    const int other = js[i].a == body ? js[i].b : js[i].a;
    if (other >= 0) wakeBody(other);
    joints_->destroy(i);
  }
}

// Before the solver: a joint between an awake and a sleeping body wakes the sleeper (its island),
// and the jointed pairs of dynamic bodies are listed for the islands.
void World::wakeJointed() {
  jointLinks_.clear();
  brokenJoints_.clear();
  if (joints_->count() == 0) return;
  const std::vector<Joint>& joints = joints_->joints();
  const size_t count = joints.size();
  for (size_t k = 0; k < count; ++k) {
    // Joints are 576 bytes apart and their bodies anywhere (joint_grid: 19,701 joints, 10,000
    // bodies): a joint's first line fetched eight joints ahead, its bodies' type and flags four.
    if (k + 8 < count) detail::prefetch(&joints[k + 8]);
    if (k + 4 < count)
      for (const int i : {joints[k + 4].a, joints[k + 4].b})
        if (i >= 0) {
          detail::prefetch(&bodies_[static_cast<size_t>(i)].type);
          detail::prefetch(&bodies_[static_cast<size_t>(i)].awake);
        }
    const Joint& j = joints[k];
    if (!j.alive || j.a < 0 || j.b < 0) continue;
    const Body& A = bodies_[j.a];
    const Body& B = bodies_[j.b];
    if (A.isDynamic() && B.isDynamic()) {
      if (A.awake && !B.awake) wakeBody(j.b);
      if (B.awake && !A.awake) wakeBody(j.a);
      jointLinks_.emplace_back(j.a, j.b);
    } else if (A.type == BodyType::Kinematic && A.awake && B.isDynamic()) {
      wakeBody(j.b);
    } else if (B.type == BodyType::Kinematic && B.awake && A.isDynamic()) {
      wakeBody(j.a);
    }
  }
}

void World::breakJoints() {
  if (joints_->count() == 0) return;
  joints_->finish(brokenScratch_);
  for (int i : brokenScratch_) {
    const Joint& j = joints_->joints()[i];
    brokenJoints_.push_back({i, j.generation});
    // A broken joint's bodies start to move now: their sleep clocks start again.
    for (int k : {j.a, j.b})
      if (k >= 0) wakeBody(k), bodies_[k].sleepTime = 0.0;
    joints_->destroy(i);
  }
}

namespace {

constexpr Real kJointDrawSize = 0.3;  // m: axis half-length, limit arc and cone radius
constexpr int kArcSegments = 16;

// The arc of angles [lo, hi] about the joint frame's x axis, from its y axis (the angle 0), at
// `radius` around `centre`; with its two end spokes.
void drawArc(DebugDraw& draw, const Vec3& centre, const Quat& frame, Real lo, Real hi, Real radius,
             const Color& color) {
  const Vec3 y = frame * Vec3(0.0, 1.0, 0.0), z = frame * Vec3(0.0, 0.0, 1.0);
  auto at = [&](Real t) { return centre + radius * (std::cos(t) * y + std::sin(t) * z); };
  Vec3 prev = at(lo);
  draw.drawSegment(centre, prev, color);
  for (int k = 1; k <= kArcSegments; ++k) {
    const Vec3 next = at(lo + (hi - lo) * k / kArcSegments);
    draw.drawSegment(prev, next, color);
    prev = next;
  }
  draw.drawSegment(centre, prev, color);
}

}  // namespace

// Each joint as segments: body centres to their anchors (yellow), the anchors' gap (red), the
// axis of a hinge, slider or swing-twist (cyan, 0.3 m each way) and its limits (orange): a hinge's
// limit arc and its angle now (white spoke), a slider's limit ticks across the axis, a
// swing-twist's cone and twist arc.
void World::drawJoints(DebugDraw& draw) const {
  const std::vector<Joint>& js = joints_->joints();
  const Color arm{0.9f, 0.8f, 0.2f}, gap{1.0f, 0.2f, 0.2f}, axisColor{0.2f, 0.9f, 0.9f};
  const Color limit{1.0f, 0.55f, 0.1f}, now{1.0f, 1.0f, 1.0f};
  for (int i = 0; i < static_cast<int>(js.size()); ++i) {
    const Joint& j = js[i];
    if (!j.alive) continue;
    const JointView v = joints_->view(i, bodies_);
    if (v.a.valid()) draw.drawSegment(bodies_[v.a.index].center, v.anchorA, arm);
    if (v.b.valid()) draw.drawSegment(bodies_[v.b.index].center, v.anchorB, arm);
    draw.drawSegment(v.anchorA, v.anchorB, gap);
    if (glm::length(v.axis) == 0.0) continue;
    const Real s = kJointDrawSize;
    draw.drawSegment(v.anchorA - s * v.axis, v.anchorA + s * v.axis, axisColor);
    const Quat fA = (j.a >= 0 ? bodies_[j.a].rotation : Quat(1.0, 0.0, 0.0, 0.0)) * j.frameA;
    const Quat fB = (j.b >= 0 ? bodies_[j.b].rotation : Quat(1.0, 0.0, 0.0, 0.0)) * j.frameB;
    switch (j.type) {
      case JointType::Hinge:
        if (j.limits.enabled && j.limits.upper > j.limits.lower)
          drawArc(draw, v.anchorA, fA, j.limits.lower, j.limits.upper, s, limit);
        draw.drawSegment(v.anchorB, v.anchorB + s * (fB * Vec3(0.0, 1.0, 0.0)), now);
        break;
      case JointType::Slider:
        if (j.limits.enabled) {
          const Vec3 across = s * 0.3 * (fA * Vec3(0.0, 1.0, 0.0));
          for (Real x : {j.limits.lower, j.limits.upper}) {
            const Vec3 p = v.anchorA + x * v.axis;
            draw.drawSegment(p - across, p + across, limit);
          }
          draw.drawSegment(v.anchorA + j.limits.lower * v.axis, v.anchorA + j.limits.upper * v.axis,
                           limit);
        }
        break;
      case JointType::SwingTwist: {
        // The cone of b's axis about a's, and the twist arc at its tip; b's axis now in white.
        const Vec3 y = fA * Vec3(0.0, 1.0, 0.0), z = fA * Vec3(0.0, 0.0, 1.0);
        const Real along = s * std::cos(j.swing), out = s * std::sin(j.swing);
        Vec3 prev = v.anchorA + along * v.axis + out * y;
        for (int k = 1; k <= kArcSegments; ++k) {
          const Real t = 2.0 * 3.14159265358979323846 * k / kArcSegments;
          const Vec3 next = v.anchorA + along * v.axis + out * (std::cos(t) * y + std::sin(t) * z);
          draw.drawSegment(prev, next, limit);
          if (k % 4 == 0) draw.drawSegment(v.anchorA, next, limit);
          prev = next;
        }
        drawArc(draw, v.anchorA + s * v.axis, fA, j.limits.lower, j.limits.upper, 0.5 * s, limit);
        draw.drawSegment(v.anchorB, v.anchorB + s * (fB * Vec3(1.0, 0.0, 0.0)), now);
        break;
      }
      default:
        break;
    }
  }
}

bool World::jointFiltered(int a, int b) const {
  return joints_->keepsApart(a, b);
}

bool World::anyJoint() const {
  return joints_->count() > 0;
}

}  // namespace tumble
