#include "joint_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
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

void keep(Expected<void> done, std::string& error) {
  if (!done) {
    error = done.error();
  } else {
    error.clear();
  }
}

// One joint's widgets; ids are scoped by the caller's PushID.
void jointWidgets(World& world, const JointView& v, std::string& error) {
  const bool angular = v.type == JointType::Hinge;
  const char* unit = angular ? "rad" : "m";
  ImGui::Text("%s now %.3f %s  reaction %.0f N", toString(v.type), v.position, unit,
              glm::length(v.reactionForce));
  if (v.type != JointType::Distance) {
    JointMotor m = v.motor;
    bool changed = ImGui::Checkbox("motor", &m.enabled);
    float speed = static_cast<float>(m.speed), effort = static_cast<float>(m.maxEffort);
    changed |= ImGui::SliderFloat(angular ? "speed rad/s" : "speed m/s", &speed, -kMaxSpeed,
                                  kMaxSpeed, "%.2f");
    changed |= ImGui::SliderFloat(angular ? "torque N m" : "force N", &effort, 0.0f, kMaxEffort,
                                  "%.1f", ImGuiSliderFlags_Logarithmic);
    if (changed) {
      m.speed = speed;
      m.maxEffort = effort;
      keep(world.setJointMotor(v.id, m), error);
    }
  }
  {
    JointLimits l = v.limits;
    const float range = angular ? kAngleRange : kLengthRange;
    bool changed = v.type != JointType::Distance && ImGui::Checkbox("limits", &l.enabled);
    float lo = static_cast<float>(l.lower);
    float hi = static_cast<float>(std::min(l.upper, static_cast<Real>(range)));
    changed |= ImGui::SliderFloat(v.type == JointType::Distance ? "min (m)" : "lower", &lo,
                                  v.type == JointType::Distance ? 0.0f : -range, range, "%.3f");
    changed |= ImGui::SliderFloat(v.type == JointType::Distance ? "max (m)" : "upper", &hi,
                                  v.type == JointType::Distance ? 0.0f : -range, range, "%.3f");
    if (changed) {
      l.lower = lo;
      l.upper = std::max(lo, hi);
      keep(world.setJointLimits(v.id, l), error);
    }
  }
  JointSpring s = v.spring;
  bool changed = ImGui::Checkbox("spring", &s.enabled);
  float hz = static_cast<float>(s.hertz > 0.0 ? s.hertz : 1.0);
  float damping = static_cast<float>(s.dampingRatio);
  changed |= ImGui::SliderFloat("hz", &hz, 0.1f, kMaxHertz, "%.2f");
  changed |= ImGui::SliderFloat("damping ratio", &damping, 0.0f, kMaxDamping, "%.2f");
  if (changed) {
    s.hertz = hz;
    s.dampingRatio = damping;
    keep(world.setJointSpring(v.id, s), error);
  }
}

}  // namespace

void drawJointsPanel(World& world, std::string& error) {
  if (world.jointCount() == 0) return;
  int more = 0;
  std::vector<JointView> views;
  for (JointId id : world.jointIds()) {
    const JointView v = *world.joint(id);
    if (!adjustable(v.type)) continue;
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
  for (const JointView& v : views) {
    char label[96];
    std::snprintf(label, sizeof label, "%s %d (bodies %d, %d)", toString(v.type), v.id.index,
                  v.a.index, v.b.index);
    ImGui::PushID(v.id.index);
    if (ImGui::TreeNodeEx(label, few && views.size() <= 2 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      jointWidgets(world, v, error);
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
