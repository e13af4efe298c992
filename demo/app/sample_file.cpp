// Scenes from assets/scenes/<name>.json, loaded and built by the engine (tumble/scene.h) and
// stepped by its World. Grab a body with the left mouse button (a soft drag constraint); D drops
// one more body from above.
#include <algorithm>
#include <array>
#include <map>
#include <vector>

#include <SDL.h>
#include <imgui.h>

#include "samples.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace tumble::demo {
namespace {

constexpr Real kRayLength = 500.0;  // m, how far a mouse ray reaches
constexpr std::array kPalette = {glm::vec3(0.86f, 0.45f, 0.26f), glm::vec3(0.30f, 0.66f, 0.45f),
                                 glm::vec3(0.35f, 0.52f, 0.86f), glm::vec3(0.85f, 0.75f, 0.30f),
                                 glm::vec3(0.70f, 0.40f, 0.75f), glm::vec3(0.35f, 0.75f, 0.78f)};
constexpr glm::vec3 kStaticColor{0.55f, 0.57f, 0.60f};

class FileSample final : public Sample {
 public:
  explicit FileSample(std::string_view name) : name_(name) {}

  Expected<void> create(SampleContext& ctx) override {
    const auto file = ctx.assets / "scenes" / (name_ + ".json");
    auto scene = loadScene(file, ctx.assets / "shapes");
    if (!scene) return Expected<void>::failure(scene.error());
    description_ = scene->description;
    ctx.settings = scene->settings;  // the app applies --set on top
    auto world = buildWorld(*scene);
    if (!world) return Expected<void>::failure(file.string() + ": " + world.error());
    world_ = std::move(*world);
    for (const BodyId id : world_->bodyIds()) meshFor(ctx, world_->body(id)->shape.hullPtr());
    for (const BodyDef& def : scene->bodies) {
      if (def.type == BodyType::Dynamic && !dropTemplate_.shape) dropTemplate_ = def;
    }
    frameCamera(ctx);
    return tumble::ok();
  }

  void step(SampleContext& ctx) override {
    // The panel edits ctx.settings; the world validates and takes them (a change wakes bodies,
    // equal settings cost one comparison).
    Expected<void> done = world_->setSettings(ctx.settings);
    if (done) done = world_->step(ctx.settings.dt);
    if (auto error = done; !error) {
      error_ = error.error();
    } else {
      error_.clear();
    }
  }

  void draw(SampleContext& ctx) override {
    for (const BodyId id : world_->bodyIds()) {
      const BodyView b = *world_->body(id);
      glm::vec3 color = kStaticColor;
      if (b.type != BodyType::Static) {
        color = kPalette[static_cast<size_t>(id.index) % kPalette.size()];
        if (!b.awake && ctx.dimSleeping) color *= 0.55f;  // sleeping bodies are drawn darker
      }
      ctx.renderer.drawBody(meshFor(ctx, b.shape.hullPtr()), b.transform(), color);
    }
  }

  void drawPanel(SampleContext& ctx) override {
    (void)ctx;
    if (!ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", description_.c_str());
    ImGui::PopTextWrapPos();
    const StepStats& s = world_->stats();
    ImGui::Text("step %lld  awake %d of %d  islands %d",
                static_cast<long long>(world_->stepCount()), s.awakeBodies, s.bodies, s.islands);
    ImGui::Text("pairs %d  manifolds %d  contacts %d", s.pairs, s.manifolds, s.contacts);
    ImGui::Text("max penetration %.4f m  energy %.1f J", s.maxPenetration,
                world_->energy().total());
    ImGui::TextDisabled("timings: statistics window (F2)");
    if (dropTemplate_.shape && ImGui::Button("drop a body (D)")) drop();
    if (!error_.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error_.c_str());
      ImGui::PopTextWrapPos();
    }
  }

  bool onKey(SampleContext& ctx, int key) override {
    (void)ctx;
    if (key != SDLK_d || !dropTemplate_.shape) return false;
    drop();
    return true;
  }

  bool onMouseDown(SampleContext& ctx, const Ray& ray) override {
    (void)ctx;
    const RayHit hit = world_->rayCast(ray.origin, ray.direction * kRayLength);
    if (!hit.hit || !world_->body(hit.body)->isDynamic()) return false;
    Expected<DragId> drag = world_->createDrag(hit.body, hit.point);
    if (!drag) return false;
    drag_ = *drag;
    grabDistance_ = hit.fraction * kRayLength;
    return true;
  }

  void onMouseDrag(SampleContext& ctx, const Ray& ray) override {
    (void)ctx;
    if (world_->isAlive(drag_))
      world_->setDragTarget(drag_, ray.origin + ray.direction * grabDistance_);
  }

  void onMouseUp(SampleContext& ctx) override {
    (void)ctx;
    if (world_->isAlive(drag_)) world_->destroyDrag(drag_);
    drag_ = DragId{};
  }

  int bodyCount() const override { return world_ ? world_->bodyCount() : 0; }
  World* world() override { return world_.get(); }

 private:
  MeshId meshFor(SampleContext& ctx, const std::shared_ptr<const ConvexHull>& shape) {
    const auto it = meshes_.find(shape.get());
    if (it != meshes_.end()) return it->second;
    const MeshId id = ctx.renderer.addMesh(hullMesh(*shape));
    meshes_.emplace(shape.get(), id);
    shapes_.push_back(shape);  // keeps the pointer key alive and unique
    return id;
  }

  // Looks at the dynamic bodies (all bodies when none moves) from the usual direction.
  void frameCamera(SampleContext& ctx) const {
    Vec3 lo(0.0), hi(0.0);
    bool first = true;
    const bool anyDynamic = static_cast<bool>(dropTemplate_.shape);
    for (const BodyId id : world_->bodyIds()) {
      const BodyView b = *world_->body(id);
      if (anyDynamic && !b.isDynamic()) continue;
      lo = first ? b.centerOfMass : glm::min(lo, b.centerOfMass - b.radius);
      hi = first ? b.centerOfMass : glm::max(hi, b.centerOfMass + b.radius);
      first = false;
    }
    const Vec3 centre = 0.5 * (lo + hi);
    const Real radius = std::max(0.5 * glm::length(hi - lo), 1.0);
    const auto distance = static_cast<float>(radius / std::sin(OrbitCamera::kFovY * 0.5) * 1.1);
    ctx.camera.reset(glm::vec3(centre), distance, 0.6f, 0.6f);
  }

  // One more body like the scene's first dynamic one, 2 m above the highest body.
  void drop() {
    Real top = 0.0;
    for (const BodyId id : world_->bodyIds()) {
      const BodyView b = *world_->body(id);
      top = std::max(top, b.centerOfMass.y + b.radius);
    }
    BodyDef def = dropTemplate_;
    def.position = Vec3(0.1 * (dropped_ % 5), top + 2.0, 0.1 * (dropped_ % 3));
    def.linearVelocity = Vec3(0.0);
    def.angularVelocity = Vec3(0.3, 0.2, 0.1);
    if (auto id = world_->createBody(def); !id) error_ = id.error();
    ++dropped_;
  }

  std::string name_;
  std::string description_;
  std::unique_ptr<World> world_;
  std::map<const ConvexHull*, MeshId> meshes_;
  std::vector<std::shared_ptr<const ConvexHull>> shapes_;
  BodyDef dropTemplate_;
  int dropped_ = 0;
  DragId drag_;
  Real grabDistance_ = 0.0;
  std::string error_;
};

}  // namespace

std::unique_ptr<Sample> makeFileSample(std::string_view name) {
  return std::make_unique<FileSample>(name);
}

}  // namespace tumble::demo
