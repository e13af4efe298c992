// The car scene file (assets/scenes/car.json) driven from the keyboard: its wheels are the hinges
// with a motor, its steering the vertical hinges of the front hubs, held at the steering angle by
// their limits (lower = upper). The camera follows the chassis.
#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "samples.h"
#include "tumble/scene.h"
#include "world_sample.h"

namespace tumble::demo {
namespace {

constexpr Real kSpeedStep = 2.0;      // rad/s per Up/Down press
constexpr Real kMaxSpeed = 30.0;      // rad/s (10.5 m/s with 0.35 m wheels)
constexpr Real kSteerStep = 0.1;      // rad per Left/Right press
constexpr Real kMaxSteer = 0.5;       // rad
constexpr Real kMaxTorque = 1000;     // N m, the panel's range
constexpr float kOpeningZoom = 5.0f;  // wheel clicks

class CarSample final : public WorldSample {
 public:
  void step(SampleContext& ctx) override {
    apply();
    WorldSample::step(ctx);
  }

  void draw(SampleContext& ctx) override {
    WorldSample::draw(ctx);
    if (World* w = world(); w && chassis_.valid() && w->isAlive(chassis_))
      ctx.camera.setTarget(glm::vec3((*w->body(chassis_)).centerOfMass));
    // Opened framed on the whole ground's ramps: closer, on the car, once (the wheel zooms on).
    if (!zoomed_) ctx.camera.zoom(kOpeningZoom), zoomed_ = true;
  }

  void drawPanel(SampleContext& ctx) override {
    if (ImGui::CollapsingHeader("Car", ImGuiTreeNodeFlags_DefaultOpen)) {
      ImGui::TextDisabled("Up/Down: motor speed, Left/Right: steer");
      float speed = static_cast<float>(speed_), steer = static_cast<float>(steer_);
      float torque = static_cast<float>(torque_);
      if (ImGui::SliderFloat("motor speed (rad/s)", &speed, -kMaxSpeed, kMaxSpeed, "%.1f"))
        speed_ = speed;
      if (ImGui::SliderFloat("steering (rad)", &steer, -kMaxSteer, kMaxSteer, "%.2f"))
        steer_ = steer;
      if (ImGui::SliderFloat("max torque (N m)", &torque, 0.0f, kMaxTorque, "%.0f"))
        torque_ = torque;
      if (World* w = world(); w && chassis_.valid() && w->isAlive(chassis_)) {
        const BodyView c = *w->body(chassis_);
        ImGui::Text("speed %.2f m/s (wheel radius x motor speed %.2f m/s)",
                    glm::length(c.linearVelocity), wheelRadius_ * speed_);
      }
      if (ImGui::Button("stop")) speed_ = 0.0, steer_ = 0.0;
    }
    WorldSample::drawPanel(ctx);
  }

  bool onKey(SampleContext& ctx, int key) override {
    switch (key) {
      case SDLK_UP:
        speed_ = std::min(speed_ + kSpeedStep, kMaxSpeed);
        return true;
      case SDLK_DOWN:
        speed_ = std::max(speed_ - kSpeedStep, -kMaxSpeed);
        return true;
      case SDLK_LEFT:
        steer_ = std::min(steer_ + kSteerStep, kMaxSteer);
        return true;
      case SDLK_RIGHT:
        steer_ = std::max(steer_ - kSteerStep, -kMaxSteer);
        return true;
      default:
        return WorldSample::onKey(ctx, key);
    }
  }

 protected:
  Expected<std::unique_ptr<World>> build(SampleContext& ctx) override {
    const auto file = ctx.assets / "scenes" / "car.json";
    auto scene = loadScene(file, ctx.assets / "shapes");
    if (!scene) return Expected<std::unique_ptr<World>>::failure(scene.error());
    setDescription(scene->description);
    ctx.settings = scene->settings;
    auto world = buildWorld(*scene);
    if (!world)
      return Expected<std::unique_ptr<World>>::failure(file.string() + ": " + world.error());
    find(**world);
    if (wheels_.empty() || !chassis_.valid())
      return Expected<std::unique_ptr<World>>::failure(file.string() +
                                                       ": no motorised hinge wheels found");
    return world;
  }

 private:
  // Wheels: hinges with a motor whose body b is a cylinder; steering: hinges about a vertical
  // axis; the chassis: the heaviest dynamic body.
  void find(World& w) {
    Real heaviest = 0.0;
    for (BodyId id : w.bodyIds()) {
      const BodyView b = *w.body(id);
      if (b.isDynamic() && b.mass > heaviest) heaviest = b.mass, chassis_ = id;
    }
    for (JointId id : w.jointIds()) {
      const JointView v = *w.joint(id);
      if (v.type != JointType::Hinge) continue;
      const Shape shape = v.b.valid() ? (*w.body(v.b)).shape : Shape();
      if (v.motor.enabled && shape.cylinder()) {
        wheels_.push_back(id);
        wheelRadius_ = shape.cylinder()->support.radius;
        torque_ = v.motor.maxEffort;
      } else if (std::abs(v.axis.y) > 0.99) {
        steering_.push_back(id);
      }
    }
  }

  // The keys' and sliders' values to the joints (the setters wake the car when they change it).
  void apply() {
    World* w = world();
    if (!w) return;
    for (JointId id : wheels_) {
      if (!w->isAlive(id)) continue;
      const JointMotor m{true, speed_, torque_};
      const JointMotor now = (*w->joint(id)).motor;
      if (now.speed != m.speed || now.maxEffort != m.maxEffort) (void)w->setJointMotor(id, m);
    }
    for (JointId id : steering_) {
      if (!w->isAlive(id)) continue;
      const JointLimits l{true, steer_, steer_};
      const JointLimits now = (*w->joint(id)).limits;
      if (now.lower != l.lower || now.upper != l.upper) (void)w->setJointLimits(id, l);
    }
  }

  std::vector<JointId> wheels_, steering_;
  BodyId chassis_;
  Real wheelRadius_ = 0.0;
  Real speed_ = 0.0;  // rad/s
  Real steer_ = 0.0;  // rad, positive turns left (about +y)
  Real torque_ = 0.0;
  bool zoomed_ = false;
};

}  // namespace

std::unique_ptr<Sample> makeCarSample() {
  return std::make_unique<CarSample>();
}

}  // namespace tumble::demo
