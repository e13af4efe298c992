#pragma once
// The probe tool (Jolt's Mouse Probe): every frame it casts under the mouse into a World scene's
// world with the engine's queries and draws what they find: a ray (every hit, with its normal), a
// shape swept along the ray (drawn where it first touches), or an overlap of the shape placed where
// the ray first hits (the bodies it overlaps outlined). A window lists the hits.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "renderer.h"
#include "sample.h"
#include "tumble/shape.h"
#include "tumble/world.h"

namespace tumble::demo {

enum class ProbeMode { Off, Ray, ShapeCast, Overlap };

class ProbeTool {
 public:
  ProbeMode mode() const { return mode_; }
  /// Off, ray, shape cast, overlap, off (the M key).
  void cycleMode();

  /// Casts along `ray` (from the camera through the mouse) into `world` and queues the result:
  /// lines and crosses, and the probe shape through `drawShape` (its pose, its colour).
  void run(const World& world, const Ray& ray, Renderer& renderer,
           const std::function<void(const Shape&, const Transform&, const glm::vec3&)>& drawShape);

  /// The "Probe" section of the panel (mode, shape, size) and the window listing the hits.
  void drawPanel();

  /// The last result of each mode as JSON (for --dump-state): {"ray": [{"body", "fraction"}...],
  /// "cast": {"body", "fraction"} or null, "overlap": {"at_body", "bodies": [...]}}.
  std::string stateJson() const;

 private:
  // The shape of shapeKind_ and size_, remade when they change (a mesh is made per shape).
  const Shape& probeShape();

  Shape shape_;
  int shapeOf_ = -1;
  float sizeOf_ = 0.0f;
  ProbeMode mode_ = ProbeMode::Off;
  int shapeKind_ = 0;               // sphere, box, capsule
  float size_ = 0.5f;               // m: radius or half extent
  std::vector<std::string> lines_;  // the last run's hits, for the window
  // The last result of each mode, kept when the mode changes.
  std::vector<RayCastHit> rayHits_;
  std::optional<ShapeCastHit> castHit_;
  std::optional<RayCastHit> overlapAt_;  // where the overlap's shape was placed
  std::vector<BodyId> overlapBodies_;
};

}  // namespace tumble::demo
