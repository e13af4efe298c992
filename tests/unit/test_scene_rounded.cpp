// Scene files with rounded hulls: the shape object {"rounded": {"points": [...], "radius": r}} on
// bodies, in the "shapes" section and as a compound's child, its uniform scale and mass, a world
// built from it, and every bad input naming its JSON path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "io/scene_internal.h"
#include "tumble/scene.h"

using namespace tumble;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

const std::filesystem::path kAssets = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets";

Expected<Scene> parse(const std::string& text) {
  return parseScene(text, "test.json", kAssets / "shapes");
}

constexpr const char* kCube =
    R"([[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [-0.5, 0.5, -0.5], [0.5, 0.5, -0.5],
        [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [-0.5, 0.5, 0.5], [0.5, 0.5, 0.5]])";

std::string rounded(Real radius) {
  return std::string(R"({"rounded": {"points": )") + kCube + R"(, "radius": )" +
         std::to_string(radius) + "}}";
}

}  // namespace

TEST_CASE("scene bodies take rounded hull objects, scaled uniformly", "[scene][rounded]") {
  auto s = parse(R"({"bodies": [{"shape": )" + rounded(0.1) + R"(, "position": [0, 2, 0]},
      {"shape": )" +
                 rounded(0.1) + R"(, "scale": 2, "density": 300},
      {"shape": )" +
                 rounded(0.05) + R"(, "mass": 3}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3);
  const auto& b = s->bodies;
  const Shape expected = *makeRoundedHull(
      std::vector<Vec3>{Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5), Vec3(-0.5, 0.5, -0.5),
                        Vec3(0.5, -0.5, -0.5), Vec3(-0.5, -0.5, 0.5), Vec3(0.5, -0.5, 0.5),
                        Vec3(-0.5, 0.5, 0.5), Vec3(0.5, 0.5, -0.5)},
      0.1);
  REQUIRE(b[0].shape.type() == ShapeType::RoundedHull);
  CHECK(b[0].shape.roundRadius() == 0.1);
  CHECK(b[0].shape.coreHull()->vertices().size() == 8);
  CHECK_THAT(b[0].shape.massProperties(1.0).volume,
             WithinRel(expected.massProperties(1.0).volume, 1e-12));
  // Scale 2: points and radius doubled, the volume 8 times.
  CHECK(b[1].shape.roundRadius() == 0.2);
  CHECK(b[1].shape.coreHull()->boundsMax() == Vec3(1.0));
  CHECK_THAT(b[1].shape.massProperties(1.0).volume,
             WithinRel(8.0 * expected.massProperties(1.0).volume, 1e-12));
  CHECK(b[1].density == 300.0);
  // "mass" sets the density from the exact volume.
  CHECK_THAT(b[2].shape.massProperties(b[2].density).mass, WithinRel(3.0, 1e-12));
}

TEST_CASE("a rounded hull is a named shape and a compound's child", "[scene][rounded]") {
  auto s = parse(R"({"shapes": {"pebble": )" + rounded(0.1) + R"(},
      "bodies": [{"shape": "pebble"}, {"shape": "pebble", "scale": 3},
                 {"shape": {"compound": [{"shape": "pebble", "position": [1, 0, 0]},
                                         {"shape": )" +
                 rounded(0.2) + R"(}]}, "scale": 0.5}]})");
  REQUIRE(s);
  const auto& b = s->bodies;
  CHECK(b[0].shape.type() == ShapeType::RoundedHull);
  CHECK_THAT(b[1].shape.roundRadius(), WithinRel(0.3, 1e-15));
  REQUIRE(b[2].shape.type() == ShapeType::Compound);
  const Compound& c = *b[2].shape.compound();
  REQUIRE(c.children.size() == 2);
  CHECK(c.children[0].shape.type() == ShapeType::RoundedHull);
  CHECK_THAT(c.children[0].shape.roundRadius(), WithinRel(0.05, 1e-15));
  CHECK_THAT(c.children[0].local.position.x, WithinAbs(0.5, 1e-15));
  CHECK_THAT(c.children[1].shape.roundRadius(), WithinRel(0.1, 1e-15));
}

TEST_CASE("a rounded box from a scene file rests on the ground", "[scene][rounded]") {
  auto s = parse(R"({"bodies": [
      {"shape": "box", "scale": [20, 1, 20], "position": [0, -0.5, 0], "static": true},
      {"shape": )" +
                 rounded(0.05) + R"(, "position": [0, 0.8, 0]}]})");
  REQUIRE(s);
  auto world = buildWorld(*s);
  REQUIRE(world);
  World& w = **world;
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(1.0 / 60.0).ok());
  const std::vector<BodyId> ids = w.bodyIds();
  CHECK_THAT(w.body(ids[1])->centerOfMass.y, WithinAbs(0.55, 1e-3));
}

TEST_CASE("bad rounded hull input names the JSON path", "[scene][rounded]") {
  const std::string cube = kCube;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"bodies": [{"shape": {"rounded": {"points": )" + cube + R"(, "radius": 0}}}]})",
       "bodies[0].shape.rounded.radius: expected a number > 0 (m), got 0"},
      {R"({"bodies": [{"shape": {"rounded": {"points": )" + cube + R"(, "radius": -1}}}]})",
       "bodies[0].shape.rounded.radius: expected a number > 0 (m), got -1"},
      {R"({"bodies": [{"shape": {"rounded": {"points": )" + cube + R"(}}}]})",
       "bodies[0].shape.rounded.radius: missing (a number > 0, m)"},
      {R"({"bodies": [{"shape": {"rounded": {"points": )" + cube + R"(, "radius": "1"}}}]})",
       "bodies[0].shape.rounded.radius: expected a number, got a string"},
      {R"({"bodies": [{"shape": {"rounded": {"radius": 0.1}}}]})",
       "bodies[0].shape.rounded.points: missing ([[x, y, z], ...], at least 4 points, m)"},
      {R"({"bodies": [{"shape": {"rounded": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
                                             "radius": 0.1}}}]})",
       "bodies[0].shape.rounded.points: expected at least 4 points (a solid core), got 3"},
      {R"({"bodies": [{"shape": {"rounded": {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
                                             "radius": 0.1}}}]})",
       "bodies[0].shape.rounded.points: not a solid convex shape: convex hull: all 4 points are "
       "coplanar"},
      {R"({"bodies": [{"shape": {"rounded": {"points": 5, "radius": 0.1}}}]})",
       "bodies[0].shape.rounded.points: expected a non-empty array of [x, y, z] points"},
      {R"({"bodies": [{"shape": {"rounded": {"points": [[0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
                                             "radius": 0.1}}}]})",
       "bodies[0].shape.rounded.points[0]: expected [x, y, z]"},
      {R"({"bodies": [{"shape": {"rounded": {"points": )" + cube +
           R"(, "radius": 0.1, "half_height": 1}}}]})",
       "bodies[0].shape.rounded.half_height: unknown key"},
      {R"({"bodies": [{"shape": {"rounded": [1, 2]}}]})",
       "bodies[0].shape.rounded: expected an object, got an array"},
      {R"({"bodies": [{"shape": )" + rounded(0.1) + R"(, "scale": [1, 2, 1]}]})",
       "bodies[0].scale: a rounded hull takes a uniform scale (a number or three equal numbers), "
       "got "
       "[1, 2, 1]"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": {"rounded": {"points": )" + cube +
           R"(, "radius": -2}}}]}}]})",
       "bodies[0].shape.compound[0].shape.rounded.radius: expected a number > 0 (m), got -2"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    auto s = parse(text);
    REQUIRE_FALSE(s);
    CHECK(s.error().rfind("test.json: " + expected, 0) == 0);
  }
  // A JSON value built in memory can hold a non-finite radius: the reader names its path.
  for (const Real bad :
       {std::numeric_limits<Real>::quiet_NaN(), std::numeric_limits<Real>::infinity()}) {
    const scene::Json j = {
        {"rounded", {{"points", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, {"radius", bad}}}};
    CHECK_THROWS_WITH(scene::shapeSpec(j, "bodies[0].shape"),
                      "bodies[0].shape.rounded.radius: expected a finite number");
  }
}
