#include "probe_tool.h"

#include <imgui.h>

#include <cstdio>

namespace tumble::demo {
namespace {

constexpr Real kProbeLength = 200.0;  // m, how far the probe reaches
constexpr glm::vec4 kRayColor{1.0f, 0.9f, 0.2f, 1.0f};
constexpr glm::vec4 kMissColor{0.6f, 0.6f, 0.6f, 0.6f};
constexpr glm::vec4 kNormalColor{0.2f, 0.9f, 0.3f, 1.0f};
constexpr glm::vec4 kOverlapColor{1.0f, 0.35f, 0.85f, 1.0f};
constexpr glm::vec3 kShapeColor{0.95f, 0.95f, 0.92f};  // white: apart from the palette
constexpr const char* kShapeNames[] = {"sphere", "box", "capsule"};

std::string format(const char* fmt, auto... args) {
  char text[192];
  std::snprintf(text, sizeof text, fmt, args...);
  return text;
}

glm::vec3 f(const Vec3& v) {
  return glm::vec3(v);
}

}  // namespace

void ProbeTool::cycleMode() {
  mode_ = static_cast<ProbeMode>((static_cast<int>(mode_) + 1) % 4);
  lines_.clear();
}

const Shape& ProbeTool::probeShape() {
  if (shapeOf_ != shapeKind_ || sizeOf_ != size_) {
    const Real r = size_;
    auto made = shapeKind_ == 1   ? makeBox(Vec3(r))
                : shapeKind_ == 2 ? makeCapsule(0.5 * r, r)
                                  : makeSphere(r);
    shape_ = made ? *made : Shape();
    shapeOf_ = shapeKind_;
    sizeOf_ = size_;
  }
  return shape_;
}

void ProbeTool::run(
    const World& world, const Ray& ray, Renderer& renderer,
    const std::function<void(const Shape&, const Transform&, const glm::vec3&)>& drawShape) {
  lines_.clear();
  if (mode_ == ProbeMode::Off) return;
  const Vec3 translation = kProbeLength * ray.direction;
  // Start a little ahead of the eye, so the line is seen.
  const Vec3 origin = ray.origin + 0.5 * ray.direction;
  const Quat identity(1.0, 0.0, 0.0, 0.0);
  if (mode_ == ProbeMode::Ray) {
    rayHits_ = world.castRayAll(origin, translation);
    const std::vector<RayCastHit>& hits = rayHits_;
    renderer.drawLine(f(origin), f(hits.empty() ? origin + translation : hits.back().point),
                      hits.empty() ? kMissColor : kRayColor);
    for (const RayCastHit& h : hits) {
      renderer.drawCross(f(h.point), 0.2f, kRayColor);
      renderer.drawLine(f(h.point), f(h.point + 0.5 * h.normal), kNormalColor);
      lines_.push_back(format("body %d  t %.4f  point (%.3f %.3f %.3f)  normal (%.2f %.2f %.2f)",
                              h.body.index, h.fraction, h.point.x, h.point.y, h.point.z, h.normal.x,
                              h.normal.y, h.normal.z));
    }
    return;
  }
  const Shape& shape = probeShape();
  if (!shape) return;
  if (mode_ == ProbeMode::ShapeCast) {
    const auto hit = world.castShape(shape, Transform{origin, identity}, translation);
    castHit_ = hit;
    if (!hit) {
      renderer.drawLine(f(origin), f(origin + translation), kMissColor);
      return;
    }
    const Vec3 at = origin + hit->fraction * translation;
    renderer.drawLine(f(origin), f(at), kRayColor);
    drawShape(shape, Transform{at, identity}, kShapeColor);
    renderer.drawCross(f(hit->point), 0.2f, kRayColor);
    renderer.drawLine(f(hit->point), f(hit->point + 0.5 * hit->normal), kNormalColor);
    lines_.push_back(format("body %d  child %d  t %.5f  (%.3f m)  %d steps", hit->body.index,
                            hit->child, hit->fraction, hit->fraction * kProbeLength,
                            hit->iterations));
    lines_.push_back(format("point (%.3f %.3f %.3f)  normal (%.2f %.2f %.2f)", hit->point.x,
                            hit->point.y, hit->point.z, hit->normal.x, hit->normal.y,
                            hit->normal.z));
    return;
  }
  // Overlap: the shape centred where the ray first hits.
  const auto first = world.castRayClosest(origin, translation);
  overlapAt_ = first;
  overlapBodies_.clear();
  if (!first) {
    renderer.drawLine(f(origin), f(origin + translation), kMissColor);
    return;
  }
  renderer.drawLine(f(origin), f(first->point), kRayColor);
  drawShape(shape, Transform{first->point, identity}, kShapeColor);
  overlapBodies_ = world.overlapShape(shape, Transform{first->point, identity});
  for (const BodyId id : overlapBodies_) {
    const BodyView b = *world.body(id);
    const Aabb box = b.shape.bounds(b.transform());
    renderer.drawBox(f(box.lower), f(box.upper), kOverlapColor);
    lines_.push_back(format("body %d  %s  at (%.2f %.2f %.2f)", id.index,
                            shapeTypeName(b.shape.type()), b.position.x, b.position.y,
                            b.position.z));
  }
}

void ProbeTool::drawPanel() {
  if (ImGui::CollapsingHeader("Probe")) {
    int mode = static_cast<int>(mode_);
    if (ImGui::Combo("probe (M)", &mode, "off\0ray\0shape cast\0overlap\0")) {
      mode_ = static_cast<ProbeMode>(mode);
      lines_.clear();
    }
    ImGui::Combo("probe shape", &shapeKind_, kShapeNames, 3);
    ImGui::SliderFloat("probe size (m)", &size_, 0.05f, 2.0f, "%.2f");
  }
  if (mode_ == ProbeMode::Off) return;
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - 470.0f, 10.0f), ImGuiCond_Once);
  ImGui::SetNextWindowSize(ImVec2(460.0f, 150.0f), ImGuiCond_Once);
  const char* titles[] = {"", "Probe: ray, all hits###probe", "Probe: shape cast###probe",
                          "Probe: overlap###probe"};
  if (ImGui::Begin(titles[static_cast<int>(mode_)])) {
    if (lines_.empty()) ImGui::TextDisabled("nothing under the mouse");
    for (const std::string& line : lines_) ImGui::TextUnformatted(line.c_str());
  }
  ImGui::End();
}

std::string ProbeTool::stateJson() const {
  std::string out = "{\"ray\": [";
  for (size_t i = 0; i < rayHits_.size(); ++i)
    out += format("%s{\"body\": %d, \"fraction\": %.17g}", i ? ", " : "", rayHits_[i].body.index,
                  rayHits_[i].fraction);
  out += "], \"cast\": ";
  out += castHit_ ? format("{\"body\": %d, \"fraction\": %.17g}", castHit_->body.index,
                           castHit_->fraction)
                  : std::string("null");
  out += ", \"overlap\": ";
  if (overlapAt_) {
    out += format("{\"at_body\": %d, \"bodies\": [", overlapAt_->body.index);
    for (size_t i = 0; i < overlapBodies_.size(); ++i)
      out += format("%s%d", i ? ", " : "", overlapBodies_[i].index);
    out += "]}";
  } else {
    out += "null";
  }
  return out + "}";
}

}  // namespace tumble::demo
