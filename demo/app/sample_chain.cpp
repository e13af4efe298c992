// The chain scene (issue 5): a polygonal chain of capsules folded live at its joints, never
// passing through itself (tumble/chain.h). Click a joint to select it and drag to fold about the
// view axis through it; keys fold about a chosen axis, append and remove segments. Segments in
// contact (gap <= chain.tolerance * r, the page's c[i] flags) are highlighted.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include <SDL.h>
#include <imgui.h>
#include <glm/gtx/quaternion.hpp>

#include "hull_mesh.h"
#include "samples.h"
#include "tumble/chain.h"
#include "tumble/hull.h"

namespace tumble::demo {
namespace {

constexpr Real kRadius = 0.12;
constexpr Real kSegmentLength = 1.0;
constexpr int kSegments = 24;
constexpr Real kSmallStep = 5.0 * M_PI / 180.0;
constexpr Real kLargeStep = 45.0 * M_PI / 180.0;
constexpr Real kMinLever = 0.4;  // m, least distance from the joint for a mouse fold

// A capsule along +x from 0 to `length`: the hull of two hemispheres of rings.
std::vector<Vec3> capsulePoints(Real length, Real radius) {
  std::vector<Vec3> pts;
  const int rings = 6, around = 16;
  for (int end = 0; end < 2; ++end) {
    const Real cx = end ? length : 0.0, sx = end ? 1.0 : -1.0;
    for (int i = 0; i <= rings; ++i) {
      const Real polar = 0.5 * M_PI * i / rings;  // 0 at the equator, pi/2 at the pole
      const Real x = cx + sx * radius * std::sin(polar), ring = radius * std::cos(polar);
      if (i == rings) {
        pts.push_back(Vec3(x, 0, 0));
        continue;
      }
      for (int k = 0; k < around; ++k) {
        const Real a = 2.0 * M_PI * k / around;
        pts.push_back(Vec3(x, ring * std::cos(a), ring * std::sin(a)));
      }
    }
  }
  return pts;
}

std::vector<Vec3> spherePoints(Real radius) {
  std::vector<Vec3> pts;
  for (int i = 0; i <= 8; ++i) {
    const Real polar = M_PI * i / 8;
    for (int k = 0; k < 16; ++k) {
      const Real a = 2.0 * M_PI * k / 16;
      pts.push_back(radius * Vec3(std::sin(polar) * std::cos(a), std::cos(polar),
                                  std::sin(polar) * std::sin(a)));
    }
  }
  return pts;
}

class ChainSample final : public Sample {
 public:
  Expected<void> create(SampleContext& ctx) override {
    auto capsule = ConvexHull::build(capsulePoints(kSegmentLength, kRadius));
    if (!capsule) return Expected<void>::failure("chain capsule mesh: " + capsule.error());
    auto sphere = ConvexHull::build(spherePoints(1.6 * kRadius));
    if (!sphere) return Expected<void>::failure("chain joint mesh: " + sphere.error());
    capsuleMesh_ = ctx.renderer.addMesh(hullMesh(*capsule));
    jointMesh_ = ctx.renderer.addMesh(hullMesh(*sphere));
    // A gentle zigzag in the x-z plane, 1.5 m above the ground.
    std::vector<Vec3> points;
    for (int k = 0; k <= kSegments; ++k) points.push_back(Vec3(0.0, 1.5, 0.0));
    for (int k = 1; k <= kSegments; ++k) {
      const Real turn = (k % 2 ? 0.25 : -0.25);
      points[k] = points[k - 1] + kSegmentLength * Vec3(std::cos(turn), 0.0, std::sin(turn));
    }
    for (auto& p : points) p.x -= 0.5 * kSegments * kSegmentLength * std::cos(0.25);
    auto chain = Chain::create(points, kRadius, ctx.settings.chain);
    if (!chain) return Expected<void>::failure("chain scene: " + chain.error());
    chain_ = std::move(*chain);
    selected_ = kSegments / 2;
    refresh(ctx);
    ctx.camera.reset({-5.5f, 1.5f, 0.0f}, 26.0f, 0.0f, 0.75f);  // the chain right of the panel
    return tumble::ok();
  }

  // Auto-fold (on until the user folds): 2 degrees a step about a turning axis; a blocked fold
  // moves on to another joint and axis, so the scene shows folds meeting contacts on its own.
  void step(SampleContext& ctx) override {
    if (!animate_) return;
    const Vec3 axes[] = {{0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    const int before = blockedFolds_;
    foldBy(ctx, axes[autoPhase_ % 4], (autoPhase_ % 2 ? -2.0 : 2.0) * M_PI / 180.0);
    if (blockedFolds_ != before || ++autoSteps_ >= 90) {
      ++autoPhase_;
      autoSteps_ = 0;
      selected_ = 1 + (selected_ * 7 + 3) % (chain_->segmentCount() - 1);
    }
  }

  void draw(SampleContext& ctx) override {
    const auto& p = chain_->points();
    for (int k = 0; k + 1 < static_cast<int>(p.size()); ++k) {
      const Vec3 d = glm::normalize(p[k + 1] - p[k]);
      Transform t;
      t.position = p[k];
      t.rotation = glm::rotation(Vec3(1, 0, 0), d);
      const bool touching = k < static_cast<int>(contact_.size()) && contact_[k];
      ctx.renderer.drawBody(
          capsuleMesh_, t,
          touching ? glm::vec3(0.92f, 0.25f, 0.22f) : glm::vec3(0.35f, 0.60f, 0.85f));
    }
    Transform j;
    j.position = p[selected_];
    ctx.renderer.drawBody(jointMesh_, j, glm::vec3(0.98f, 0.80f, 0.20f));
  }

  void drawPanel(SampleContext& ctx) override {
    if (!ImGui::CollapsingHeader("Chain", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Text("segments %d, radius %.3f m", chain_->segmentCount(), chain_->radius());
    ImGui::Text("chain.tolerance %.4g (x r), chain.max_substeps %d", ctx.settings.chain.tolerance,
                ctx.settings.chain.maxSubsteps);
    ImGui::Checkbox("auto fold", &animate_);
    ImGui::Text("selected joint %d, key axis %c", selected_, "xyz"[axisIndex_]);
    ImGui::Text("least gap %.5f m", leastGap_);
    ImGui::Text("folds %d, blocked %d", folds_, blockedFolds_);
    // The fold's time is in a tooltip: the panel itself stays the same run to run (golden images).
    ImGui::Text("last fold: %d substeps, %s", lastSubsteps_, lastStatus_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%.3f ms", lastMs_);
    ImGui::TextWrapped(
        "Click a joint and drag to fold about the view axis. Keys: [ ] select joint, x y z "
        "axis, a d fold 5 deg, q e fold 45 deg, n append, backspace remove.");
  }

  bool onKey(SampleContext& ctx, int key) override {
    animate_ = false;
    switch (key) {
      case SDLK_LEFTBRACKET:
        selected_ = std::max(1, selected_ - 1);
        return true;
      case SDLK_RIGHTBRACKET:
        selected_ = std::min(chain_->segmentCount() - 1, selected_ + 1);
        return true;
      case SDLK_x:
        axisIndex_ = 0;
        return true;
      case SDLK_y:
        axisIndex_ = 1;
        return true;
      case SDLK_z:
        axisIndex_ = 2;
        return true;
      case SDLK_a:
        return foldBy(ctx, keyAxis(), kSmallStep);
      case SDLK_d:
        return foldBy(ctx, keyAxis(), -kSmallStep);
      case SDLK_q:
        return foldBy(ctx, keyAxis(), kLargeStep);
      case SDLK_e:
        return foldBy(ctx, keyAxis(), -kLargeStep);
      case SDLK_n: {
        const auto& p = chain_->points();
        const Vec3 dir = p[p.size() - 1] - p[p.size() - 2];
        if (chain_->append(dir, kSegmentLength, ctx.settings.chain)) refresh(ctx);
        return true;
      }
      case SDLK_BACKSPACE:
        if (chain_->segmentCount() > 2 && chain_->removeLast()) {
          selected_ = std::min(selected_, chain_->segmentCount() - 1);
          refresh(ctx);
        }
        return true;
      default:
        return false;
    }
  }

  bool onMouseDown(SampleContext& ctx, const Ray& ray) override {
    (void)ctx;
    const auto& p = chain_->points();
    int best = -1;
    Real bestDist = 3.0 * kRadius;
    for (int k = 1; k + 1 < static_cast<int>(p.size()); ++k) {
      const Vec3 v = p[k] - ray.origin;
      const Real along = glm::dot(v, ray.direction);
      if (along <= 0.0) continue;
      const Real d = glm::length(v - along * ray.direction);
      if (d < bestDist) bestDist = d, best = k;
    }
    if (best < 0) return false;
    animate_ = false;
    selected_ = best;
    dragAxis_ = -ray.direction;  // toward the viewer: positive angles turn counter-clockwise
    dragPrev_ = planeHit(ray);
    return true;
  }

  void onMouseDrag(SampleContext& ctx, const Ray& ray) override {
    if (!dragPrev_) return;
    const auto hit = planeHit(ray);
    if (!hit) return;
    const Vec3 c = chain_->points()[selected_];
    const Vec3 a = *dragPrev_ - c, b = *hit - c;
    // Near the joint the direction of a lever is noise (the click is rarely on the centre): the
    // fold starts once both levers are long enough.
    if (glm::length(a) > kMinLever && glm::length(b) > kMinLever) {
      const Real angle = std::atan2(glm::dot(dragAxis_, glm::cross(a, b)), glm::dot(a, b));
      if (std::abs(angle) > 1e-9) foldBy(ctx, dragAxis_, angle);
    }
    dragPrev_ = hit;
  }

  void onMouseUp(SampleContext& ctx) override {
    (void)ctx;
    dragPrev_.reset();
  }

  int bodyCount() const override { return chain_ ? chain_->segmentCount() : 0; }

  std::string stateJson() const override {
    // Folds by the user (mouse or keys) apart from the automatic ones, and the pose.
    std::string out = "{\"folds\": " + std::to_string(folds_) +
                      ", \"user_folds\": " + std::to_string(userFolds_) +
                      ", \"blocked\": " + std::to_string(blockedFolds_) +
                      ", \"selected\": " + std::to_string(selected_) + ", \"points\": [";
    char buffer[96];
    const auto& p = chain_->points();
    for (size_t k = 0; k < p.size(); ++k) {
      std::snprintf(buffer, sizeof buffer, "%s[%.9g, %.9g, %.9g]", k ? ", " : "", p[k].x, p[k].y,
                    p[k].z);
      out += buffer;
    }
    return out + "]}";
  }

 private:
  Vec3 keyAxis() const {
    Vec3 axis(0.0);
    axis[axisIndex_] = 1.0;
    return axis;
  }

  // Where the ray meets the plane through the selected joint, normal to the drag axis.
  std::optional<Vec3> planeHit(const Ray& ray) const {
    const Vec3 c = chain_->points()[selected_];
    const Real denom = glm::dot(ray.direction, dragAxis_);
    if (std::abs(denom) < 1e-9) return std::nullopt;
    const Real t = glm::dot(c - ray.origin, dragAxis_) / denom;
    return ray.origin + t * ray.direction;
  }

  bool foldBy(SampleContext& ctx, const Vec3& axis, Real angle) {
    const auto start = std::chrono::steady_clock::now();
    auto r = chain_->fold(selected_, axis, angle, ctx.settings.chain);
    lastMs_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!r) return true;
    ++folds_;
    if (!animate_) ++userFolds_;
    if (r->blocked) ++blockedFolds_;
    lastSubsteps_ = r->substeps;
    lastStatus_ = toString(r->status);
    refresh(ctx);
    return true;
  }

  void refresh(SampleContext& ctx) {
    const Real t = ctx.settings.chain.tolerance * chain_->radius();
    contact_ = chainContactFlags(chain_->points(), chain_->radius(), t);
    const auto closest = chainClosestPair(chain_->points(), chain_->radius());
    leastGap_ = closest ? closest->gap : 0.0;
  }

  std::optional<Chain> chain_;
  MeshId capsuleMesh_ = -1;
  MeshId jointMesh_ = -1;
  std::vector<bool> contact_;
  int selected_ = 1;
  int axisIndex_ = 1;
  Vec3 dragAxis_{0.0, 0.0, 1.0};
  std::optional<Vec3> dragPrev_;
  int folds_ = 0, userFolds_ = 0, blockedFolds_ = 0, lastSubsteps_ = 0;
  double lastMs_ = 0.0;
  Real leastGap_ = 0.0;
  const char* lastStatus_ = "-";
  bool animate_ = true;
  int autoPhase_ = 0, autoSteps_ = 0;
};

}  // namespace

std::unique_ptr<Sample> makeChainSample() {
  return std::make_unique<ChainSample>();
}

}  // namespace tumble::demo
