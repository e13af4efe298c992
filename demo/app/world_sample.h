#pragma once
// The base of the samples that simulate a tumble::World (Box2D's `Sample`, Jolt's `Test`): a
// subclass only builds its world; this class steps it, draws it, picks and drags bodies with the
// mouse, drops (D), spawns (V) and shoots (B) bodies, blasts them with the explosion tool (X),
// shows the "World" section of the panel and frames the camera on the bodies in the part of the
// window the panel leaves free.
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "probe_tool.h"
#include "sample.h"
#include "tumble/body.h"
#include "tumble/timeline.h"
#include "tumble/world.h"

namespace tumble::demo {

/// A sample with a World. A new one is a subclass that overrides build():
///
///     class Ramp final : public WorldSample {
///       Expected<std::unique_ptr<World>> build(SampleContext& ctx) override {
///         auto world = std::make_unique<World>(ctx.settings);
///         // world->createBody(...) for the ground and the bodies
///         return world;
///       }
///     };
///
/// and a row in sample_registry.cpp. Overrides of step, drawPanel, onKey and the mouse hooks
/// call the base's to keep what it does.
class WorldSample : public Sample {
 public:
  /// Builds the world (build()), uploads the bodies' meshes and frames the camera on them.
  Expected<void> create(SampleContext& ctx) final;
  /// Gives the world ctx.settings (validated; a change wakes the bodies) and steps it by
  /// ctx.settings.dt; an error is shown in the panel.
  void step(SampleContext& ctx) override;
  /// Queues every body (static grey, dynamic in colours, sleeping ones darker) and aims the
  /// camera beside the panel.
  void draw(SampleContext& ctx) override;
  /// The "World" section: description, counts, drop/spawn/shoot, errors; then the "Joints"
  /// section (joint_panel.h) when the world has hinges, sliders or distance joints.
  void drawPanel(SampleContext& ctx) override;
  /// D drops a body, V spawns the chosen shape above the bodies, B shoots it from the camera, X
  /// turns the explosion tool on and off, M cycles the probe tool (probe_tool.h: ray, shape cast,
  /// overlap under the mouse).
  bool onKey(SampleContext& ctx, int key) override;
  /// Grabs the dynamic body under the mouse with a drag constraint; with the explosion tool on,
  /// blasts the bodies around the point under the mouse instead.
  bool onMouseDown(SampleContext& ctx, const Ray& ray) override;
  void onMouseDrag(SampleContext& ctx, const Ray& ray) override;
  void onMouseUp(SampleContext& ctx) override;
  int bodyCount() const override { return world_ ? world_->bodyCount() : 0; }
  /// {"probe": the probe tool's last results (ProbeTool::stateJson), "step", "state_hash",
  ///  "timeline": {"first", "last", "keyframes", "bytes"}, "determinism": {"checked", "failed"}}
  /// (for --dump-state and the tests).
  std::string stateJson() const override;
  World* world() override { return world_.get(); }

  /// The box the camera frames (m): the bodies' tight boxes as framedBounds() picks them (the
  /// moving bodies and the walls around them, not the ground).
  std::optional<Aabb> bounds() const;

  /// Restores a snapshot file (tumble/snapshot.h) into the world: the timeline starts again from
  /// it and the panel's settings become the snapshot's. On failure (the message names the file
  /// and the offset) the world is as it was.
  Expected<void> restoreSnapshot(SampleContext& ctx, const std::filesystem::path& file);
  /// Puts the world back at a recorded step (world_timeline.cpp); pauses the app.
  Expected<void> seekTimeline(SampleContext& ctx, int64_t step);
  const Timeline& timeline() const { return timeline_; }

 protected:
  /// Makes the sample's World with its bodies. It may set ctx.settings (the app applies --set on
  /// top; step() gives them to the world). An error names what is at fault.
  virtual Expected<std::unique_ptr<World>> build(SampleContext& ctx) = 0;

  /// The text at the top of the panel's "World" section.
  void setDescription(std::string text) { description_ = std::move(text); }
  /// The body D drops (its position and velocities are replaced). Without one, D drops a body like
  /// the first dynamic body of the world (same shape, mass, friction and restitution).
  void setDropTemplate(const BodyDef& def) { dropTemplate_ = def; }
  /// Shows `message` in red in the panel (empty clears it).
  void setError(std::string message) { error_ = std::move(message); }

 private:
  // One child of a compound as drawn: its mesh (shared with equal hulls and round shapes) and its
  // pose in the compound's frame.
  struct ChildMesh {
    MeshId mesh = -1;
    Transform local;
  };

  void drawWorldPanel(SampleContext& ctx);
  // The timeline (world_timeline.cpp): recorded after each step, with the determinism check
  // (`before`: the snapshot before the step, empty when the check is off); its panel section.
  void afterStep(SampleContext& ctx, const std::vector<uint8_t>& before);
  void drawTimeline(SampleContext& ctx);
  void releaseDrag();

  // Uploads the meshes of every body's shape (once per geometry).
  void uploadMeshes(SampleContext& ctx);
  MeshId meshFor(SampleContext& ctx, const Shape& shape);
  const std::vector<ChildMesh>& childMeshes(SampleContext& ctx, const Shape& shape);
  Shape spawnShape(SampleContext& ctx);
  Real topOfBodies() const;
  // Events (world_sample_events.cpp): the log and markers after a step, sensors and markers drawn,
  // the count and the events window in the panel.
  void recordEvents();
  void drawEvents(SampleContext& ctx);
  void drawEventsPanel(const SampleContext& ctx);
  void drop();
  void spawn(SampleContext& ctx, bool shoot);
  // The shooter's and the explosion tool's panel widgets and actions (world_tools.cpp).
  void drawToolsPanel();
  void explode(const Vec3& point);
  void drawBlast(SampleContext& ctx);

  // What B shoots (the panel's shooter): speed (m/s, 1 to 500), mass (kg; 0: the shape at the
  // default density) and the bullet flag (BodyDef::bullet).
  float shootSpeed_ = 25.0f;
  float shootMass_ = 0.0f;
  bool shootBullet_ = false;
  // The explosion tool: on, its radius (m) and the impulse at its centre (N s), falling off
  // linearly to 0 at the radius; the last blast is drawn for a while (frames left).
  bool explodeTool_ = false;
  float blastRadius_ = 4.0f;
  float blastImpulse_ = 8000.0f;
  Vec3 blastPoint_{0.0};
  int blastFrames_ = 0;

  std::unique_ptr<World> world_;
  std::string description_;
  std::string error_;       // the last drop or spawn that failed
  std::string jointError_;  // the last joint setter the world refused, until one succeeds
  std::string stepError_;   // settings or step refused by the world, until a step succeeds
  // A sphere's or capsule's kind, radius and core points: equal round shapes share a mesh.
  using RoundKey = std::array<Real, 8>;
  std::map<const ConvexHull*, MeshId> hullMeshes_;
  std::vector<Shape> shapes_;  // keeps the pointer keys below alive and unique
  std::map<RoundKey, MeshId> roundMeshes_;
  // Meshes and height fields by their geometry (kept alive by shapes_): built once, however large.
  std::map<const void*, MeshId> surfaceMeshes_;
  std::map<const Compound*, std::vector<ChildMesh>> compoundMeshes_;
  std::map<std::string, Shape> spawnShapes_;
  BodyDef dropTemplate_;
  int dropped_ = 0;
  int spawned_ = 0;
  DragId drag_;
  Real grabDistance_ = 0.0;
  struct HitMarker {
    Vec3 point{0.0}, normal{0.0};
    Real speed = 0.0;  // m/s
    int age = 0;       // steps since the hit
  };
  std::deque<std::string> eventLog_;  // newest last
  std::vector<HitMarker> markers_;
  long sensorEntries_ = 0;  // sensor begin events so far
  bool hasSensors_ = false;
  bool showEvents_ = false;  // on at the start for a world with sensors or hit speeds
  ProbeTool probe_;
  Timeline timeline_;
  int timelineMb_ = 256;            // the panel's memory budget for the timeline
  bool checkDeterminism_ = false;   // step twice from one snapshot and compare
  int64_t determinismChecked_ = 0;  // steps checked so far
  std::string determinismFailure_;  // the first step whose hashes differed
  std::string snapshotPath_ = "tumble.tumblesnap";
  std::string timelineMessage_;  // the last save, load or seek result
};

}  // namespace tumble::demo
