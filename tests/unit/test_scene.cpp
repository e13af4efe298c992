// Scene files: every shipped scene loads; errors name the JSON path; generators are exact.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tumble/scene.h"

using namespace tumble;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {
const std::filesystem::path kAssets = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets";
Expected<Scene> parse(const std::string& text) {
  return parseScene(text, "test.json", kAssets / "shapes");
}
}  // namespace

TEST_CASE("every shipped scene loads and builds", "[scene]") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kAssets / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    auto scene = loadScene(entry.path());
    REQUIRE(scene);
    auto world = buildWorld(*scene);
    REQUIRE(world);
    CHECK((*world)->bodyCount() == static_cast<int>(scene->bodies.size()));
    ++count;
  }
  CHECK(count >= 10);
  auto pile = loadScene(kAssets / "scenes" / "pile.json");
  REQUIRE(pile);
  CHECK(pile->bodies.size() == 305);
  auto tower = loadScene(kAssets / "scenes" / "tower.json");
  REQUIRE(tower);
  REQUIRE(tower->bodies.size() == 21);
  // Tower boxes stand exactly on each other: bottom face at 0, unit pitch.
  for (int i = 1; i <= 20; ++i)
    CHECK_THAT(tower->bodies[i].position.y, WithinAbs(0.5 + (i - 1), 1e-12));
  auto pyramid = loadScene(kAssets / "scenes" / "pyramid.json");
  REQUIRE(pyramid);
  CHECK(pyramid->bodies.size() == 1 + 210);
  auto heap = loadScene(kAssets / "scenes" / "heap_boxes_500.json");
  REQUIRE(heap);
  CHECK(heap->settings.dt == 1.0 / 60.0);  // the file's own key, read exactly
}

TEST_CASE("the heap generator follows the benchmark recipe", "[scene]") {
  std::vector<BodyDef> boxes, hulls;
  appendHeap(boxes, false, 250, 1);
  appendHeap(hulls, true, 250, 1);
  REQUIRE(boxes.size() == 251);
  REQUIRE(hulls.size() == 251);
  CHECK(boxes[0].type == BodyType::Static);
  CHECK_THAT(boxes[0].shape.hull()->boundsMax().y + boxes[0].position.y, WithinAbs(0.0, 1e-12));
  for (size_t i = 1; i < boxes.size(); ++i) {
    const int n = static_cast<int>(i) - 1, layer = n / 100;
    CHECK_THAT(boxes[i].position.y, WithinAbs(1.0 + 1.5 * layer, 1e-12));
    const Real shift = layer % 2 ? 0.75 : 0.0;
    CHECK(std::abs(boxes[i].position.x - ((n % 10 - 4.5) * 1.5 + shift)) <= 0.1);
    CHECK_THAT(boxes[i].shape.hull()->massProperties(boxes[i].density).mass, WithinAbs(1.0, 1e-9));
    CHECK_THAT(hulls[i].shape.hull()->massProperties(hulls[i].density).mass, WithinAbs(1.0, 1e-9));
    CHECK(hulls[i].shape.hull()->vertices().size() <= 20);
  }
  CHECK(hulls[1].shape.hull() != hulls[2].shape.hull());  // a different hull per body
}

TEST_CASE("scene errors name the JSON path", "[scene]") {
  auto e1 = parse(R"({"bodies": [{"shape": "box"}, {"shape": "box", "positon": [0, 1, 0]}]})");
  REQUIRE_FALSE(e1);
  CHECK_THAT(e1.error(), Contains("bodies[1].positon: unknown key"));
  auto e2 = parse(R"({"bodies": [{"shape": "box", "position": [0, "x", 0]}]})");
  REQUIRE_FALSE(e2);
  CHECK_THAT(e2.error(), Contains("bodies[0].position[1]: expected a number"));
  auto e3 = parse(R"({"settings": {"solver.substeps": 0}})");
  REQUIRE_FALSE(e3);
  CHECK_THAT(e3.error(), Contains("settings.solver.substeps"));
  auto e4 = parse(R"({"settings": {"gravty": [0, -1, 0]}})");
  REQUIRE_FALSE(e4);
  CHECK_THAT(e4.error(), Contains("settings.gravty: unknown settings key"));
  auto e5 = parse(R"({"bodies": [{"shape": "no_such_shape"}]})");
  REQUIRE_FALSE(e5);
  CHECK_THAT(e5.error(), Contains("bodies[0].shape: unknown shape"));
  auto e6 = parse(R"({"generators": [{"type": "tower", "count": "many"}]})");
  REQUIRE_FALSE(e6);
  CHECK_THAT(e6.error(), Contains("generators[0].count: expected an integer"));
  auto e7 = parse(R"({"generators": [{"type": "spiral"}]})");
  REQUIRE_FALSE(e7);
  CHECK_THAT(e7.error(), Contains("generators[0].type: unknown generator"));
  auto e8 = parse("{\"bodies\": [\n{\"shape\": \"box\",}\n]}");
  REQUIRE_FALSE(e8);
  CHECK_THAT(e8.error(), Contains("test.json:2: invalid JSON"));
  auto e9 = parse(R"({"bodies": [{"shape": [[0,0,0],[1,0,0],[0,1,0]]}]})");
  REQUIRE_FALSE(e9);
  CHECK_THAT(e9.error(), Contains("bodies[0].shape: not a solid convex shape"));
  auto e10 = parse(R"({"bodies": [{"shape": "box", "friction": 11}]})");
  REQUIRE_FALSE(e10);
  CHECK_THAT(e10.error(), Contains("bodies[0].friction: out of range [0, 10]"));
}

TEST_CASE("scene values reach the bodies and settings", "[scene]") {
  auto s =
      parse(R"({"settings": {"gravity": [0, -3, 0], "crosscheck": "sample", "sleep.enabled": false,
                                  "solver.velocity_iterations": 7},
                     "shapes": {"wedge": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]},
                     "bodies": [{"shape": "wedge", "scale": 2, "position": [1, 2, 3], "orientation": [2, 0, 0, 0],
                                 "mass": 5, "restitution": 0.25, "type": "kinematic"},
                                {"shape": "box", "static": true}]})");
  REQUIRE(s);
  CHECK_THAT(s->settings.gravity.y, WithinAbs(-3.0, 1e-15));
  CHECK(s->settings.crosscheck == CrossCheckMode::Sample);
  CHECK_FALSE(s->settings.sleep.enabled);
  CHECK(s->settings.solver.velocityIterations == 7);
  REQUIRE(s->bodies.size() == 2);
  CHECK(s->bodies[0].type == BodyType::Kinematic);
  CHECK_THAT(s->bodies[0].shape.hull()->boundsMax().x, WithinAbs(2.0, 1e-12));
  CHECK_THAT(s->bodies[0].orientation.w, WithinAbs(1.0, 1e-15));
  CHECK_THAT(s->bodies[0].shape.hull()->massProperties(s->bodies[0].density).mass,
             WithinAbs(5.0, 1e-9));
  CHECK(s->bodies[1].type == BodyType::Static);
}

namespace {

// Box3D's box of half extent `h` is a 1 m cube here (assets/shapes/box.json) scaled by 2 h.
void checkBox3dBody(const BodyDef& b, float x, float y, float z) {
  CHECK(b.type == BodyType::Dynamic);
  CHECK_THAT(b.position.x, WithinAbs(x, 1e-6));
  CHECK_THAT(b.position.y, WithinAbs(y, 1e-6));
  CHECK_THAT(b.position.z, WithinAbs(z, 1e-6));
  CHECK_THAT(b.shape.hull()->boundsMax().x, WithinAbs(0.5, 1e-12));
  CHECK_THAT(b.shape.hull()->boundsMin().y, WithinAbs(-0.5, 1e-12));
  CHECK(b.density == 100.0);
  CHECK(b.friction == 0.6);
}

void checkBox3dWorld(const Scene& s, float groundHalf) {
  CHECK(s.settings.gravity == Vec3(0.0, -10.0, 0.0));
  CHECK_FALSE(s.settings.sleep.enabled);
  CHECK(s.settings.dt == 1.0 / 60.0);
  const BodyDef& ground = s.bodies[0];
  CHECK(ground.type == BodyType::Static);
  CHECK_THAT(ground.position.y + ground.shape.hull()->boundsMax().y, WithinAbs(0.0, 1e-12));
  CHECK_THAT(ground.position.y + ground.shape.hull()->boundsMin().y, WithinAbs(-2.0, 1e-12));
  CHECK_THAT(ground.shape.hull()->boundsMax().x, WithinAbs(groundHalf, 1e-12));
  CHECK_THAT(ground.shape.hull()->boundsMin().z, WithinAbs(-groundHalf, 1e-12));
  CHECK(ground.friction == 0.6);
}

}  // namespace

// The positions below follow Box3D's CreateLargePyramid and CreateManyPyramids
// (erincatto/box3d 30c67b5, shared/benchmarks.c) step by step, in float as Box3D computes them,
// in Box3D's creation order: the scene files must give the same bodies in the same order.
TEST_CASE("large_pyramid and many_pyramids are Box3D's benchmark scenes body for body", "[scene]") {
  auto large = loadScene(kAssets / "scenes" / "large_pyramid.json");
  REQUIRE(large);
  REQUIRE(large->bodies.size() == 1 + 5050);
  checkBox3dWorld(*large, 400.0f);
  {
    const int baseCount = 100;
    const float h = 0.5f, shift = 1.0f * h;
    size_t k = 1;
    for (int i = 0; i < baseCount; ++i) {
      const float y = (2.0f * static_cast<float>(i) + 1.0f) * shift;
      for (int j = i; j < baseCount; ++j, ++k) {
        const float x = (static_cast<float>(i) + 1.0f) * shift +
                        2.0f * static_cast<float>(j - i) * shift - h * baseCount;
        INFO("large_pyramid body " << k);
        checkBox3dBody(large->bodies[k], x, y, 0.0f);
      }
    }
  }

  auto many = loadScene(kAssets / "scenes" / "many_pyramids.json");
  REQUIRE(many);
  REQUIRE(many->bodies.size() == 1 + 10780);
  {
    const int baseCount = 10, rowCount = 14, columnCount = 14;
    const float extent = 0.5f;
    const float groundExtent = extent * columnCount * (baseCount + 1.0f);
    checkBox3dWorld(*many, groundExtent);
    const float baseWidth = 2.0f * extent * baseCount;
    float baseZ = -groundExtent + 2.0f * extent;
    const float deltaZ = 2.0f * (groundExtent - 2.0f * extent) / (rowCount - 1.0f);
    size_t k = 1;
    for (int row = 0; row < rowCount; ++row) {
      for (int column = 0; column < columnCount; ++column) {
        const float centerX = -groundExtent +
                              static_cast<float>(column) * (baseWidth + 2.0f * extent) +
                              2.0f * extent;
        for (int i = 0; i < baseCount; ++i) {
          const float y = (2.0f * static_cast<float>(i) + 1.0f) * extent;
          for (int j = i; j < baseCount; ++j, ++k) {
            const float x = (static_cast<float>(i) + 1.0f) * extent +
                            2.0f * static_cast<float>(j - i) * extent + centerX - 0.5f;
            INFO("many_pyramids body " << k);
            checkBox3dBody(many->bodies[k], x, y, baseZ);
          }
        }
      }
      baseZ += deltaZ;
    }
  }
}
