#pragma once
// The scene files of assets/scenes as worlds, for the tests that run them (needs TUMBLE_SOURCE_DIR,
// which every unit test has).
#include <catch2/catch.hpp>

#include <filesystem>
#include <memory>

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

}  // namespace tumble::test
