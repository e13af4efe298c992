// WorldSample's tools beyond picking: the shooter's settings and the explosion tool (a radial
// impulse at the clicked point, found with World::overlapSphere), with their panel widgets and the
// blast's drawing.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <imgui.h>

#include "world_sample.h"

namespace tumble::demo {
namespace {

constexpr int kBlastFrames = 30;  // how long a blast is drawn (frames)
constexpr int kBlastSegments = 48;

}  // namespace

void WorldSample::drawToolsPanel() {
  if (!ImGui::TreeNodeEx("shooter (B) and explosion (X)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::SliderFloat("speed (m/s)", &shootSpeed_, 1.0f, 500.0f, "%.0f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("mass (kg)", &shootMass_, 0.0f, 1000.0f,
                     shootMass_ > 0.0f ? "%.3g" : "from density", ImGuiSliderFlags_Logarithmic);
  ImGui::Checkbox("bullet (swept)", &shootBullet_);
  ImGui::Checkbox("explosion tool (X)", &explodeTool_);
  ImGui::SliderFloat("radius (m)", &blastRadius_, 0.5f, 20.0f, "%.1f");
  ImGui::SliderFloat("impulse (N s)", &blastImpulse_, 10.0f, 100000.0f, "%.0f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::TreePop();
}

// Every dynamic body within the radius of `point` (by its shape: overlapSphere) is pushed away
// from the point, through its centre of mass, by blastImpulse_ times (1 - d / radius), d the
// distance from the point to the centre (a body whose centre is farther, but whose surface is
// within the radius, gets nothing; one centred on the point is pushed up).
void WorldSample::explode(const Vec3& point) {
  const Real radius = blastRadius_;
  for (const BodyId id : world_->overlapSphere(point, radius)) {
    const BodyView b = *world_->body(id);
    if (!b.isDynamic()) continue;
    const Vec3 d = b.centerOfMass - point;
    const Real distance = glm::length(d);
    const Real falloff = std::max(0.0, 1.0 - distance / radius);
    if (falloff == 0.0) continue;
    const Vec3 direction = distance > 1e-9 ? d / distance : Vec3(0.0, 1.0, 0.0);
    world_->applyLinearImpulse(id, static_cast<Real>(blastImpulse_) * falloff * direction,
                               b.centerOfMass);
  }
  blastPoint_ = point;
  blastFrames_ = kBlastFrames;
}

// Three great circles of the blast's sphere and a cross at its centre, fading out.
void WorldSample::drawBlast(SampleContext& ctx) {
  if (blastFrames_ <= 0) return;
  const float fade = static_cast<float>(blastFrames_) / kBlastFrames;
  // Growing from half the radius to the full radius as it fades.
  const float r = blastRadius_ * (1.0f - 0.5f * fade);
  const glm::vec3 c(blastPoint_);
  const glm::vec4 color(1.0f, 0.55f + 0.35f * fade, 0.1f, fade);
  for (int axis = 0; axis < 3; ++axis) {
    auto at = [&](int k) {
      const float a = 2.0f * std::numbers::pi_v<float> * static_cast<float>(k) / kBlastSegments;
      glm::vec3 p(0.0f);
      p[(axis + 1) % 3] = r * std::cos(a);
      p[(axis + 2) % 3] = r * std::sin(a);
      return c + p;
    };
    for (int k = 0; k < kBlastSegments; ++k) ctx.renderer.drawLine(at(k), at(k + 1), color);
  }
  ctx.renderer.drawCross(c, 0.3f * blastRadius_, color);
  --blastFrames_;
}

}  // namespace tumble::demo
