#include "joint_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <vector>

namespace tumble::demo {
namespace {

// The joints listed one by one (ragdolls have 200, joint_grid 19,701: ball joints are not listed;
// past this many the rest is counted).
constexpr int kMaxListed = 48;
constexpr size_t kOpenUpTo = 12;
constexpr float kMaxSpeed = 50.0f;     // rad/s or m/s, slider range
constexpr float kMaxEffort = 5000.0f;  // N m or N, slider range (logarithmic)
constexpr float kMaxHertz = 30.0f;
constexpr float kMaxDamping = 5.0f;
constexpr float kAngleRange = 3.14159265f;  // rad
constexpr float kLengthRange = 5.0f;        // m

bool adjustable(JointType t) {
  return t == JointType::Hinge || t == JointType::Slider || t == JointType::Distance;
}

void keep(const Expected<void>& done, std::string& error) {
  if (!done) {
    error = done.error();
  } else {
    error.clear();
  }
}

// One joint's widgets (its values shown), applied to every joint of `targets`: the joint alone,
// or every joint of its kind (Box2D's bridge sample has one friction slider for all its joints).
// A widget changed sets its own field in each target's motor, limits or spring and leaves the
// others as that joint has them (the car's hinges keep their own speeds when the torque is set).
// Ids are scoped by the caller's PushID.
void jointWidgets(World& world, const JointView& v, const std::vector<JointId>& targets,
                  std::string& error) {
  // Each target's setter in turn, given that joint's view; the first refusal is shown.
  auto applyAll = [&](auto&& set) {
    Expected<void> first;
    for (JointId id : targets) {
      const Expected<JointView> view = world.joint(id);
      if (!view) continue;
      Expected<void> done = set(id, *view);
      if (!done && first) first = std::move(done);
    }
    keep(first, error);
  };
  const bool angular = v.type == JointType::Hinge;
  const char* unit = angular ? "rad" : "m";
  if (targets.size() == 1)
    ImGui::Text("%s now %.3f %s  reaction %.0f N", toString(v.type), v.position, unit,
                glm::length(v.reactionForce));
  if (v.type != JointType::Distance) {
    bool on = v.motor.enabled;
    float speed = static_cast<float>(v.motor.speed), effort = static_cast<float>(v.motor.maxEffort);
    const bool onChanged = ImGui::Checkbox("motor", &on);
    const bool speedChanged = ImGui::SliderFloat(angular ? "speed rad/s" : "speed m/s", &speed,
                                                 -kMaxSpeed, kMaxSpeed, "%.2f");
    const bool effortChanged = ImGui::SliderFloat(angular ? "torque N m" : "force N", &effort, 0.0f,
                                                  kMaxEffort, "%.1f", ImGuiSliderFlags_Logarithmic);
    if (onChanged || speedChanged || effortChanged)
      applyAll([&](JointId id, const JointView& j) {
        JointMotor m = j.motor;
        if (onChanged) m.enabled = on;
        if (speedChanged) m.speed = speed;
        if (effortChanged) m.maxEffort = effort;
        return world.setJointMotor(id, m);
      });
  }
  {
    const float range = angular ? kAngleRange : kLengthRange;
    bool on = v.limits.enabled;
    float lo = static_cast<float>(v.limits.lower);
    float hi = static_cast<float>(std::min(v.limits.upper, static_cast<Real>(range)));
    const bool onChanged = v.type != JointType::Distance && ImGui::Checkbox("limits", &on);
    const bool loChanged =
        ImGui::SliderFloat(v.type == JointType::Distance ? "min (m)" : "lower", &lo,
                           v.type == JointType::Distance ? 0.0f : -range, range, "%.3f");
    const bool hiChanged =
        ImGui::SliderFloat(v.type == JointType::Distance ? "max (m)" : "upper", &hi,
                           v.type == JointType::Distance ? 0.0f : -range, range, "%.3f");
    if (onChanged || loChanged || hiChanged)
      applyAll([&](JointId id, const JointView& j) {
        JointLimits l = j.limits;
        if (onChanged) l.enabled = on;
        if (loChanged) l.lower = lo;
        if (hiChanged) l.upper = hi;
        l.upper = std::max(l.lower, l.upper);
        return world.setJointLimits(id, l);
      });
  }
  bool on = v.spring.enabled;
  float hz = static_cast<float>(v.spring.hertz > 0.0 ? v.spring.hertz : 1.0);
  float damping = static_cast<float>(v.spring.dampingRatio);
  const bool onChanged = ImGui::Checkbox("spring", &on);
  const bool hzChanged = ImGui::SliderFloat("hz", &hz, 0.1f, kMaxHertz, "%.2f");
  const bool dampingChanged =
      ImGui::SliderFloat("damping ratio", &damping, 0.0f, kMaxDamping, "%.2f");
  // A hinge's or slider's spring pulls to its target (a distance joint's to its rest length).
  float target = static_cast<float>(v.spring.target);
  const float targetRange = angular ? kAngleRange : kLengthRange;
  const bool targetChanged = v.type != JointType::Distance &&
                             ImGui::SliderFloat(angular ? "target rad" : "target m", &target,
                                                -targetRange, targetRange, "%.3f");
  if (onChanged || hzChanged || dampingChanged || targetChanged)
    applyAll([&](JointId id, const JointView& j) {
      JointSpring sp = j.spring;
      if (onChanged) sp.enabled = on;
      // (a spring switched on at 0 Hz takes the slider's 1 Hz, as before)
      if (hzChanged || (onChanged && !(sp.hertz > 0.0))) sp.hertz = hz;
      if (dampingChanged) sp.dampingRatio = damping;
      // (float's pi is above double's: clamped to the setter's [-pi, pi])
      if (targetChanged)
        sp.target = angular ? std::clamp<Real>(target, -std::numbers::pi, std::numbers::pi)
                            : static_cast<Real>(target);
      return world.setJointSpring(id, sp);
    });
}

}  // namespace

void drawJointsPanel(World& world, std::string& error) {
  if (world.jointCount() == 0) return;
  int more = 0;
  std::vector<JointView> views;
  // Every adjustable joint of each kind (hinge, slider, distance), and the first one's view.
  constexpr JointType kKinds[] = {JointType::Hinge, JointType::Slider, JointType::Distance};
  std::vector<JointId> ofKind[3];
  JointView firstOfKind[3];
  for (JointId id : world.jointIds()) {
    const JointView v = *world.joint(id);
    if (!adjustable(v.type)) continue;
    const int k = v.type == JointType::Hinge ? 0 : v.type == JointType::Slider ? 1 : 2;
    if (ofKind[k].empty()) firstOfKind[k] = v;
    ofKind[k].push_back(id);
    if (static_cast<int>(views.size()) < kMaxListed) {
      views.push_back(v);
    } else {
      ++more;
    }
  }
  if (views.empty()) return;
  // Open at first where the joints are few enough to read (door, car, cradle), shut otherwise.
  const bool few = more == 0 && views.size() <= kOpenUpTo;
  if (!ImGui::CollapsingHeader("Joints", few ? ImGuiTreeNodeFlags_DefaultOpen : 0)) return;
  ImGui::TextDisabled("%d joints; motors, limits and springs of each:", world.jointCount());
  // A kind with more than one joint gets a node that sets all of them at once, showing the first
  // one's values (a bridge's 41 hinges given friction: a motor at speed 0 with a torque).
  for (int k = 0; k < 3; ++k) {
    if (ofKind[k].size() < 2) continue;
    char label[64];
    // (the id after ### stays when the count changes: a broken joint keeps the node open)
    std::snprintf(label, sizeof label, "every %s (%zu)###every", toString(kKinds[k]),
                  ofKind[k].size());
    ImGui::PushID(-1 - k);
    if (ImGui::TreeNodeEx(label, 0)) {
      jointWidgets(world, firstOfKind[k], ofKind[k], error);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  for (const JointView& v : views) {
    char label[96];
    std::snprintf(label, sizeof label, "%s %d (bodies %d, %d)", toString(v.type), v.id.index,
                  v.a.index, v.b.index);
    ImGui::PushID(v.id.index);
    if (ImGui::TreeNodeEx(label, few && views.size() <= 2 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      jointWidgets(world, v, {v.id}, error);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (more > 0) ImGui::TextDisabled("and %d more", more);
  if (!error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace tumble::demo
