// Scenes from assets/scenes/<name>.json, loaded and built by the engine (tumble/scene.h); the
// stepping, drawing, dragging, dropping and the panel are WorldSample's.
#include "samples.h"
#include "tumble/scene.h"
#include "world_sample.h"

namespace tumble::demo {
namespace {

class FileSample final : public WorldSample {
 public:
  explicit FileSample(std::string_view name) : name_(name) {}

 protected:
  Expected<std::unique_ptr<World>> build(SampleContext& ctx) override {
    const auto file = ctx.assets / "scenes" / (name_ + ".json");
    auto scene = loadScene(file, ctx.assets / "shapes");
    if (!scene) return Expected<std::unique_ptr<World>>::failure(scene.error());
    setDescription(scene->description);
    ctx.settings = scene->settings;  // the app applies --set on top
    for (const BodyDef& def : scene->bodies) {
      if (def.type != BodyType::Dynamic) continue;
      setDropTemplate(def);  // D drops one more like the first dynamic body
      break;
    }
    auto world = buildWorld(*scene);
    if (!world)
      return Expected<std::unique_ptr<World>>::failure(file.string() + ": " + world.error());
    return world;
  }

 private:
  std::string name_;
};

}  // namespace

std::unique_ptr<Sample> makeFileSample(std::string_view name) {
  if (name == "car") return makeCarSample();
  return std::make_unique<FileSample>(name);
}

}  // namespace tumble::demo
