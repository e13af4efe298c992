#pragma once
// The demo's samples (what --scene and the browser call scenes; named apart from tumble::Scene,
// the engine's scene file): classes with create / step / draw / drawPanel and input hooks, given a
// context object (no globals), listed in one table (sample_registry.cpp), like Box2D's `Sample`
// and Jolt's `Test`. Samples that own a World derive from WorldSample (world_sample.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "camera.h"
#include "renderer.h"
#include "tumble/settings.h"

namespace tumble {
class World;
}

namespace tumble::demo {

/// What a scene may use. Owned by the app; valid for the scene's lifetime.
struct SampleContext {
  Settings& settings;                   ///< live settings, edited by the panel and --set
  Renderer& renderer;                   ///< meshes and the per-frame draw queue
  OrbitCamera& camera;                  ///< a scene may place it in create()
  const std::filesystem::path& assets;  ///< the assets/ folder (shapes, scenes)
  /// The shapes of assets/shapes/ by name, and the one the user picked to spawn (one of them or a
  /// round kind WorldSample offers beside them; remembered between runs).
  const std::vector<std::string>& shapeNames;
  std::string& spawnShape;
  bool dimSleeping = true;  ///< draw sleeping bodies darker (debug toggle)
  /// The window in pixels (the panel's units), and the part of it the panel leaves free; both
  /// kept up to date by the app every frame.
  int windowWidth = 1280;
  int windowHeight = 720;
  ViewRegion besidePanel;
  /// The mouse in window pixels (y down), kept up to date by the app (and by scripts' mouse
  /// actions): what the probe tool casts under.
  int mouseX = 0;
  int mouseY = 0;
  /// The app's pause switch (a scene's timeline pauses it to show the past); may be null.
  bool* paused = nullptr;
};

/// A ray from the camera through the mouse, in world space (metres).
struct Ray {
  Vec3 origin{0.0};
  Vec3 direction{0.0, 0.0, -1.0};  ///< unit
};

class Sample {
 public:
  virtual ~Sample() = default;

  /// Builds the scene's bodies and uploads their meshes. Returns an error message (naming the
  /// file or value at fault) when it cannot.
  virtual Expected<void> create(SampleContext& ctx) = 0;
  /// Advances the scene by one step of ctx.settings.dt seconds (static scenes do nothing).
  virtual void step(SampleContext& ctx) { (void)ctx; }
  /// Queues this frame's bodies with ctx.renderer.drawBody.
  virtual void draw(SampleContext& ctx) = 0;
  /// Adds the scene's own widgets to the demo panel.
  virtual void drawPanel(SampleContext& ctx) { (void)ctx; }
  /// A key the app did not use (SDL keycode); returns true when the scene used it.
  virtual bool onKey(SampleContext& ctx, int key) {
    (void)ctx;
    (void)key;
    return false;
  }
  /// The left button went down over the scene (not over the panel) along `ray`. Return true to
  /// take the drag (then onMouseDrag and onMouseUp follow instead of orbiting the camera).
  virtual bool onMouseDown(SampleContext& ctx, const Ray& ray) {
    (void)ctx;
    (void)ray;
    return false;
  }
  /// The mouse moved while the scene holds the drag.
  virtual void onMouseDrag(SampleContext& ctx, const Ray& ray) {
    (void)ctx;
    (void)ray;
  }
  /// The button of a drag the scene took went up.
  virtual void onMouseUp(SampleContext& ctx) { (void)ctx; }
  /// Number of bodies, for the panel.
  virtual int bodyCount() const = 0;
  /// The engine World the scene steps, if any: the app reads its statistics, draws its debug view
  /// and logs its cross-check. Null for scenes without one (showcase, chain, gjk).
  virtual World* world() { return nullptr; }
  /// A JSON object with the scene's own state for --dump-state (e.g. the chain's folds).
  virtual std::string stateJson() const { return "{}"; }
};

/// One scene of the browser: a sample class (`make`), or a scene file
/// assets/scenes/<name>.json (`make` null) that the engine loads and simulates.
struct SampleEntry {
  std::string name;
  /// One line: the class's own, or the scene file's `description`.
  std::string description;
  std::unique_ptr<Sample> (*make)() = nullptr;
  /// The browser's group: "dynamics", "geometry" or "chain".
  std::string category = "dynamics";
  /// Why a scene file could not be read when listed (it is listed all the same; choosing it
  /// shows the loader's error). Empty when fine.
  std::string problem;
};

/// A new, not yet created, scene of `entry`.
std::unique_ptr<Sample> makeSample(const SampleEntry& entry);

/// The sample classes, in one table (sample_registry.cpp): not the scene files.
std::span<const SampleEntry> classSamples();

/// Every scene: the scene files of `assets`/scenes (dynamics, listed from the folder) and the
/// sample classes, sorted by category (kSampleCategories' order), then by name.
std::vector<SampleEntry> listSamples(const std::filesystem::path& assets);

/// The entry of `samples` named `name`, or nullptr.
const SampleEntry* findSample(std::span<const SampleEntry> samples, std::string_view name);

/// The scene shown when --scene is not given.
inline constexpr std::string_view kDefaultSample = "pile";

/// The categories in browser order.
inline constexpr std::string_view kSampleCategories[] = {"dynamics", "geometry", "chain"};

}  // namespace tumble::demo
