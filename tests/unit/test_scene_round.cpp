// Scene files with spheres and capsules: the shape objects {"sphere": {...}} and
// {"capsule": {...}} on bodies, in the "shapes" section and through generators, their scale and
// mass, and every bad input naming its JSON path.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "io/scene_internal.h"
#include "tumble/scene.h"

using namespace tumble;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

const std::filesystem::path kAssets = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets";

Expected<Scene> parse(const std::string& text) {
  return parseScene(text, "test.json", kAssets / "shapes");
}

Real sphereVolume(Real r) {
  return 4.0 / 3.0 * std::numbers::pi * r * r * r;
}

Real capsuleVolume(Real r, Real h) {
  return std::numbers::pi * r * r * 2.0 * h + sphereVolume(r);
}

void checkSphere(const Shape& s, Real radius) {
  REQUIRE(s.type() == ShapeType::Sphere);
  CHECK(s.hull() == nullptr);
  REQUIRE(s.round() != nullptr);
  CHECK(s.round()->count == 1);
  CHECK(s.roundRadius() == radius);
  CHECK(s.round()->points[0] == Vec3(0.0));
}

void checkCapsule(const Shape& s, Real radius, Real halfHeight) {
  REQUIRE(s.type() == ShapeType::Capsule);
  CHECK(s.hull() == nullptr);
  REQUIRE(s.round() != nullptr);
  CHECK(s.round()->count == 2);
  CHECK(s.roundRadius() == radius);
  CHECK(s.round()->points[0] == Vec3(0.0, -halfHeight, 0.0));
  CHECK(s.round()->points[1] == Vec3(0.0, halfHeight, 0.0));
}

}  // namespace

TEST_CASE("scene bodies take sphere and capsule objects", "[scene][round]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"sphere": {"radius": 0.5}}, "position": [0, 3, 0]},
      {"shape": {"capsule": {"radius": 0.25, "half_height": 0.75}}, "density": 200},
      {"shape": {"capsule": {"radius": 0.3, "half_height": 0}}},
      {"shape": {"sphere": {"radius": 0.5}}, "mass": 2},
      {"shape": {"capsule": {"radius": 0.2, "half_height": 1.5}}, "mass": 7, "static": true},
      {"shape": "box", "position": [0, -0.5, 0], "static": true}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 6);
  const auto& b = s->bodies;

  checkSphere(b[0].shape, 0.5);
  CHECK(b[0].position == Vec3(0.0, 3.0, 0.0));
  CHECK(b[0].density == 1000.0);  // the default
  CHECK_THAT(b[0].shape.massProperties(b[0].density).mass,
             WithinRel(1000.0 * sphereVolume(0.5), 1e-12));

  checkCapsule(b[1].shape, 0.25, 0.75);
  CHECK(b[1].density == 200.0);
  CHECK_THAT(b[1].shape.massProperties(b[1].density).mass,
             WithinRel(200.0 * capsuleVolume(0.25, 0.75), 1e-12));
  // Total height 2 (h + r), along y.
  const Aabb box = b[1].shape.bounds(Transform{});
  CHECK_THAT(box.upper.y - box.lower.y, WithinAbs(2.0, 1e-15));
  CHECK_THAT(box.upper.x - box.lower.x, WithinAbs(0.5, 1e-15));

  checkCapsule(b[2].shape, 0.3, 0.0);  // half_height 0 is allowed: a capsule of a sphere's shape

  // "mass" sets the density from the shape's volume, for every kind.
  CHECK_THAT(b[3].density, WithinRel(2.0 / sphereVolume(0.5), 1e-12));
  CHECK_THAT(b[3].shape.massProperties(b[3].density).mass, WithinRel(2.0, 1e-12));
  CHECK(b[4].type == BodyType::Static);
  CHECK_THAT(b[4].density, WithinRel(7.0 / capsuleVolume(0.2, 1.5), 1e-12));

  CHECK(b[5].shape.type() == ShapeType::Hull);
  CHECK(b[5].shape.hull() != nullptr);
}

TEST_CASE("scene bodies take cylinder objects, scaled and in compounds", "[scene][round]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"cylinder": {"radius": 0.4, "half_height": 0.3}}, "mass": 3},
      {"shape": {"cylinder": {"radius": 0.2, "half_height": 1}}, "scale": 2},
      {"shape": {"compound": [{"shape": {"cylinder": {"radius": 0.1, "half_height": 0.5}}},
                              {"shape": {"cylinder": {"radius": 0.5, "half_height": 0.05}},
                               "position": [0, 0.55, 0]}]}}]})");
  REQUIRE(s);
  const auto& b = s->bodies;
  REQUIRE(b[0].shape.type() == ShapeType::Cylinder);
  CHECK(b[0].shape.cylinder()->support.radius == 0.4);
  CHECK(b[0].shape.cylinder()->support.halfHeight == 0.3);
  const Real volume = std::numbers::pi * 0.4 * 0.4 * 0.6;
  CHECK_THAT(b[0].density, WithinRel(3.0 / volume, 1e-12));
  CHECK_THAT(b[0].shape.massProperties(b[0].density).mass, WithinRel(3.0, 1e-12));
  // The scale multiplies both sizes.
  CHECK(b[1].shape.cylinder()->support.radius == 0.4);
  CHECK(b[1].shape.cylinder()->support.halfHeight == 2.0);
  REQUIRE(b[2].shape.type() == ShapeType::Compound);
  CHECK(b[2].shape.compound()->children[1].shape.type() == ShapeType::Cylinder);
  CHECK_THAT(b[2].shape.massProperties(1.0).volume,
             WithinRel(std::numbers::pi * (0.01 * 1.0 + 0.25 * 0.1), 1e-12));
}

TEST_CASE("a scene's shapes section names spheres and capsules", "[scene][round]") {
  auto s = parse(R"({"shapes": {"ball": {"sphere": {"radius": 0.5}},
                                "pill": {"capsule": {"radius": 0.25, "half_height": 0.5}},
                                "wedge": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]},
                     "bodies": [{"shape": "ball"}, {"shape": "ball"},
                                {"shape": "ball", "scale": 3},
                                {"shape": "pill", "scale": [2, 2, 2]},
                                {"shape": "wedge", "scale": [1, 2, 3]},
                                {"shape": {"capsule": {"radius": 1, "half_height": 2}}, "scale": 0.5}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 6);
  const auto& b = s->bodies;
  checkSphere(b[0].shape, 0.5);
  // One name and scale: one shape, shared.
  CHECK(b[0].shape.round() == b[1].shape.round());
  // A uniform scale multiplies the radius and the half height.
  checkSphere(b[2].shape, 1.5);
  CHECK(b[2].shape.round() != b[0].shape.round());
  checkCapsule(b[3].shape, 0.5, 1.0);
  CHECK_THAT(b[3].shape.massProperties(b[3].density).mass,
             WithinRel(1000.0 * capsuleVolume(0.5, 1.0), 1e-12));
  // Hulls still take any positive scale.
  REQUIRE(b[4].shape.hull() != nullptr);
  CHECK_THAT(b[4].shape.hull()->boundsMax().z, WithinAbs(3.0, 1e-12));
  checkCapsule(b[5].shape, 0.5, 1.0);
}

TEST_CASE("generators stack named spheres and capsules by their bounds", "[scene][round]") {
  auto s = parse(R"({"shapes": {"ball": {"sphere": {"radius": 0.5}},
                                "pill": {"capsule": {"radius": 0.25, "half_height": 0.5}}},
                     "generators": [
                       {"type": "tower", "shape": "ball", "count": 3, "origin": [1, 0, 0]},
                       {"type": "tower", "shape": "pill", "scale": 2, "count": 2, "gap": 0.1, "mass": 3},
                       {"type": "pyramid", "shape": "ball", "count": 2},
                       {"type": "pile", "shapes": ["ball", "pill"], "count": 6}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3 + 2 + 3 + 6);
  const auto& b = s->bodies;
  // A ball of radius 0.5 from y = 0: centres at 0.5, 1.5, 2.5.
  for (int i = 0; i < 3; ++i) {
    checkSphere(b[i].shape, 0.5);
    CHECK_THAT(b[i].position.x, WithinAbs(1.0, 1e-15));
    CHECK_THAT(b[i].position.y, WithinAbs(0.5 + i, 1e-12));
  }
  // Capsules scaled 2: radius 0.5, half height 1, height 3, pitch 3.1.
  for (int i = 3; i < 5; ++i) {
    checkCapsule(b[i].shape, 0.5, 1.0);
    CHECK_THAT(b[i].position.y, WithinAbs(1.5 + (i - 3) * 3.1, 1e-12));
    CHECK_THAT(b[i].shape.massProperties(b[i].density).mass, WithinRel(3.0, 1e-12));
  }
  // The pyramid's default spacing is 1.05 widths: 1.05 m for a 1 m ball.
  CHECK_THAT(b[6].position.x - b[5].position.x, WithinAbs(1.05, 1e-12));
  CHECK_THAT(b[7].position.y, WithinAbs(1.5, 1e-12));
  int spheres = 0, capsules = 0;
  for (size_t i = 8; i < b.size(); ++i) {
    spheres += b[i].shape.type() == ShapeType::Sphere;
    capsules += b[i].shape.type() == ShapeType::Capsule;
  }
  CHECK(spheres + capsules == 6);
}

TEST_CASE("a scene with spheres and capsules builds a world that steps", "[scene][round]") {
  auto s = parse(R"({"bodies": [
      {"shape": "box", "scale": [20, 1, 20], "position": [0, -0.5, 0], "static": true},
      {"shape": {"sphere": {"radius": 0.5}}, "position": [0, 0.5, 0], "mass": 4},
      {"shape": {"capsule": {"radius": 0.25, "half_height": 0.5}}, "position": [3, 0.25, 0],
       "orientation": [0.7071067811865476, 0, 0, 0.7071067811865476]}]})");
  REQUIRE(s);
  auto world = buildWorld(*s);
  REQUIRE(world);
  World& w = **world;
  REQUIRE(w.bodyCount() == 3);
  const std::vector<BodyId> ids = w.bodyIds();
  CHECK_THAT(w.body(ids[1])->mass, WithinRel(4.0, 1e-12));
  CHECK_THAT(w.body(ids[2])->mass, WithinRel(1000.0 * capsuleVolume(0.25, 0.5), 1e-12));
  for (int i = 0; i < 30; ++i) REQUIRE(w.step(1.0 / 60.0).ok());
  // Resting on the ground: the ball's centre stays at its radius, the lying capsule's at its own.
  CHECK_THAT(w.body(ids[1])->centerOfMass.y, WithinAbs(0.5, 0.01));
  CHECK_THAT(w.body(ids[2])->centerOfMass.y, WithinAbs(0.25, 0.01));
}

TEST_CASE("bad sphere and capsule input names the JSON path", "[scene][round]") {
  const std::string kinds =
      R"([[x, y, z], ...] or {"<kind>": {...}} with kind sphere, capsule, cylinder, rounded, compound, mesh or heightfield)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"bodies": [{"shape": {"sphere": {"radius": 0}}}]})",
       "bodies[0].shape.sphere.radius: expected a number > 0 (m), got 0"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": -0.5}}}]})",
       "bodies[0].shape.sphere.radius: expected a number > 0 (m), got -0.5"},
      {R"({"bodies": [{"shape": {"sphere": {}}}]})",
       "bodies[0].shape.sphere.radius: missing (a number > 0, m)"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": "1"}}}]})",
       "bodies[0].shape.sphere.radius: expected a number, got a string"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": 1, "half_height": 1}}}]})",
       "bodies[0].shape.sphere.half_height: unknown key"},
      {R"({"bodies": [{"shape": {"sphere": 0.5}}]})",
       "bodies[0].shape.sphere: expected an object, got a number"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 0.5, "half_height": -1}}}]})",
       "bodies[0].shape.capsule.half_height: expected a number >= 0 (m), got -1"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 0.5}}}]})",
       "bodies[0].shape.capsule.half_height: missing (a number >= 0, m)"},
      {R"({"bodies": [{"shape": {"capsule": {"half_height": 1}}}]})",
       "bodies[0].shape.capsule.radius: missing (a number > 0, m)"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 0, "half_height": 1}}}]})",
       "bodies[0].shape.capsule.radius: expected a number > 0 (m), got 0"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 1, "height": 1}}}]})",
       "bodies[0].shape.capsule.height: unknown key"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 1, "half_height": [1]}}}]})",
       "bodies[0].shape.capsule.half_height: expected a number, got an array"},
      {R"({"bodies": [{"shape": {}}]})",
       "bodies[0].shape: expected one key, the shape kind (sphere, capsule, cylinder, rounded, "
       "compound, "
       "mesh or "
       "heightfield), got an empty object"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": 1}, "capsule": {"radius": 1}}}]})",
       "bodies[0].shape: expected one key, the shape kind (sphere, capsule, cylinder, rounded, "
       "compound, "
       "mesh or "
       "heightfield), got 2 keys (capsule, sphere)"},
      {R"({"bodies": [{"shape": {"cone": {"radius": 1, "half_height": 1}}}]})",
       "bodies[0].shape.cone: unknown shape kind (expected sphere, capsule, cylinder, rounded, "
       "compound, "
       "mesh or "
       "heightfield)"},
      {R"({"bodies": [{"shape": 3}]})",
       "bodies[0].shape: expected a shape name, " + kinds + ", got a number"},
      {R"({"bodies": [{"shape": null}]})",
       "bodies[0].shape: expected a shape name, " + kinds + ", got null"},
      {R"({"bodies": [{"position": [0, 0, 0]}]})",
       "bodies[0].shape: missing (a shape name, " + kinds + ")"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": 1}}, "scale": [1, 2, 1]}]})",
       "bodies[0].scale: a sphere takes a uniform scale (a number or three equal numbers), got "
       "[1, 2, 1]"},
      {R"({"shapes": {"pill": {"capsule": {"radius": 1, "half_height": 1}}},
           "bodies": [{"shape": "box"}, {"shape": "pill", "scale": [2, 2, 1]}]})",
       "bodies[1].scale: a capsule takes a uniform scale (a number or three equal numbers), got "
       "[2, 2, 1]"},
      {R"({"shapes": {"ball": {"sphere": {"radius": 1}}},
           "generators": [{"type": "tower", "shape": "ball", "scale": [1, 1, 2]}]})",
       "generators[0].scale: a sphere takes a uniform scale (a number or three equal numbers), "
       "got [1, 1, 2]"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": 1e300}}, "scale": 1e300}]})",
       "bodies[0].shape: radius 1e+300 times scale 1e+300 is not a finite length"},
      {R"({"bodies": [{"shape": {"capsule": {"radius": 1, "half_height": 1e300}}, "scale": 1e10}]})",
       "bodies[0].shape: half_height 1e+300 times scale 1e+10 is not a finite length"},
      {R"({"bodies": [{"shape": {"sphere": {"radius": 1e-120}}, "mass": 1}]})",
       "bodies[0].mass: the shape's volume (0 m^3) is too small to give it a mass of 1 kg"},
      {R"({"shapes": {"ball": {"sphere": {"radius": -1}}}})",
       "shapes.ball.sphere.radius: expected a number > 0 (m), got -1"},
      {R"({"shapes": {"ball": "sphere"}})", "shapes.ball: expected " + kinds + ", got a string"},
      {R"({"shapes": {"ball": {"sphere": {"radius": 1}, "extra": 1}}})",
       "shapes.ball: expected one key, the shape kind (sphere, capsule, cylinder, rounded, "
       "compound, mesh "
       "or "
       "heightfield), got 2 keys (extra, sphere)"},
      {R"({"shapes": {"thing": {"mesh": {}}}})",
       "shapes.thing.mesh: missing \"file\" (an OBJ file in assets/meshes) or \"vertices\" "
       "([[x, y, z], ...] with \"triangles\")"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    auto s = parse(text);
    REQUIRE_FALSE(s);
    CHECK(s.error() == "test.json: " + expected);
  }
}

TEST_CASE("a kind written as a shape name points to the shape object", "[scene][round]") {
  // A folder without shape files (assets/shapes has a hull named "capsule", which a name means).
  const auto noShapes = kAssets / "no_shapes_here";
  auto s = parseScene(R"({"bodies": [{"shape": "capsule"}]})", "test.json", noShapes);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), StartsWith("test.json: bodies[0].shape: unknown shape \"capsule\" (no "));
  CHECK_THAT(s.error(), EndsWith(" and no inline shape; a capsule is an object, "
                                 "{\"capsule\": {...}})"));
  // A name that is no kind gets no hint.
  auto t = parseScene(R"({"bodies": [{"shape": "cone"}]})", "test.json", noShapes);
  REQUIRE_FALSE(t);
  CHECK_THAT(t.error(), EndsWith(" and no inline shape)"));
  // With the shape library, "capsule" is its hull: names and kinds do not mix.
  auto u = parse(R"({"bodies": [{"shape": "capsule"}]})");
  REQUIRE(u);
  CHECK(u->bodies[0].shape.type() == ShapeType::Hull);
}

TEST_CASE("a non-finite radius is refused, by the JSON parser or naming the path",
          "[scene][round]") {
  // JSON text has no NaN or infinity: an overflowing number is the parser's error.
  auto s = parse(R"({"bodies": [{"shape": {"sphere": {"radius": 1e999}}}]})");
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), Contains("test.json: invalid JSON: number overflow parsing '1e999'"));
  // A JSON value built in memory can hold one: the reader names its path.
  for (const Real bad :
       {std::numeric_limits<Real>::quiet_NaN(), std::numeric_limits<Real>::infinity()}) {
    const scene::Json sphere = {{"sphere", {{"radius", bad}}}};
    CHECK_THROWS_WITH(scene::shapeSpec(sphere, "bodies[0].shape"),
                      "bodies[0].shape.sphere.radius: expected a finite number");
    const scene::Json capsule = {{"capsule", {{"radius", 1.0}, {"half_height", bad}}}};
    CHECK_THROWS_WITH(scene::shapeSpec(capsule, "shapes.pill"),
                      "shapes.pill.capsule.half_height: expected a finite number");
  }
}

TEST_CASE("rolling_resistance reaches bodies and generators, and a bad one names its path",
          "[scene][round][rolling]") {
  auto s = parse(R"({"shapes": {"ball": {"sphere": {"radius": 0.2}}}, "bodies": [
      {"shape": "box", "scale": [20, 1, 20], "position": [0, -0.5, 0], "static": true},
      {"shape": {"sphere": {"radius": 0.5}}, "position": [0, 0.5, 0], "rolling_resistance": 0.05},
      {"shape": {"sphere": {"radius": 0.5}}, "position": [2, 0.5, 0]}],
      "generators": [{"type": "tower", "shape": "ball", "count": 2,
                      "origin": [5, 0, 0], "rolling_resistance": 0.2}]})");
  INFO((s ? std::string() : s.error()));
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 5);
  CHECK(s->bodies[0].rollingResistance == 0.0);
  CHECK(s->bodies[1].rollingResistance == 0.05);
  CHECK(s->bodies[2].rollingResistance == 0.0);  // the default
  CHECK(s->bodies[3].rollingResistance == 0.2);
  CHECK(s->bodies[4].rollingResistance == 0.2);
  auto world = buildWorld(*s);
  REQUIRE(world);
  CHECK((**world).body((**world).bodyIds()[1])->rollingResistance == 0.05);

  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"bodies": [{"shape": "box", "rolling_resistance": -0.1}]})",
       "bodies[0].rolling_resistance: expected a finite number >= 0, got -0.1"},
      {R"({"bodies": [{"shape": "box", "rolling_resistance": "low"}]})",
       "bodies[0].rolling_resistance: expected a number, got a string"},
      {R"({"generators": [{"type": "grid", "count": [1, 1, 1], "rolling_resistance": -2}]})",
       "generators[0].rolling_resistance: expected a finite number >= 0, got -2"}};
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    auto e = parse(text);
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error(), EndsWith(message));
  }
}

TEST_CASE("body options reach the bodies, and a bad one names its path",
          "[scene][round][body_options]") {
  auto s = parse(R"({"bodies": [
      {"shape": "box", "linear_damping": 0.5, "angular_damping": 2, "gravity_scale": -0.25,
       "lock": {"translation": [true, false, true], "rotation": [false, true, false]},
       "bullet": true},
      {"shape": "box", "position": [3, 0, 0], "lock": {"rotation": [true, true, true]}},
      {"shape": "box", "position": [6, 0, 0]}]})");
  INFO((s ? std::string() : s.error()));
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3);
  const BodyDef& a = s->bodies[0];
  CHECK(a.linearDamping == 0.5);
  CHECK(a.angularDamping == 2.0);
  CHECK(a.gravityScale == -0.25);
  CHECK((a.lockTranslation[0] && !a.lockTranslation[1] && a.lockTranslation[2]));
  CHECK((!a.lockRotation[0] && a.lockRotation[1] && !a.lockRotation[2]));
  CHECK(a.bullet);
  CHECK((s->bodies[1].lockRotation[0] && !s->bodies[1].lockTranslation[0]));
  const BodyDef& c = s->bodies[2];  // the defaults
  CHECK((c.linearDamping == 0.0 && c.angularDamping == 0.0 && c.gravityScale == 1.0));
  CHECK((!c.lockTranslation[1] && !c.lockRotation[1] && !c.bullet));
  auto world = buildWorld(*s);
  REQUIRE(world);
  const BodyView v = *(**world).body((**world).bodyIds()[0]);
  CHECK((v.gravityScale == -0.25 && v.bullet && v.lockTranslation[2] && v.lockRotation[1]));

  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"bodies": [{"shape": "box", "linear_damping": -1}]})",
       "bodies[0].linear_damping: expected a finite number >= 0 (1/s), got -1"},
      {R"({"bodies": [{"shape": "box", "angular_damping": "x"}]})",
       "bodies[0].angular_damping: expected a number, got a string"},
      {R"({"bodies": [{"shape": "box"}, {"shape": "box", "lock": {"rotation": [0, 0, 0]}}]})",
       "bodies[1].lock.rotation[0]: expected true or false, got a number"},
      {R"({"bodies": [{"shape": "box", "lock": {"translation": [true]}}]})",
       "bodies[0].lock.translation: expected [x, y, z] of true or false, got 1 values"},
      {R"({"bodies": [{"shape": "box", "bullet": 1}]})",
       "bodies[0].bullet: expected true or false, got a number"},
      {R"({"generators": [{"type": "grid", "count": [1, 1, 1], "bullet": true}]})",
       "generators[0].bullet: unknown key"}};
  for (const auto& [text, message] : cases) {
    CAPTURE(text);
    auto e = parse(text);
    REQUIRE_FALSE(e);
    CHECK_THAT(e.error(), EndsWith(message));
  }
}
