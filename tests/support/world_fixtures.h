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
