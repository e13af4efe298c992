// Fuzz target: the scene file loader (parseScene) on arbitrary text. A scene that loads is built
// and stepped a few times when it is small. Checks: a scene or an error naming the origin, never a
// crash; every body of a loaded scene has a shape, a sphere's or capsule's radius finite and > 0
// (README, "Scene files": the shape objects); a built world stays finite (or removes its
// non-finite bodies, nonfinite.h).
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "tumble/scene.h"

using namespace tumble;

namespace {

// Generators may ask for up to a million bodies, which is valid but no use to a fuzzer (slow, not
// a bug): inputs whose "count" values multiply past 2000 are skipped.
bool small(const nlohmann::json& j, double& bodies) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key == "count") {
        double n = 1.0;
        if (value.is_number()) n = std::abs(value.get<double>());
        if (value.is_array())
          for (const auto& c : value)
            if (c.is_number()) n *= std::abs(c.get<double>());
        bodies += n;
      }
      if (!small(value, bodies)) return false;
    }
  } else if (j.is_array()) {
    for (const auto& v : j)
      if (!small(v, bodies)) return false;
  }
  return bodies <= 2000.0;
}

// The shape library: $TUMBLE_FUZZ_SHAPES when set (the gate passes a relative path, so that the
// clone folder's name, and so the lengths of the paths the loader builds, cannot change what a run
// allocates and compares), else the source tree's.
const std::string& shapesDir() {
  static const std::string dir = [] {
    const char* env = std::getenv("TUMBLE_FUZZ_SHAPES");
    return std::string(env && *env ? env : TUMBLE_SOURCE_DIR "/assets/shapes");
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  double bodies = 0.0;
  if (!doc.is_discarded() && !small(doc, bodies)) return 0;
  auto scene = parseScene(text, "fuzz.json", shapesDir());
  if (!scene) {
    TUMBLE_FUZZ_CHECK(scene.error().rfind("fuzz.json", 0) == 0);
    return 0;
  }
  for (const BodyDef& def : scene->bodies) {
    TUMBLE_FUZZ_CHECK(static_cast<bool>(def.shape));
    if (const RoundCore* round = def.shape.round())
      TUMBLE_FUZZ_CHECK(std::isfinite(round->radius) && round->radius > 0.0 &&
                        fuzz::finite(round->points[round->count - 1]));
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
