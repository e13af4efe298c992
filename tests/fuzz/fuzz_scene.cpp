// Fuzz target: the scene file loader (parseScene) on arbitrary text. A scene that loads is built
// and stepped a few times when it is small. Checks: a scene or an error naming the origin, never a
// crash; every body of a loaded scene has a shape, a sphere's or capsule's radius finite and > 0,
// a compound's children convex, a mesh or height field on static bodies only, with triangles
// (README, "Scene files": the shape objects); a built world stays finite (or removes its
// non-finite bodies, nonfinite.h). Mesh and height-field files come from tests/data/meshes and
// tests/data/heightfields (tiny ones).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "tumble/scene.h"

using namespace tumble;

namespace {

// Generators may ask for up to a million bodies, which is valid but no use to a fuzzer (slow, not
// a bug): inputs whose "count" values multiply past 2000 are skipped, and so are inputs with more
// than 4096 inline vertices, triangles, heights or compound children (large is not a bug either),
// and files named with a folder (only the tiny test files are read: "/proc/..." is a file too).
struct Size {
  double bodies = 0.0;
  double elements = 0.0;  // inline vertices, triangles, heights, compound children
};

double elements(const nlohmann::json& j) {
  double n = 0.0;
  if (j.is_array())
    for (const auto& v : j) n += v.is_array() ? static_cast<double>(v.size()) : 1.0;
  return n;
}

bool small(const nlohmann::json& j, Size& size) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key == "count") {
        double n = 1.0;
        if (value.is_number()) n = std::abs(value.get<double>());
        if (value.is_array())
          for (const auto& c : value)
            if (c.is_number()) n *= std::abs(c.get<double>());
        size.bodies += n;
      }
      if (key == "vertices" || key == "triangles" || key == "heights" || key == "compound")
        size.elements += elements(value);
      if (key == "file" && value.is_string() &&
          value.get<std::string>().find('/') != std::string::npos)
        return false;
      if (!small(value, size)) return false;
    }
  } else if (j.is_array()) {
    for (const auto& v : j)
      if (!small(v, size)) return false;
  }
  return size.bodies <= 2000.0 && size.elements <= 4096.0;
}

// The shape library: $TUMBLE_FUZZ_SHAPES when set (the gate passes a relative path, so that the
// clone folder's name, and so the lengths of the paths the loader builds, cannot change what a run
// allocates and compares), else the source tree's. Mesh and height-field files: tests/data's
// meshes and heightfields, found from the shape library's folder (assets/shapes/../../tests/data)
// so that they too are relative in the gate.
const SceneDirs& sceneDirs() {
  static const SceneDirs dirs = [] {
    const char* env = std::getenv("TUMBLE_FUZZ_SHAPES");
    const std::filesystem::path shapes(env && *env ? env : TUMBLE_SOURCE_DIR "/assets/shapes");
    const std::filesystem::path source = sceneDirsBeside(shapes).meshes.parent_path().parent_path();
    return SceneDirs{shapes, source / "tests" / "data" / "meshes",
                     source / "tests" / "data" / "heightfields"};
  }();
  return dirs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  Size limits;
  if (!doc.is_discarded() && !small(doc, limits)) return 0;
  auto scene = parseScene(text, "fuzz.json", sceneDirs());
  if (!scene) {
    TUMBLE_FUZZ_CHECK(scene.error().rfind("fuzz.json", 0) == 0);
    return 0;
  }
  for (const BodyDef& def : scene->bodies) {
    TUMBLE_FUZZ_CHECK(static_cast<bool>(def.shape));
    if (const RoundCore* round = def.shape.round())
      TUMBLE_FUZZ_CHECK(std::isfinite(round->radius) && round->radius > 0.0 &&
                        fuzz::finite(round->points[round->count - 1]));
    if (const RoundedHullCore* rounded = def.shape.roundedHull())
      TUMBLE_FUZZ_CHECK(std::isfinite(rounded->radius) && rounded->radius > 0.0 &&
                        rounded->hull.vertices().size() >= 4);
    if (const Compound* compound = def.shape.compound()) {
      TUMBLE_FUZZ_CHECK(!compound->children.empty());
      for (const CompoundChild& child : compound->children)
        TUMBLE_FUZZ_CHECK(child.shape.isConvex());
    }
    if (def.shape.isStaticOnly()) TUMBLE_FUZZ_CHECK(def.type == BodyType::Static);
    if (const TriangleMesh* mesh = def.shape.mesh()) TUMBLE_FUZZ_CHECK(!mesh->triangles.empty());
    if (const HeightField* field = def.shape.heightField())
      TUMBLE_FUZZ_CHECK(field->rows >= 2 && field->columns >= 2 && field->dx > 0.0 &&
                        field->dz > 0.0);
  }
  if (scene->bodies.size() > 16) return 0;
  Settings& s = scene->settings;
  // A few steps at most, and no extreme iteration counts: this target is about the loader.
  if (s.solver.substeps * s.solver.velocityIterations > 200) return 0;
  auto world = buildWorld(*scene);
  if (!world) return 0;
  World& w = **world;
  for (int i = 0; i < 3; ++i) TUMBLE_FUZZ_CHECK(w.step(w.settings().dt).ok());
  for (BodyId id : w.bodyIds()) {
    const BodyView b = *w.body(id);
    TUMBLE_FUZZ_CHECK(fuzz::finite(b.centerOfMass) && fuzz::finite(b.linearVelocity) &&
                      fuzz::finite(b.angularVelocity));
  }
  return 0;
}
