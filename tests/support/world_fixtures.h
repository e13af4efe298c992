#pragma once
// Small scenes shared by the world tests (the box hull is shapes.h's).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "shapes.h"
#include "tumble/assert.h"
#include "tumble/world.h"

namespace tumble::test {

/// A static ground box with its top face at y = 0.
inline BodyId addGround(World& w, Real halfSize = 20.0, Real friction = 0.5) {
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = boxHull(Vec3(halfSize, 1.0, halfSize));
  def.position = Vec3(0.0, -1.0, 0.0);
  def.friction = friction;
  return *w.createBody(def);
}

inline BodyId addBox(World& w, const Vec3& pos, const Vec3& half = Vec3(0.5), Real friction = 0.5,
                     Real restitution = 0.0, const Quat& q = Quat(1, 0, 0, 0)) {
  BodyDef def;
  def.shape = boxHull(half);
  def.position = pos;
  def.orientation = q;
  def.friction = friction;
  def.restitution = restitution;
  def.density = 1000.0;
  return *w.createBody(def);
}

/// A body let go on a slope: the acceleration down it and the body at the start and end of the
/// measured steps (rollDownSlope).
struct SlopeRoll {
  Real acceleration = 0.0;  ///< m/s^2, mean down the slope over the measured steps
  BodyView start, end;
  Vec3 up{0.0}, down{0.0};  ///< the slope's normal and its downhill direction
};

/// A world without sleeping and a static 40 m slope tilted by `angle` (rad) about z, downhill
/// towards -x, both surfaces with `friction`; `def` (pose given in the slope's frame: its position
/// from the top face's centre, its orientation relative to the slope) is let go, settles for 30
/// steps, and its acceleration down the slope is measured over the next `steps`.
inline SlopeRoll rollDownSlope(BodyDef def, Real angle, Real friction, int steps = 60) {
  World w{Settings{}};
  Settings s = w.settings();
  s.sleep.enabled = false;
  REQUIRE(w.setSettings(s));
  const Quat tilt = glm::angleAxis(angle, Vec3(0.0, 0.0, 1.0));
  BodyDef slope;
  slope.type = BodyType::Static;
  slope.shape = boxHull(Vec3(20.0, 0.5, 5.0));
  slope.orientation = tilt;
  slope.friction = friction;
  REQUIRE(w.createBody(slope));
  SlopeRoll r;
  r.up = tilt * Vec3(0.0, 1.0, 0.0);
  r.down = tilt * Vec3(-1.0, 0.0, 0.0);
  def.position = 0.5 * r.up + tilt * def.position;
  def.orientation = tilt * def.orientation;
  def.friction = friction;
  const BodyId id = *w.createBody(def);
  for (int i = 0; i < 30; ++i) REQUIRE(w.step(w.settings().dt));
  r.start = *w.body(id);
  for (int i = 0; i < steps; ++i) REQUIRE(w.step(w.settings().dt));
  r.end = *w.body(id);
  r.acceleration =
      glm::dot(r.end.linearVelocity - r.start.linearVelocity, r.down) / (steps * w.settings().dt);
  return r;
}

/// Changes the world's settings through World::setSettings (which validates them).
inline void editSettings(World& w, const std::function<void(Settings&)>& edit) {
  Settings s = w.settings();
  edit(s);
  REQUIRE(w.setSettings(s));
}
inline void editSettings(const std::unique_ptr<World>& w,
                         const std::function<void(Settings&)>& edit) {
  editSettings(*w, edit);
}

/// While alive, the assert handler (tumble/assert.h) counts API misuse instead of aborting (the
/// default in debug builds): `count` calls so far, `last` the latest message.
class CountAsserts {
 public:
  CountAsserts() : previous_(setAssertHandler(record)) { state() = {}; }
  ~CountAsserts() { setAssertHandler(previous_); }
  CountAsserts(const CountAsserts&) = delete;
  CountAsserts& operator=(const CountAsserts&) = delete;
  int count() const { return state().count; }
  const std::string& last() const { return state().last; }

 private:
  struct State {
    int count = 0;
    std::string last;
  };
  static State& state() {
    static State s;
    return s;
  }
  static void record(const char*, const char* message, const char*, int) {
    ++state().count;
    state().last = message;
  }
  AssertHandler previous_;
};

inline bool allFinite(const World& w) {
  for (BodyId id : w.bodyIds()) {
    const BodyView b = *w.body(id);
    if (!isFinite(b.centerOfMass) || !isFinite(b.linearVelocity) || !isFinite(b.angularVelocity))
      return false;
    if (!std::isfinite(b.rotation.w) || !std::isfinite(b.rotation.x) ||
        !std::isfinite(b.rotation.y) || !std::isfinite(b.rotation.z))
      return false;
  }
  return true;
}

}  // namespace tumble::test
