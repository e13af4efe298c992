// A pile: hulls from assets/shapes dropped onto a static ground slab and simulated by the
// engine's World. Grab a body with the left mouse button (a soft drag constraint).
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include <SDL.h>
#include <imgui.h>

#include "scenes.h"
#include "shape_file.h"
#include "tumble/world.h"

namespace tumble::demo {
namespace {

constexpr std::uint64_t kSeed = 2024;
constexpr int kBodies = 30;
constexpr Real kRayLength = 200.0;  // m, how far a mouse ray reaches
constexpr std::array kShapes = {"box",          "tetrahedron", "octahedron", "icosahedron",
                                "dodecahedron", "cylinder16",  "cone",       "random_7"};
constexpr std::array kPalette = {glm::vec3(0.86f, 0.45f, 0.26f), glm::vec3(0.30f, 0.66f, 0.45f),
                                 glm::vec3(0.35f, 0.52f, 0.86f), glm::vec3(0.85f, 0.75f, 0.30f),
                                 glm::vec3(0.70f, 0.40f, 0.75f), glm::vec3(0.35f, 0.75f, 0.78f)};

// A uniform double in [0, 1) from 53 random bits (portable, unlike std::uniform_real_distribution).
double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

// A uniformly random rotation: a uniform point in the unit 4-ball, normalised (rejection).
Quat randomRotation(std::mt19937_64& rng) {
  for (;;) {
    const Quat q(2.0 * unit(rng) - 1.0, 2.0 * unit(rng) - 1.0, 2.0 * unit(rng) - 1.0,
                 2.0 * unit(rng) - 1.0);
    const Real n = glm::length(q);
    if (n > 0.1 && n <= 1.0) return q / n;
  }
}

class PileScene final : public Scene {
 public:
  std::optional<std::string> create(SceneContext& ctx) override {
    auto world = World::create(ctx.settings);
    if (!world) return world.error();
    world_ = std::move(*world);
    for (const char* name : kShapes) {
      auto hull = loadShape(ctx.assets, name);
      if (!hull) return hull.error();
      shapes_.push_back(std::make_shared<const ConvexHull>(std::move(*hull)));
      meshes_.push_back(ctx.renderer.addMesh(hullMesh(*shapes_.back())));
    }
    // The ground: a static slab 20 m x 20 m, 1 m thick, its top face at y = 0.
    std::vector<Vec3> slab;
    for (int i = 0; i < 8; ++i) {
      slab.emplace_back(i & 1 ? 10.0 : -10.0, i & 2 ? 0.0 : -1.0, i & 4 ? 10.0 : -10.0);
    }
    auto ground = ConvexHull::build(slab);
    if (!ground) return "ground slab: " + ground.error();
    BodyDef groundDef;
    groundDef.type = BodyType::Static;
    groundDef.shape = std::make_shared<const ConvexHull>(std::move(*ground));
    groundDef.userData = kShapes.size();  // mesh index below
    meshes_.push_back(ctx.renderer.addMesh(hullMesh(*groundDef.shape)));
    if (auto id = world_->createBody(groundDef); !id) return "ground: " + id.error();

    rng_.seed(kSeed);
    for (int i = 0; i < kBodies; ++i) {
      if (auto error = dropBody(i)) return error;
    }
    ctx.camera.reset({-1.0f, 1.2f, 0.8f}, 13.0f, 0.6f, 0.38f);
    return std::nullopt;
  }

  void step(SceneContext& ctx) override {
    world_->settings() = ctx.settings;
    if (auto error = world_->step()) {
      error_ = *error;
    } else {
      error_.clear();
    }
  }

  void draw(SceneContext& ctx) override {
    for (const BodyId id : world_->bodyIds()) {
      const Body& b = world_->body(id);
      const auto mesh = static_cast<size_t>(b.userData);
      glm::vec3 color = b.type == BodyType::Static
                            ? glm::vec3(0.55f, 0.57f, 0.60f)
                            : kPalette[static_cast<size_t>(id.index) % kPalette.size()];
      if (b.isDynamic() && !b.awake) color *= 0.55f;  // sleeping bodies are drawn darker
      ctx.renderer.drawBody(meshes_[mesh], b.transform(), color);
    }
  }

  void drawPanel(SceneContext& ctx) override {
    (void)ctx;
    if (!ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const StepStats& s = world_->stats();
    const Energy e = world_->energy();
    ImGui::Text("step %lld  awake %d of %d  islands %d",
                static_cast<long long>(world_->stepCount()), s.awakeBodies, s.bodies, s.islands);
    ImGui::Text("pairs %d  manifolds %d  contacts %d", s.pairs, s.manifolds, s.contacts);
    ImGui::Text("max penetration %.4f m  energy %.1f J", s.maxPenetration, e.total());
    ImGui::Text("ms: broad %.2f  narrow %.2f  solver %.2f", s.broadphaseMs, s.narrowphaseMs,
                s.solverMs);
    if (ImGui::Button("drop a body (D)")) dropBody(dropped_);
    if (!error_.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", error_.c_str());
      ImGui::PopTextWrapPos();
    }
  }

  bool onKey(SceneContext& ctx, int key) override {
    (void)ctx;
    if (key != SDLK_d) return false;
    dropBody(dropped_);
    return true;
  }

  bool onMouseDown(SceneContext& ctx, const Ray& ray) override {
    (void)ctx;
    const RayHit hit = world_->rayCast(ray.origin, ray.direction * kRayLength);
    if (!hit.hit || !world_->body(hit.body).isDynamic()) return false;
    drag_ = world_->createDrag(hit.body, hit.point);
    grabDistance_ = hit.fraction * kRayLength;
    return drag_.valid();
  }

  void onMouseDrag(SceneContext& ctx, const Ray& ray) override {
    (void)ctx;
    if (drag_.valid()) world_->setDragTarget(drag_, ray.origin + ray.direction * grabDistance_);
  }

  void onMouseUp(SceneContext& ctx) override {
    (void)ctx;
    if (drag_.valid()) world_->destroyDrag(drag_);
    drag_ = DragId{};
  }

  int bodyCount() const override { return world_ ? world_->bodyCount() : 0; }

 private:
  // Body `i` of the drop pattern: 3 x 3 columns, layers 1.3 m apart, seeded jitter and rotation.
  std::optional<std::string> dropBody(int i) {
    BodyDef def;
    const auto shape = static_cast<size_t>(i) % kShapes.size();
    def.shape = shapes_[shape];
    def.userData = shape;
    const int column = i % 9;
    const int layer = i / 9;
    def.position = Vec3(1.4 * (column % 3 - 1) + 0.2 * (unit(rng_) - 0.5),
                        1.0 + 1.3 * layer + 0.2 * unit(rng_),
                        1.4 * (column / 3 - 1) + 0.2 * (unit(rng_) - 0.5));
    def.orientation = randomRotation(rng_);
    def.friction = 0.6;
    auto id = world_->createBody(def);
    if (!id) return "body " + std::to_string(i) + ": " + id.error();
    ++dropped_;
    return std::nullopt;
  }

  std::unique_ptr<World> world_;
  std::vector<std::shared_ptr<const ConvexHull>> shapes_;
  std::vector<MeshId> meshes_;  // one per shape, then the ground
  std::mt19937_64 rng_;
  int dropped_ = 0;
  DragId drag_;
  Real grabDistance_ = 0.0;
  std::string error_;
};

}  // namespace

std::unique_ptr<Scene> makePileScene() {
  return std::make_unique<PileScene>();
}

}  // namespace tumble::demo
