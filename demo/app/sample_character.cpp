// The character scene (issue 16): a capsule moved by tumble::Character through a level of stairs
// (0.25 m steps), slopes of 30 and 60 degrees, two moving platforms (kinematic bodies whose
// velocity is set every step) and pushable boxes. WASD walks relative to the camera, which orbits
// round the character and follows it; space jumps. Gravity and jumping are the sample's: the mover
// leaves them to its caller (character.h).
#include <SDL.h>
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "samples.h"
#include "shape_mesh.h"
#include "tumble/character.h"
#include "world_sample.h"

namespace tumble::demo {
namespace {

constexpr Real kGravity = 9.81;        // m/s^2, the character's own (the world's is its own)
const Vec3 kSpawnFoot(0.0, 0.0, 7.0);  // m: facing the stairs, which climb towards -z
constexpr Real kStepRise = 0.25;       // m
constexpr Real kStepTread = 0.4;       // m
constexpr int kSteps = 6;              // up to the landing at 1.5 m
constexpr Real kStairsFront = 4.0;     // z of the first step's face
constexpr Real kLandingBack = -6.0;    // z of the landing's far end (a wall stands there)
constexpr Real kPlatformPeriod = 6.0;  // s, of both platforms' back-and-forth
constexpr glm::vec3 kCharacterColor{0.95f, 0.62f, 0.18f};

// A moving platform: its pose at time t (m), along a cosine between two points.
struct Platform {
  BodyId body;
  Vec3 a{0.0}, b{0.0};
  Vec3 at(Real t) const {
    const Real s = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * t / kPlatformPeriod);
    return a + s * (b - a);
  }
};

class CharacterSample final : public WorldSample {
 public:
  void step(SampleContext& ctx) override {
    // Platforms first: the velocity that reaches their next pose in one step (what moveKinematic
    // does), so they go back and forth without drift.
    const Real dt = ctx.settings.dt;
    time_ += dt;
    for (const Platform& p : platforms_) {
      const Vec3 now = world()->body(p.body)->position;
      world()->setLinearVelocity(p.body, (p.at(time_) - now) / dt);
    }
    WorldSample::step(ctx);

    // Input: held keys (not while the panel types), relative to the camera's heading.
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const bool typing = ImGui::GetCurrentContext() && ImGui::GetIO().WantCaptureKeyboard;
    auto held = [&](SDL_Scancode k) { return keys && !typing && keys[k] != 0; };
    Vec3 forward(ctx.camera.forward());
    forward.y = 0.0;
    forward = glm::length(forward) > 1e-6 ? glm::normalize(forward) : Vec3(0.0, 0.0, -1.0);
    const Vec3 right = glm::cross(forward, Vec3(0.0, 1.0, 0.0));
    Vec3 walk(0.0);
    if (held(SDL_SCANCODE_W)) walk += forward;
    if (held(SDL_SCANCODE_S)) walk -= forward;
    if (held(SDL_SCANCODE_D)) walk += right;
    if (held(SDL_SCANCODE_A)) walk -= right;
    if (glm::length(walk) > 0.0) walk = speed_ * glm::normalize(walk);

    if (character_.onGround()) {
      vy_ = 0.0;
      if (held(SDL_SCANCODE_SPACE) || jump_) vy_ = jumpSpeed_;
    } else {
      vy_ -= kGravity * dt;
    }
    jump_ = false;
    if (auto done = character_.update(*world(), Vec3(walk.x, vy_, walk.z), dt); !done)
      setError(done.error());
    // Hitting a ceiling ends the rise.
    if (vy_ > 0.0 && character_.velocity().y < 0.5 * vy_ && !character_.onGround()) vy_ = 0.0;
  }

  void draw(SampleContext& ctx) override {
    const glm::vec3 centre(character_.position());
    if (!cameraPlaced_) {
      // Behind the character, looking up the stairs, slopes and platforms in view.
      ctx.camera.reset(centre, 13.0f, 0.0f, 0.45f);
      cameraPlaced_ = true;
    }
    ctx.camera.setTarget(centre);
    WorldSample::draw(ctx);
    ctx.renderer.drawBody(capsuleMesh_, Transform{character_.position(), Quat(1, 0, 0, 0)},
                          kCharacterColor);
    // The ground normal at the ground point: green on walkable ground, red on steep ground.
    if (character_.groundState() != GroundState::InAir) {
      const glm::vec3 p(character_.groundPoint());
      const glm::vec4 color = character_.onGround() ? glm::vec4(0.2f, 0.9f, 0.3f, 1.0f)
                                                    : glm::vec4(0.95f, 0.25f, 0.2f, 1.0f);
      ctx.renderer.drawLine(p, p + 0.6f * glm::vec3(character_.groundNormal()), color);
    }
  }

  void drawPanel(SampleContext& ctx) override {
    if (ImGui::CollapsingHeader("Character", ImGuiTreeNodeFlags_DefaultOpen)) {
      CharacterSettings s = character_.settings();
      float slope = static_cast<float>(s.maxSlopeAngle * 180.0 / std::numbers::pi);
      float step = static_cast<float>(s.stepHeight);
      float push = static_cast<float>(s.maxPushForce);
      float speed = static_cast<float>(speed_), jump = static_cast<float>(jumpSpeed_);
      bool changed = ImGui::SliderFloat("max slope (deg)", &slope, 0.0f, 85.0f, "%.0f");
      changed |= ImGui::SliderFloat("step height (m)", &step, 0.0f, 0.6f, "%.2f");
      changed |= ImGui::SliderFloat("push force (N)", &push, 0.0f, 3000.0f, "%.0f");
      ImGui::SliderFloat("speed (m/s)", &speed, 0.5f, 12.0f, "%.1f");
      ImGui::SliderFloat("jump speed (m/s)", &jump, 0.0f, 12.0f, "%.1f");
      speed_ = speed;
      jumpSpeed_ = jump;
      if (changed) {
        s.maxSlopeAngle = slope * std::numbers::pi / 180.0;
        s.stepHeight = step;
        s.maxPushForce = push;
        if (auto done = character_.setSettings(s); !done) setError(done.error());
      }
      const Vec3 foot = character_.footPosition();
      ImGui::Text("foot %.2f %.2f %.2f m  %s", foot.x, foot.y, foot.z, groundName());
      const Vec3 v = character_.groundVelocity();
      ImGui::Text("ground velocity %.2f %.2f %.2f m/s", v.x, v.y, v.z);
      if (ImGui::Button("jump")) jump_ = true;
      ImGui::SameLine();
      if (ImGui::Button("back to the start")) character_.setPosition(spawnCentre());
      ImGui::TextDisabled("WASD walk (camera-relative), space jump, drag to orbit");
    }
    WorldSample::drawPanel(ctx);
  }

  bool onKey(SampleContext& ctx, int key) override {
    // Held keys are read in step(); their presses are the character's, not D's drop.
    switch (key) {
      case SDLK_w:
      case SDLK_a:
      case SDLK_s:
      case SDLK_d:
        return true;
      case SDLK_SPACE:
        jump_ = true;
        return true;
      default:
        return WorldSample::onKey(ctx, key);
    }
  }

  std::string stateJson() const override {
    const Vec3 foot = character_.footPosition();
    char text[256];
    std::snprintf(text, sizeof text,
                  R"({"foot": [%.6f, %.6f, %.6f], "start_foot": [%.6f, %.6f, %.6f], )"
                  R"("ground": "%s", "landing_height": %.6f})",
                  foot.x, foot.y, foot.z, kSpawnFoot.x, kSpawnFoot.y, kSpawnFoot.z, groundName(),
                  kSteps * kStepRise);
    return text;
  }

 protected:
  Expected<std::unique_ptr<World>> build(SampleContext& ctx) override {
    using E = Expected<std::unique_ptr<World>>;
    setDescription(
        "a character mover (tumble::Character): stairs of 0.25 m steps, slopes of 30 and 60 "
        "degrees, two moving platforms and pushable boxes");
    auto world = std::make_unique<World>(ctx.settings);
    Expected<void> status;
    auto add = [&](BodyType type, const Vec3& half, const Vec3& position,
                   const Quat& q = Quat(1, 0, 0, 0)) {
      BodyDef def;
      def.type = type;
      auto shape = makeBox(half);
      if (!shape) {
        status = Expected<void>::failure(shape.error());
        return BodyId{};
      }
      def.shape = *shape;
      def.position = position;
      def.orientation = q;
      def.density = 150.0;
      auto id = world->createBody(def);
      if (!id) {
        status = Expected<void>::failure(id.error());
        return BodyId{};
      }
      return *id;
    };
    add(BodyType::Static, Vec3(20.0, 0.5, 20.0), Vec3(0.0, -0.5, 0.0));
    // Stairs, each step a box from its face back to the landing's end.
    for (int k = 1; k <= kSteps; ++k) {
      const Real front = kStairsFront - kStepTread * (k - 1), top = kStepRise * k;
      add(BodyType::Static, Vec3(1.5, 0.5 * top, 0.5 * (front - kLandingBack)),
          Vec3(0.0, 0.5 * top, 0.5 * (front + kLandingBack)));
    }
    add(BodyType::Static, Vec3(1.5, 0.6, 0.2), Vec3(0.0, 1.5 + 0.6, kLandingBack + 0.2));
    // Ramps rising towards -z, their near ends 1 m under the ground: 30 degrees on the left,
    // 60 on the right.
    auto ramp = [&](Real degrees, Real x, Real halfLength) {
      const Quat q = glm::angleAxis(degrees * std::numbers::pi / 180.0, Vec3(1.0, 0.0, 0.0));
      const Vec3 surfacePoint(0.0, 0.5, halfLength - 1.0);
      add(BodyType::Static, Vec3(1.5, 0.5, halfLength), Vec3(x, 0.0, 5.0) - q * surfacePoint, q);
    };
    ramp(30.0, -6.0, 3.5);
    ramp(60.0, 6.0, 2.5);
    // Platforms: one crossing from the landing to the right, one lift on the left.
    platforms_.clear();
    const Vec3 ferryA(3.0, 1.5 - 0.1, -3.0), ferryB(8.0, 1.5 - 0.1, -3.0);
    const Vec3 liftA(-3.0, 0.1, -3.0), liftB(-3.0, 1.5 - 0.1, -3.0);
    platforms_.push_back({add(BodyType::Kinematic, Vec3(1.4, 0.1, 1.4), ferryA), ferryA, ferryB});
    platforms_.push_back({add(BodyType::Kinematic, Vec3(1.2, 0.1, 1.2), liftA), liftA, liftB});
    // Boxes to push, beside the start.
    add(BodyType::Dynamic, Vec3(0.4), Vec3(2.5, 0.4, 6.0));
    add(BodyType::Dynamic, Vec3(0.4), Vec3(2.5, 0.4, 7.2));
    add(BodyType::Dynamic, Vec3(0.3), Vec3(2.5, 1.1, 7.2));
    add(BodyType::Dynamic, Vec3(0.5, 0.3, 0.5), Vec3(-2.5, 0.3, 6.5));
    if (!status) return E::failure(status.error());

    CharacterSettings s;
    s.maxSlopeAngle = 45.0 * std::numbers::pi / 180.0;
    auto character = Character::create(s, spawnCentre());
    if (!character) return E::failure(character.error());
    character_ = *character;
    capsuleMesh_ = ctx.renderer.addMesh(capsuleMesh(s.radius, s.halfHeight));
    time_ = 0.0;
    vy_ = 0.0;
    cameraPlaced_ = false;
    return world;
  }

 private:
  static Vec3 spawnCentre() {
    const CharacterSettings s;
    return kSpawnFoot + Vec3(0.0, s.radius + s.halfHeight + s.skin, 0.0);
  }
  const char* groundName() const {
    switch (character_.groundState()) {
      case GroundState::OnGround:
        return "on_ground";
      case GroundState::OnSteepGround:
        return "on_steep_ground";
      case GroundState::InAir:
        break;
    }
    return "in_air";
  }

  Character character_ = *Character::create(CharacterSettings{}, spawnCentre());
  std::vector<Platform> platforms_;
  MeshId capsuleMesh_ = -1;
  Real time_ = 0.0;
  Real vy_ = 0.0;
  Real speed_ = 4.0;
  Real jumpSpeed_ = 5.0;
  bool jump_ = false;
  bool cameraPlaced_ = false;
};

}  // namespace

std::unique_ptr<Sample> makeCharacterSample() {
  return std::make_unique<CharacterSample>();
}

}  // namespace tumble::demo
