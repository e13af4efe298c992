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

/// assets/scenes/bridge.json with each hinge replaced by two joints on its line, 0.9 m to either
/// side of its anchor: two ball joints (Box3D's bridge sample hangs its planks so), or with
/// `hinges` two hinges about the same axis (a door's two hinges); every other plank's second joint
/// names its bodies the other way round. `loaded` false: the ground, the piers and the 40 planks
/// alone.
inline Scene bridgeOnPairs(bool loaded, bool hinges = false) {
  auto scene =
      loadScene(std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / "bridge.json");
  REQUIRE(scene);
  if (!loaded) scene->bodies.resize(43);
  std::vector<SceneJoint> pairs;
  for (const SceneJoint& j : scene->joints) {
    const auto* hinge = std::get_if<HingeJointDef>(&j.def);
    REQUIRE(hinge);
    for (int k = 0; k < 2; ++k) {
      SceneJoint p;
      const Vec3 anchor = hinge->anchor + Vec3(0.0, 0.0, k == 0 ? -0.9 : 0.9);
      if (hinges) {
        HingeJointDef h = *hinge;
        h.anchor = anchor;
        p.def = h;
      } else {
        BallJointDef ball;
        ball.anchor = anchor;
        p.def = ball;
      }
      const bool swap = k == 1 && j.a >= 0 && j.b >= 0 && (j.b % 2 == 0);
      p.a = swap ? j.b : j.a;
      p.b = swap ? j.a : j.b;
      pairs.push_back(p);
    }
  }
  scene->joints = pairs;
  return std::move(*scene);
}

}  // namespace tumble::test
