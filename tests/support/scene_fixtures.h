#pragma once
// The scene files of assets/scenes as worlds, for the tests that run them (needs TUMBLE_SOURCE_DIR,
// which every unit test has).
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>
#include <variant>
#include <vector>

#include "tumble/scene.h"
#include "tumble/world.h"

namespace tumble::test {

/// The world of a scene file in assets/scenes (e.g. "pile.json"), built as tumble-cli builds it.
inline std::unique_ptr<World> loadAssetScene(const char* name) {
  auto scene = loadScene(std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / name);
  REQUIRE(scene);
  auto world = buildWorld(*scene);
  REQUIRE(world);
  return std::move(*world);
}

/// assets/scenes/bridge.json with each hinge replaced by two ball joints on its line, 0.9 m to
/// either side of its anchor (Box3D's bridge sample hangs its planks so); every other plank's
/// second joint names its bodies the other way round. `loaded` false: the ground, the piers and
/// the 40 planks alone.
inline Scene bridgeOnBallPairs(bool loaded) {
  auto scene =
      loadScene(std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / "bridge.json");
  REQUIRE(scene);
  if (!loaded) scene->bodies.resize(43);
  std::vector<SceneJoint> balls;
  for (const SceneJoint& j : scene->joints) {
    const auto* hinge = std::get_if<HingeJointDef>(&j.def);
    REQUIRE(hinge);
    for (int k = 0; k < 2; ++k) {
      SceneJoint b;
      BallJointDef ball;
      ball.anchor = hinge->anchor + Vec3(0.0, 0.0, k == 0 ? -0.9 : 0.9);
      b.def = ball;
      const bool swap = k == 1 && j.a >= 0 && j.b >= 0 && (j.b % 2 == 0);
      b.a = swap ? j.b : j.a;
      b.b = swap ? j.a : j.b;
      balls.push_back(b);
    }
  }
  scene->joints = balls;
  return std::move(*scene);
}

}  // namespace tumble::test
