// The World sample's events (issue 16): the last contact and sensor events in a window, a count of
// the bodies that entered the sensors, fading markers where hits happened, sensors drawn as wire.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "world_sample.h"

namespace tumble::demo {
namespace {

constexpr size_t kEventLines = 200;  // the events window keeps the newest this many
constexpr int kMarkerFrames = 90;    // a hit marker fades over this many steps
constexpr glm::vec4 kSensorColor(1.0f, 0.85f, 0.2f, 1.0f);

glm::vec3 f(const Vec3& v) {
  return glm::vec3(v);
}

}  // namespace

void WorldSample::recordEvents() {
  const ContactEvents& c = world_->contactEvents();
  const SensorEvents& s = world_->sensorEvents();
  for (auto& m : markers_) ++m.age;
  std::erase_if(markers_, [](const HitMarker& m) { return m.age >= kMarkerFrames; });
  if (c.empty() && s.empty()) return;
  const long long step = static_cast<long long>(world_->stepCount()) - 1;
  char line[160];
  auto add = [&] { eventLog_.emplace_back(line); };
  for (const ContactBeginEvent& e : c.begin) {
    std::snprintf(line, sizeof line, "%6lld begin  %4d %4d  n (%.2f %.2f %.2f)", step, e.a.index,
                  e.b.index, e.normal.x, e.normal.y, e.normal.z);
    add();
  }
  for (const ContactEndEvent& e : c.end) {
    std::snprintf(line, sizeof line, "%6lld end    %4d %4d", step, e.a.index, e.b.index);
    add();
  }
  for (const ContactHitEvent& e : c.hit) {
    std::snprintf(line, sizeof line, "%6lld hit    %4d %4d  %.2f m/s", step, e.a.index, e.b.index,
                  e.approachSpeed);
    add();
    markers_.push_back({e.point, e.normal, e.approachSpeed, 0});
  }
  // A sensor child is named as body.child.
  auto sensorLine = [&](const SensorEvent& e, const char* verb) {
    if (e.sensorChild >= 0)
      std::snprintf(line, sizeof line, "%6lld sensor %4d.%d %s %d", step, e.sensor.index,
                    e.sensorChild, verb, e.visitor.index);
    else
      std::snprintf(line, sizeof line, "%6lld sensor %4d %s %d", step, e.sensor.index, verb,
                    e.visitor.index);
    add();
  };
  for (const SensorEvent& e : s.begin) {
    sensorLine(e, "sees");
    ++sensorEntries_;
  }
  for (const SensorEvent& e : s.end) sensorLine(e, "lost");
  while (eventLog_.size() > kEventLines) eventLog_.pop_front();
}

void WorldSample::drawEvents(SampleContext& ctx) {
  // Sensors as wire (their hull's edges, or their box): they push nothing, so they are not solid.
  auto wire = [&](const Shape& shape, const Transform& xf) {
    if (const ConvexHull* hull = shape.hull()) {
      for (const HullEdge& e : hull->edges())
        ctx.renderer.drawLine(f(xf.apply(hull->vertices()[e.a])),
                              f(xf.apply(hull->vertices()[e.b])), kSensorColor);
    } else {
      const Aabb box = shape.bounds(xf);
      ctx.renderer.drawBox(f(box.lower), f(box.upper), kSensorColor);
    }
  };
  for (const BodyId id : world_->bodyIds()) {
    const BodyView b = *world_->body(id);
    const Compound* c = b.shape.compound();
    if (b.isSensor) {
      wire(b.shape, b.transform());
    } else if (c && c->anySensor) {  // a compound's sensor children (CompoundChild::isSensor)
      for (const CompoundChild& child : c->children)
        if (child.isSensor) wire(child.shape, compose(b.transform(), child.local));
    }
  }
  // A hit: a cross at the point and the normal, as long as the speed / 10 (m), shrinking away.
  for (const HitMarker& m : markers_) {
    const float life = 1.0f - static_cast<float>(m.age) / kMarkerFrames;
    const glm::vec4 color(1.0f, 0.25f + 0.5f * (1.0f - life), 0.2f, 1.0f);
    const Real length = std::min(2.0, 0.1 * m.speed) * life;
    ctx.renderer.drawCross(f(m.point), 0.15f * life, color);
    ctx.renderer.drawLine(f(m.point), f(m.point + length * m.normal), color);
  }
}

void WorldSample::drawEventsPanel(const SampleContext& ctx) {
  if (hasSensors_) ImGui::Text("bodies into sensors: %ld", sensorEntries_);
  ImGui::Checkbox("events window", &showEvents_);
  if (!showEvents_) return;
  // At the window's right edge, clear of the panel.
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(ctx.windowWidth) - 350.0f, 10.0f),
                          ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(340, 300), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Events", &showEvents_)) {
    ImGui::Text("hit markers %zu, sensor entries %ld", markers_.size(), sensorEntries_);
    if (ImGui::Button("clear")) eventLog_.clear();
    ImGui::Separator();
    ImGui::BeginChild("event lines");
    for (auto it = eventLog_.rbegin(); it != eventLog_.rend(); ++it)
      ImGui::TextUnformatted(it->c_str());
    ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace tumble::demo
