// Scene files with compounds, meshes and height fields: the shape objects {"compound": [...]},
// {"mesh": {...}} and {"heightfield": {...}} on bodies and in "shapes", their files (tests/data's
// meshes and heightfields folders, assets/meshes/level.obj), scale and mass, and every bad input
// naming its JSON path.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
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

namespace fs = std::filesystem;

const fs::path kSource = TUMBLE_SOURCE_DIR;
const fs::path kAssets = kSource / "assets";
// Named shapes from assets/shapes; files from tests/data (floor_wall.obj, hills.png).
const SceneDirs kDirs{kAssets / "shapes", kSource / "tests" / "data" / "meshes",
                      kSource / "tests" / "data" / "heightfields"};

Expected<Scene> parse(const std::string& text) {
  return parseScene(text, "test.json", kDirs);
}

Real sphereVolume(Real r) {
  return 4.0 / 3.0 * std::numbers::pi * r * r * r;
}

bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// |a - b| (the largest double when either is not finite, so that a comparison never meets a NaN).
Real gap(const Vec3& a, const Vec3& b) {
  if (!finite(a) || !finite(b)) return std::numeric_limits<Real>::max();
  return glm::length(a - b);
}

Real quatDistance(const Quat& a, const Quat& b) {
  return std::abs(a.w - b.w) + std::abs(a.x - b.x) + std::abs(a.y - b.y) + std::abs(a.z - b.z);
}

// The grey levels of tests/data/heightfields/hills.png: 3 columns x 2 rows.
constexpr int kHillsGrey[2][3] = {{0, 51, 102}, {153, 204, 255}};

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(TUMBLE_BINARY_DIR) / "test_scene_kinds" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void writeText(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

}  // namespace

TEST_CASE("a compound takes named, inline and round children with poses", "[scene][kinds]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"compound": [
         {"shape": "box", "position": [0, 0.5, 0]},
         {"shape": {"sphere": {"radius": 0.5}}, "position": [2, 0.5, 0],
          "orientation": [1, 0, 0, 1]},
         {"shape": {"capsule": {"radius": 0.25, "half_height": 0.5}}, "orientation": [0, 0, 0, 2]},
         {"shape": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], "position": [-3, 0, 1]}]},
       "position": [0, 4, 0], "density": 500}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 1);
  const BodyDef& b = s->bodies[0];
  CHECK(b.type == BodyType::Dynamic);
  CHECK(b.position == Vec3(0.0, 4.0, 0.0));
  REQUIRE(b.shape.type() == ShapeType::Compound);
  const Compound* c = b.shape.compound();
  REQUIRE(c != nullptr);
  REQUIRE(c->children.size() == 4);

  // Poses: positions as written (0 when absent), orientations normalised (identity when absent).
  CHECK(c->children[0].shape.type() == ShapeType::Hull);
  CHECK(c->children[0].local.position == Vec3(0.0, 0.5, 0.0));
  CHECK(quatDistance(c->children[0].local.rotation, Quat(1.0, 0.0, 0.0, 0.0)) == 0.0);
  REQUIRE(c->children[0].shape.hull() != nullptr);
  CHECK(c->children[0].shape.hull()->boundsMax() == Vec3(0.5));

  CHECK(c->children[1].shape.type() == ShapeType::Sphere);
  CHECK(c->children[1].shape.roundRadius() == 0.5);
  CHECK(c->children[1].local.position == Vec3(2.0, 0.5, 0.0));
  const Real h = std::sqrt(0.5);
  CHECK(quatDistance(c->children[1].local.rotation, Quat(h, 0.0, 0.0, h)) < 1e-15);

  CHECK(c->children[2].shape.type() == ShapeType::Capsule);
  CHECK(c->children[2].local.position == Vec3(0.0));
  CHECK(quatDistance(c->children[2].local.rotation, Quat(0.0, 0.0, 0.0, 1.0)) < 1e-15);

  CHECK(c->children[3].shape.type() == ShapeType::Hull);
  CHECK(c->children[3].local.position == Vec3(-3.0, 0.0, 1.0));

  // The compound's mass is the sum of its children's at the body's density.
  Real sum = 0.0;
  for (const CompoundChild& child : c->children) sum += child.shape.massProperties(500.0).mass;
  const Real capsuleVolume = std::numbers::pi * 0.25 * 0.25 * 1.0 + sphereVolume(0.25);
  const Real volume = 1.0 + sphereVolume(0.5) + capsuleVolume + 1.0 / 6.0;
  CHECK_THAT(sum, WithinRel(500.0 * volume, 1e-12));
  CHECK_THAT(b.shape.massProperties(b.density).mass, WithinRel(sum, 1e-12));
}

TEST_CASE("a compound's mass sets its density, and its scale moves and sizes its children",
          "[scene][kinds]") {
  auto s = parse(R"({"shapes": {"dumbbell": {"compound": [
                        {"shape": {"sphere": {"radius": 0.25}}, "position": [-1, 0, 0]},
                        {"shape": {"sphere": {"radius": 0.25}}, "position": [1, 0, 0]},
                        {"shape": "box", "orientation": [1, 0, 0, 0]}]}},
                     "bodies": [{"shape": "dumbbell", "mass": 6},
                                {"shape": "dumbbell", "scale": 2},
                                {"shape": "dumbbell", "scale": [2, 2, 2]},
                                {"shape": "dumbbell"}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 4);
  const auto& b = s->bodies;
  const Real volume = 2.0 * sphereVolume(0.25) + 1.0;
  CHECK_THAT(b[0].density, WithinRel(6.0 / volume, 1e-12));
  CHECK_THAT(b[0].shape.massProperties(b[0].density).mass, WithinRel(6.0, 1e-12));
  // One name and scale: one compound, shared.
  CHECK(b[0].shape.compound() == b[3].shape.compound());
  CHECK(b[1].shape.compound() == b[2].shape.compound());
  // Scale 2: positions and sizes doubled, volume 8 times.
  const Compound* c = b[1].shape.compound();
  REQUIRE(c != nullptr);
  REQUIRE(c->children.size() == 3);
  CHECK(c->children[0].local.position == Vec3(-2.0, 0.0, 0.0));
  CHECK(c->children[1].local.position == Vec3(2.0, 0.0, 0.0));
  CHECK(c->children[0].shape.roundRadius() == 0.5);
  REQUIRE(c->children[2].shape.hull() != nullptr);
  CHECK(c->children[2].shape.hull()->boundsMax() == Vec3(1.0));
  CHECK_THAT(b[1].shape.massProperties(1.0).volume, WithinRel(8.0 * volume, 1e-12));
}

TEST_CASE("generators stack named compounds by their bounds", "[scene][kinds]") {
  auto s = parse(R"({"shapes": {"table": {"compound": [
                        {"shape": "box", "position": [0, 1, 0]},
                        {"shape": {"capsule": {"radius": 0.1, "half_height": 0.4}},
                         "position": [0, 0, 0]}]}},
                     "generators": [{"type": "tower", "shape": "table", "count": 3, "mass": 2}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3);
  // Bounds from y = -0.5 (the capsule's bottom) to 1.5 (the box's top): 2 m tall.
  for (int i = 0; i < 3; ++i) {
    CHECK(s->bodies[i].shape.type() == ShapeType::Compound);
    CHECK_THAT(s->bodies[i].position.y, WithinAbs(0.5 + 2.0 * i, 1e-12));
    CHECK_THAT(s->bodies[i].shape.massProperties(s->bodies[i].density).mass, WithinRel(2.0, 1e-12));
  }
}

TEST_CASE("an inline mesh is its vertices and triangles, scaled uniformly", "[scene][kinds]") {
  auto s = parse(R"({"shapes": {"ramp": {"mesh": {
                        "vertices": [[0, 0, 0], [0, 0, 2], [2, 0, 2], [2, 0, 0], [2, 1, 0]],
                        "triangles": [[0, 1, 2], [0, 2, 3], [3, 2, 4]]}}},
                     "bodies": [{"shape": "ramp", "static": true, "position": [1, 2, 3]},
                                {"shape": "ramp", "type": "static", "scale": 1.5},
                                {"shape": "ramp", "static": true, "mass": 5, "density": 300}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3);
  const auto& b = s->bodies;
  CHECK(b[0].type == BodyType::Static);
  CHECK(b[0].position == Vec3(1.0, 2.0, 3.0));
  REQUIRE(b[0].shape.type() == ShapeType::Mesh);
  const TriangleMesh* m = b[0].shape.mesh();
  REQUIRE(m != nullptr);
  REQUIRE(m->vertices.size() == 5);
  REQUIRE(m->triangles.size() == 3);
  CHECK(m->vertices[4] == Vec3(2.0, 1.0, 0.0));
  CHECK(m->triangles[2] == std::array<int, 3>{3, 2, 4});
  // Counter-clockwise seen from the front: the floor faces up.
  CHECK(gap(m->normals[0], Vec3(0.0, 1.0, 0.0)) < 1e-15);
  const TriangleMesh* scaled = b[1].shape.mesh();
  REQUIRE(scaled != nullptr);
  CHECK(scaled->vertices[4] == Vec3(3.0, 1.5, 0.0));
  CHECK(scaled->triangles.size() == 3);
  // A static mesh ignores mass (it has no volume) and keeps its density.
  CHECK(b[2].density == 300.0);
}

TEST_CASE("a mesh file is read from the meshes folder, once per file and scale", "[scene][kinds]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"mesh": {"file": "floor_wall.obj"}}, "static": true},
      {"shape": {"mesh": {"file": "floor_wall.obj"}}, "static": true, "position": [5, 0, 0]},
      {"shape": {"mesh": {"file": "floor_wall.obj", "scale": 1.5}}, "static": true, "scale": 2}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 3);
  const auto& b = s->bodies;
  const TriangleMesh* m = b[0].shape.mesh();
  REQUIRE(m != nullptr);
  // A quad (two triangles) and a triangle.
  REQUIRE(m->triangles.size() == 3);
  REQUIRE(m->vertices.size() == 5);
  CHECK(m->vertices[2] == Vec3(2.0, 0.0, 2.0));
  CHECK(m->triangles[2] == std::array<int, 3>{0, 3, 4});
  CHECK(b[1].shape.mesh() == m);  // the same file and scale: shared
  // The mesh's scale times the body's: 3.
  const TriangleMesh* big = b[2].shape.mesh();
  REQUIRE(big != nullptr);
  CHECK(big->vertices[2] == Vec3(6.0, 0.0, 6.0));
  CHECK(big->vertices[4] == Vec3(0.0, 3.0, 0.0));
  CHECK(big->triangles == m->triangles);
}

TEST_CASE("assets/meshes/level.obj loads through the folder beside the shapes", "[scene][kinds]") {
  const SceneDirs dirs = sceneDirsBeside(kAssets / "shapes");
  CHECK(dirs.shapes == kAssets / "shapes");
  CHECK(dirs.meshes == kAssets / "meshes");
  CHECK(dirs.heightfields == kAssets / "heightfields");
  CHECK(sceneDirsBeside("x/assets/shapes/").meshes == fs::path("x/assets/meshes"));
  CHECK(sceneDirsBeside("shapes").heightfields == fs::path("heightfields"));
  auto s = parseScene(R"({"bodies": [{"shape": {"mesh": {"file": "level.obj"}}, "static": true}]})",
                      "test.json", kAssets / "shapes");
  REQUIRE(s);
  const TriangleMesh* m = s->bodies[0].shape.mesh();
  REQUIRE(m != nullptr);
  CHECK(m->triangles.size() == 1092);
  CHECK(m->vertices[0] == Vec3(-30.0, 0.0, -30.0));
}

TEST_CASE("an inline height field: rows along z, columns along x, corner at the body",
          "[scene][kinds]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"heightfield": {"heights": [[0, 0.5, 1], [0.25, 0.75, -1.25]],
                                 "spacing": [0.5, 2]}},
       "static": true, "position": [-1, 0, -2]},
      {"shape": {"heightfield": {"heights": [[0, 0.5, 1], [0.25, 0.75, -1.25]],
                                 "spacing": [0.5, 2]}},
       "static": true, "scale": 2}]})");
  REQUIRE(s);
  REQUIRE(s->bodies.size() == 2);
  const Real heights[2][3] = {{0.0, 0.5, 1.0}, {0.25, 0.75, -1.25}};
  const HeightField* f = s->bodies[0].shape.heightField();
  REQUIRE(f != nullptr);
  CHECK(s->bodies[0].position == Vec3(-1.0, 0.0, -2.0));
  CHECK(f->rows == 2);
  CHECK(f->columns == 3);
  const HeightField* g = s->bodies[1].shape.heightField();
  REQUIRE(g != nullptr);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      CHECK(f->point(r, c) == Vec3(0.5 * c, heights[r][c], 2.0 * r));
      CHECK(g->point(r, c) == Vec3(1.0 * c, 2.0 * heights[r][c], 4.0 * r));
    }
}

TEST_CASE("a height-field image is read from the heightfields folder", "[scene][kinds]") {
  auto s = parse(R"({"shapes": {"hills": {"heightfield": {"file": "hills.png",
                                                          "spacing": [0.5, 2], "height_scale": 10}}},
                     "bodies": [{"shape": "hills", "static": true},
                                {"shape": "hills", "static": true, "scale": 3}]})");
  REQUIRE(s);
  const HeightField* f = s->bodies[0].shape.heightField();
  const HeightField* g = s->bodies[1].shape.heightField();
  REQUIRE(f != nullptr);
  REQUIRE(g != nullptr);
  REQUIRE(f->rows == 2);
  REQUIRE(f->columns == 3);
  REQUIRE(g->rows == 2);
  REQUIRE(g->columns == 3);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      const Vec3 p = f->point(r, c), q = g->point(r, c);
      REQUIRE(finite(p));
      REQUIRE(finite(q));
      CHECK(p.x == 0.5 * c);
      CHECK(p.z == 2.0 * r);
      CHECK_THAT(p.y, WithinAbs(10.0 * kHillsGrey[r][c] / 255.0, 1e-12));
      CHECK(q.x == 1.5 * c);
      CHECK(q.z == 6.0 * r);
      CHECK_THAT(q.y, WithinAbs(30.0 * kHillsGrey[r][c] / 255.0, 1e-12));
    }
}

TEST_CASE("loadScene finds meshes and height fields beside the scene, else in the assets",
          "[scene][kinds]") {
  // pack/scenes/kinds.json with pack/meshes and pack/heightfields beside it (and no pack/shapes:
  // named shapes come from the assets directory).
  const fs::path pack = scratch("pack");
  fs::create_directories(pack / "meshes");
  fs::create_directories(pack / "heightfields");
  writeText(pack / "meshes" / "tri.obj", "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n");
  fs::copy_file(kDirs.heightfields / "hills.png", pack / "heightfields" / "hills.png");
  const std::string text = R"({"bodies": [
      {"shape": {"mesh": {"file": "tri.obj"}}, "static": true},
      {"shape": {"heightfield": {"file": "hills.png", "spacing": [1, 1], "height_scale": 1}},
       "static": true},
      {"shape": "box"}]})";
  writeText(pack / "scenes" / "kinds.json", text);
  auto s = loadScene(pack / "scenes" / "kinds.json");
  REQUIRE(s);
  CHECK(s->name == "kinds");
  REQUIRE(s->bodies.size() == 3);
  REQUIRE(s->bodies[0].shape.mesh() != nullptr);
  CHECK(s->bodies[0].shape.mesh()->triangles.size() == 1);
  REQUIRE(s->bodies[1].shape.heightField() != nullptr);
  CHECK(s->bodies[1].shape.heightField()->columns == 3);
  CHECK(s->bodies[2].shape.type() == ShapeType::Hull);

  // Without a meshes folder beside the scene: the assets directory's (assets/meshes/level.obj).
  const fs::path lone = scratch("lone");
  writeText(lone / "scenes" / "level.json",
            R"({"bodies": [{"shape": {"mesh": {"file": "level.obj"}}, "static": true}]})");
  auto t = loadScene(lone / "scenes" / "level.json");
  REQUIRE(t);
  REQUIRE(t->bodies[0].shape.mesh() != nullptr);
  CHECK(t->bodies[0].shape.mesh()->triangles.size() == 1092);

  // A file missing beside the scene is named with the place it was looked for.
  writeText(pack / "scenes" / "missing.json",
            R"({"bodies": [{"shape": {"mesh": {"file": "level.obj"}}, "static": true}]})");
  auto u = loadScene(pack / "scenes" / "missing.json");
  REQUIRE_FALSE(u);
  CHECK(u.error() == (pack / "scenes" / "missing.json").string() +
                         ": bodies[0].shape.mesh.file: no mesh file \"level.obj\" (looked for " +
                         (pack / "scenes" / ".." / "meshes" / "level.obj").string() + ")");
}

TEST_CASE("a scene with a compound, a mesh and a height field builds a world that steps",
          "[scene][kinds]") {
  auto s = parse(R"({"bodies": [
      {"shape": {"heightfield": {"heights": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
                                 "spacing": [2, 2]}},
       "static": true, "position": [-3, 0, -2]},
      {"shape": {"mesh": {"file": "floor_wall.obj"}}, "static": true, "scale": 2,
       "position": [10, 0, 0]},
      {"shape": {"compound": [{"shape": "box", "position": [-0.75, 0, 0]},
                              {"shape": "box", "position": [0.75, 0, 0]}]},
       "position": [0, 0.6, 0], "mass": 3},
      {"shape": {"sphere": {"radius": 0.5}}, "position": [12, 0.6, 2]}]})");
  REQUIRE(s);
  auto world = buildWorld(*s);
  REQUIRE(world);
  World& w = **world;
  const std::vector<BodyId> ids = w.bodyIds();
  REQUIRE(ids.size() == 4);
  CHECK(w.body(ids[0])->type == BodyType::Static);
  CHECK(w.body(ids[1])->type == BodyType::Static);
  CHECK_THAT(w.body(ids[2])->mass, WithinRel(3.0, 1e-12));
  for (int i = 0; i < 60; ++i) REQUIRE(w.step(1.0 / 60.0).ok());
  // The two-box compound rests on the flat field (centre 0.5 up), the ball on the mesh's floor.
  const BodyView compound = *w.body(ids[2]), ball = *w.body(ids[3]);
  REQUIRE(finite(compound.centerOfMass));
  REQUIRE(finite(ball.centerOfMass));
  CHECK_THAT(compound.centerOfMass.y, WithinAbs(0.5, 0.01));
  CHECK_THAT(ball.centerOfMass.y, WithinAbs(0.5, 0.01));
}

TEST_CASE("bad compound, mesh and height-field input names the JSON path", "[scene][kinds]") {
  const std::string convex =
      R"(a shape name, [[x, y, z], ...] or {"<kind>": {...}} with kind sphere, capsule, cylinder or rounded)";
  const std::string children =
      R"(a non-empty array of children [{"shape": ..., "position": [x, y, z], "orientation": [w, x, y, z]}, ...])";
  const std::string meshForms =
      R"("file" (an OBJ file in assets/meshes) or "vertices" ([[x, y, z], ...] with "triangles"))";
  const std::string fieldForms =
      R"("file" (a greyscale PNG in assets/heightfields) or "heights" ([[y, ...], ...], rows along z))";
  const std::string quad = R"("vertices": [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]])";
  const std::string grid = R"("heights": [[0, 0], [0, 0]])";
  const std::string staticOnly = R"( (add "static": true; a dynamic concave body is a compound))";
  const std::vector<std::pair<std::string, std::string>> cases = {
      // Compounds.
      {R"({"bodies": [{"shape": {"compound": []}}]})",
       "bodies[0].shape.compound: expected " + children + ", got an empty array"},
      {R"({"bodies": [{"shape": {"compound": {"shape": "box"}}}]})",
       "bodies[0].shape.compound: expected " + children + ", got an object"},
      {R"({"bodies": [{"shape": {"compound": ["box"]}}]})",
       "bodies[0].shape.compound[0]: expected an object, got a string"},
      {R"({"bodies": [{"shape": {"compound": [{"position": [0, 0, 0]}]}}]})",
       "bodies[0].shape.compound[0].shape: missing (" + convex + ")"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "positon": [0, 0, 0]}]}}]})",
       "bodies[0].shape.compound[0].positon: unknown key"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box"},
           {"shape": {"compound": [{"shape": "box"}]}}]}}]})",
       "bodies[0].shape.compound[1].shape: expected a convex shape (" + convex +
           "), got a compound"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": {"mesh": {"file": "floor_wall.obj"}}}]}}]})",
       "bodies[0].shape.compound[0].shape: expected a convex shape (" + convex + "), got a mesh"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": {"heightfield": {}}}]}}]})",
       "bodies[0].shape.compound[0].shape: expected a convex shape (" + convex +
           "), got a heightfield"},
      {R"({"shapes": {"pair": {"compound": [{"shape": "box"}, {"shape": "box", "position": [1, 0, 0]}]},
                      "nest": {"compound": [{"shape": "pair"}]}},
           "bodies": [{"shape": "nest"}]})",
       "shapes.nest.compound[0].shape: expected a convex shape (" + convex +
           "), got \"pair\", a compound"},
      {R"({"shapes": {"loop": {"compound": [{"shape": "loop"}]}}, "bodies": [{"shape": "loop"}]})",
       "shapes.loop.compound[0].shape: expected a convex shape (" + convex +
           "), got \"loop\", a compound"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": 7}]}}]})",
       "bodies[0].shape.compound[0].shape: expected " + convex + ", got a number"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": {"sphere": {"radius": 0}}}]}}]})",
       "bodies[0].shape.compound[0].shape.sphere.radius: expected a number > 0 (m), got 0"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": {"cone": {}}}]}}]})",
       "bodies[0].shape.compound[0].shape.cone: unknown shape kind (expected sphere, capsule, "
       "cylinder, rounded, compound, mesh or heightfield)"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "position": 1}]}}]})",
       "bodies[0].shape.compound[0].position: expected [x, y, z], got a number"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "orientation": [0, 0, 0, 0]}]}}]})",
       "bodies[0].shape.compound[0].orientation: quaternion has zero length"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box"}]}, "scale": [1, 2, 1]}]})",
       "bodies[0].scale: a compound takes a uniform scale (a number or three equal numbers), got "
       "[1, 2, 1]"},
      {R"({"bodies": [{"shape": {"compound": [{"shape": "box", "position": [1e300, 0, 0]}]},
           "scale": 1e10}]})",
       "bodies[0].shape.compound[0].position: position [1e+300, 0, 0] times scale 1e+10 is not a "
       "finite point"},
      // Meshes.
      {R"({"bodies": [{"shape": {"mesh": {}}, "static": true}]})",
       "bodies[0].shape.mesh: missing " + meshForms},
      {R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj", )" + quad +
           R"(}}, "static": true}]})",
       "bodies[0].shape.mesh: expected " + meshForms + ", not both"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad + R"(}}, "static": true}]})",
       "bodies[0].shape.mesh.triangles: missing ([[i, j, k], ...], indices into vertices)"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[0, 1, 2], [0, 2, 7]]}}, "static": true}]})",
       "bodies[0].shape.mesh: makeMesh: triangle 1 has index 7 out of range [0, 4)"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[-1, 1, 2]]}}, "static": true}]})",
       "bodies[0].shape.mesh: makeMesh: triangle 0 has index -1 out of range [0, 4)"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[0, 1, 2], [0, 0, 3]]}}, "static": true}]})",
       "bodies[0].shape.mesh: makeMesh: triangle 1 has zero area"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[0, 1]]}}, "static": true}]})",
       "bodies[0].shape.mesh.triangles[0]: expected [i, j, k] (three vertex indices), got an "
       "array"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[0, 1, 2.5]]}}, "static": true}]})",
       "bodies[0].shape.mesh.triangles[0][2]: expected an integer, got a number"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad + R"(, "triangles": []}}, "static": true}]})",
       "bodies[0].shape.mesh.triangles: expected a non-empty array of [i, j, k] vertex indices, "
       "got an empty array"},
      {R"({"bodies": [{"shape": {"mesh": {"vertices": [], "triangles": [[0, 1, 2]]}}, "static": true}]})",
       "bodies[0].shape.mesh.vertices: expected a non-empty array of [x, y, z] points"},
      {R"({"bodies": [{"shape": {"mesh": {)" + quad +
           R"(, "triangles": [[0, 1, 2]], "scale": 2}}, "static": true}]})",
       "bodies[0].shape.mesh.scale: unknown key"},
      {R"({"bodies": [{"shape": {"mesh": {"file": 3}}, "static": true}]})",
       "bodies[0].shape.mesh.file: expected a string, got a number"},
      {R"({"bodies": [{"shape": {"mesh": {"file": ""}}, "static": true}]})",
       "bodies[0].shape.mesh.file: expected a file name, got an empty string"},
      {R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj", "scale": 0}}, "static": true}]})",
       "bodies[0].shape.mesh.scale: expected a number > 0, got 0"},
      {R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj", "scal": 2}}, "static": true}]})",
       "bodies[0].shape.mesh.scal: unknown key"},
      {R"({"bodies": [{"shape": {"mesh": {"file": "nowhere.obj"}}, "static": true}]})",
       "bodies[0].shape.mesh.file: no mesh file \"nowhere.obj\" (looked for " +
           (kDirs.meshes / "nowhere.obj").string() + ")"},
      {R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj"}}}]})",
       "bodies[0]: a mesh is static only, got a dynamic body" + staticOnly},
      {R"({"bodies": [{"shape": "box"}, {"shape": {"mesh": {"file": "floor_wall.obj"}},
           "type": "kinematic"}]})",
       "bodies[1]: a mesh is static only, got a kinematic body" + staticOnly},
      {R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj"}}, "static": true,
           "scale": [1, 1, 2]}]})",
       "bodies[0].scale: a mesh takes a uniform scale (a number or three equal numbers), got "
       "[1, 1, 2]"},
      {R"({"bodies": [{"shape": {"mesh": {"vertices": [[0, 0, 0], [0, 0, 1], [1e300, 0, 0]],
           "triangles": [[0, 1, 2]]}}, "static": true, "scale": 1e10}]})",
       "bodies[0].shape.mesh.vertices[2]: vertex [1e+300, 0, 0] times scale 1e+10 is not a "
       "finite point"},
      {R"({"shapes": {"ground": {"mesh": {"file": "floor_wall.obj"}}},
           "generators": [{"type": "tower", "shape": "ground"}]})",
       "generators[0].shape: \"ground\" is a mesh, static only (generators make dynamic "
       "bodies)"},
      // Height fields.
      {R"({"bodies": [{"shape": {"heightfield": {"spacing": [1, 1]}}, "static": true}]})",
       "bodies[0].shape.heightfield: missing " + fieldForms},
      {R"({"bodies": [{"shape": {"heightfield": {"file": "hills.png", )" + grid +
           R"(, "spacing": [1, 1]}}, "static": true}]})",
       "bodies[0].shape.heightfield: expected " + fieldForms + ", not both"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0, 0, 0], [0, 0]],
           "spacing": [1, 1]}}, "static": true}]})",
       "bodies[0].shape.heightfield.heights[1]: expected 3 heights (as row 0), got 2"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0, 0, 0]], "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.heights: expected at least 2 rows of heights, got 1"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0], [0]], "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.heights[0]: expected at least 2 heights, got 1"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0, 0], 0], "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.heights[1]: expected a row of heights [y, ...], got a number"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": {"0": [0, 0]}, "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.heights: expected rows of heights [[y, ...], ...] (rows along "
       "z), got an object"},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0, "1"], [0, 0]], "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.heights[0][1]: expected a number, got a string"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid + R"(}}, "static": true}]})",
       "bodies[0].shape.heightfield.spacing: missing ([dx, dz], m, each > 0)"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": [1, 0]}}, "static": true}]})",
       "bodies[0].shape.heightfield.spacing[1]: expected a number > 0 (m), got 0"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": [-1, 1]}}, "static": true}]})",
       "bodies[0].shape.heightfield.spacing[0]: expected a number > 0 (m), got -1"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": 1}}, "static": true}]})",
       "bodies[0].shape.heightfield.spacing: expected [dx, dz] (m), got a number"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": [1, 1], "height_scale": 2}}, "static": true}]})",
       "bodies[0].shape.heightfield.height_scale: unknown key"},
      {R"({"bodies": [{"shape": {"heightfield": {"file": "hills.png", "spacing": [1, 1]}},
           "static": true}]})",
       "bodies[0].shape.heightfield.height_scale: missing (a number > 0, m)"},
      {R"({"bodies": [{"shape": {"heightfield": {"file": "hills.png", "spacing": [1, 1],
           "height_scale": -2}}, "static": true}]})",
       "bodies[0].shape.heightfield.height_scale: expected a number > 0 (m), got -2"},
      {R"({"bodies": [{"shape": {"heightfield": {"file": "nowhere.png", "spacing": [1, 1],
           "height_scale": 1}}, "static": true}]})",
       "bodies[0].shape.heightfield.file: no height-field image \"nowhere.png\" (looked for " +
           (kDirs.heightfields / "nowhere.png").string() + ")"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid + R"(, "spacing": [1, 1]}}}]})",
       "bodies[0]: a heightfield is static only, got a dynamic body" + staticOnly},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": [1, 1]}}, "static": false, "type": "kinematic"}]})",
       "bodies[0]: a heightfield is static only, got a kinematic body" + staticOnly},
      {R"({"bodies": [{"shape": {"heightfield": {"heights": [[0, 1e300], [0, 0]],
           "spacing": [1, 1]}}, "static": true, "scale": 1e10}]})",
       "bodies[0].shape.heightfield.heights[0][1]: height 1e+300 times scale 1e+10 is not a "
       "finite length"},
      {R"({"bodies": [{"shape": {"heightfield": {)" + grid +
           R"(, "spacing": [1e300, 1]}}, "static": true, "scale": 1e10}]})",
       "bodies[0].shape.heightfield.spacing[0]: spacing 1e+300 times scale 1e+10 is not a finite "
       "length"},
      {R"({"shapes": {"hills": {"heightfield": {"file": "hills.png", "spacing": [1, 1],
                                                "height_scale": 1}}},
           "generators": [{"type": "pile", "shapes": ["box", "hills"], "count": 8}]})",
       "generators[0].shapes: \"hills\" is a heightfield, static only (generators make dynamic "
       "bodies)"},
      {R"({"bodies": [{"shape": "mesh"}]})",
       "bodies[0].shape: unknown shape \"mesh\" (no " + (kDirs.shapes / "mesh.json").string() +
           " and no inline shape; a mesh is an object, {\"mesh\": {...}})"},
      {R"({"bodies": [{"shape": "compound"}]})",
       "bodies[0].shape: unknown shape \"compound\" (no " +
           (kDirs.shapes / "compound.json").string() +
           " and no inline shape; a compound is an object, {\"compound\": [...]})"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    auto s = parse(text);
    REQUIRE_FALSE(s);
    CHECK(s.error() == "test.json: " + expected);
  }
}

TEST_CASE("files that are not a mesh or an image are refused naming the path and the file",
          "[scene][kinds]") {
  const std::string png = (kDirs.heightfields / "hills.png").string();
  const std::string obj = (kDirs.meshes / "floor_wall.obj").string();
  // An absolute file name is read as given.
  auto s =
      parse(R"({"bodies": [{"shape": {"mesh": {"file": ")" + png + R"("}}, "static": true}]})");
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), StartsWith("test.json: bodies[0].shape.mesh.file: " + png + ": "));
  auto t = parse(R"({"bodies": [{"shape": {"heightfield": {"file": ")" + obj +
                 R"(", "spacing": [1, 1], "height_scale": 1}}, "static": true}]})");
  REQUIRE_FALSE(t);
  CHECK(t.error() == "test.json: bodies[0].shape.heightfield.file: " + obj +
                         ": cannot read the image (unknown image type; expected a greyscale PNG)");
  // A folder is not a file.
  auto u = parse(R"({"bodies": [{"shape": {"mesh": {"file": "."}}, "static": true}]})");
  REQUIRE_FALSE(u);
  CHECK_THAT(u.error(), StartsWith("test.json: bodies[0].shape.mesh.file: no mesh file \".\""));
  // A mesh whose scale shrinks its triangles to nothing: makeMesh's message, naming the file.
  auto v = parse(R"({"bodies": [{"shape": {"mesh": {"file": "floor_wall.obj", "scale": 1e-300}},
                                 "static": true, "scale": 1e-300}]})");
  REQUIRE_FALSE(v);
  CHECK(v.error() ==
        "test.json: bodies[0].shape.mesh.file: " + obj + ": makeMesh: triangle 0 has zero area");
}

TEST_CASE("shapeSpec reads the new kinds' data without reading files", "[scene][kinds]") {
  const scene::Json mesh = scene::Json::parse(R"({"mesh": {"file": "not_read_here.obj"}})");
  const scene::ShapeSpec m = scene::shapeSpec(mesh, "shapes.m");
  CHECK(m.type == ShapeType::Mesh);
  CHECK(m.file == "not_read_here.obj");
  CHECK(m.path == "shapes.m.mesh");
  const scene::Json field =
      scene::Json::parse(R"({"heightfield": {"heights": [[1, 2], [3, 4]], "spacing": [0.5, 2]}})");
  const scene::ShapeSpec f = scene::shapeSpec(field, "shapes.f");
  CHECK(f.type == ShapeType::HeightField);
  REQUIRE(f.heights.size() == 2);
  CHECK(f.heights[1] == std::vector<Real>{3.0, 4.0});
  CHECK(f.dx == 0.5);
  CHECK(f.dz == 2.0);
  const scene::Json compound = scene::Json::parse(
      R"({"compound": [{"shape": "box"}, {"shape": {"sphere": {"radius": 1}}, "position": [1, 2, 3]}]})");
  const scene::ShapeSpec c = scene::shapeSpec(compound, "shapes.c");
  REQUIRE(c.children.size() == 2);
  CHECK(c.children[0].byName);
  CHECK(c.children[0].name == "box");
  CHECK_FALSE(c.children[1].byName);
  CHECK(c.children[1].shape.type == ShapeType::Sphere);
  CHECK(c.children[1].local.position == Vec3(1.0, 2.0, 3.0));
  CHECK(c.children[1].path == "shapes.c.compound[1]");
  // A JSON value built in memory can hold a NaN: the reader names its path.
  scene::Json nan =
      scene::Json::parse(R"({"heightfield": {"heights": [[0, 0], [0, 0]], "spacing": [1, 1]}})");
  nan["heightfield"]["heights"][1][0] = std::numeric_limits<Real>::quiet_NaN();
  CHECK_THROWS_WITH(scene::shapeSpec(nan, "bodies[0].shape"),
                    "bodies[0].shape.heightfield.heights[1][0]: expected a finite number");
}
