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
