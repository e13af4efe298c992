#include "world_sample.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <SDL.h>
#include <imgui.h>

#include "joint_panel.h"
#include "sample_compounds.h"
#include "shape_mesh.h"
#include "tumble/shape_file.h"
#include "tumble/snapshot.h"

namespace tumble::demo {
namespace {

constexpr Real kRayLength = 500.0;   // m, how far a mouse ray reaches
constexpr Real kShotHitSpeed = 5.0;  // m/s: a shot body reports its hits above this (markers)
constexpr std::array kPalette = {glm::vec3(0.86f, 0.45f, 0.26f), glm::vec3(0.30f, 0.66f, 0.45f),
                                 glm::vec3(0.35f, 0.52f, 0.86f), glm::vec3(0.85f, 0.75f, 0.30f),
                                 glm::vec3(0.70f, 0.40f, 0.75f), glm::vec3(0.35f, 0.75f, 0.78f)};
// The round kinds the spawn menu offers beside assets/shapes (whose "capsule" is a hull), and
// their sizes (m): a ball as wide as the unit box, a capsule 1.4 m tall. Then two compounds
// (sample_compounds.h): a table (a top on four legs) and a dumbbell (a capsule bar, two balls).
constexpr const char* kSpawnSphere = "round_sphere";
constexpr const char* kSpawnCapsule = "round_capsule";
constexpr const char* kSpawnCylinder = "round_cylinder";
constexpr const char* kSpawnRoundedBox = "rounded_box";
constexpr const char* kSpawnTable = "compound_table";
constexpr const char* kSpawnDumbbell = "compound_dumbbell";
constexpr Real kSpawnSphereRadius = 0.5;
constexpr Real kSpawnCapsuleRadius = 0.3;
constexpr Real kSpawnCapsuleHalfHeight = 0.4;
constexpr Real kSpawnCylinderRadius = 0.4;
constexpr Real kSpawnCylinderHalfHeight = 0.3;
// A rounded box as wide as the unit box: half extents 0.4 m rounded by 0.1 m.
constexpr Real kSpawnRoundedHalf = 0.4;
constexpr Real kSpawnRoundedRadius = 0.1;
// Spawned and shot bodies resist rolling a little (BodyDef::rollingResistance; a ball at 2 m/s
// stops in about 6 s on flat ground) instead of rolling out of view for ever. Hulls ignore it.
constexpr Real kSpawnRollingResistance = 0.05;
constexpr glm::vec3 kStaticColor{0.55f, 0.57f, 0.60f};
// Static meshes and height fields: the ground of a level, in a dry grass colour.
constexpr glm::vec3 kGroundColor{0.50f, 0.56f, 0.36f};
const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);

void wrappedError(const std::string& text) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(kErrorColor, "%s", text.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

void WorldSample::uploadMeshes(SampleContext& ctx) {
  for (const BodyId id : world_->bodyIds()) {
    const Shape shape = world_->body(id)->shape;
    if (shape.compound()) {
      childMeshes(ctx, shape);
    } else {
      meshFor(ctx, shape);
    }
  }
}

Expected<void> WorldSample::create(SampleContext& ctx) {
  auto world = build(ctx);
  if (!world) return Expected<void>::failure(world.error());
  world_ = std::move(*world);
  uploadMeshes(ctx);
  if (!dropTemplate_.shape) {
    for (const BodyId id : world_->bodyIds()) {
      const BodyView b = *world_->body(id);
      if (!b.isDynamic()) continue;
      dropTemplate_.shape = b.shape;
      dropTemplate_.density = b.mass / b.shape.massProperties(1.0).mass;
      dropTemplate_.friction = b.friction;
      dropTemplate_.restitution = b.restitution;
      dropTemplate_.rollingResistance = b.rollingResistance;
      break;
    }
  }
  for (const BodyId id : world_->bodyIds()) {
    const BodyView b = *world_->body(id);
    const bool sensor = b.isSensor || (b.shape.compound() && b.shape.compound()->anySensor);
    hasSensors_ = hasSensors_ || sensor;
    showEvents_ = showEvents_ || sensor || std::isfinite(b.hitEventSpeed);
  }
  ctx.camera.setRegion(ctx.besidePanel);
  if (const auto box = bounds())
    ctx.camera.frame(glm::vec3(box->lower), glm::vec3(box->upper), ctx.windowWidth,
                     ctx.windowHeight);
  return tumble::ok();
}

void WorldSample::step(SampleContext& ctx) {
  // The panel edits ctx.settings; the world validates and takes them (a change wakes bodies,
  // equal settings cost one comparison).
  Expected<void> done = world_->setSettings(ctx.settings);
  std::vector<uint8_t> before;
  if (done && checkDeterminism_) before = saveSnapshot(*world_);
  if (done) done = world_->step(ctx.settings.dt);
  if (done) recordEvents();
  if (auto error = done; !error) {
    stepError_ = error.error();
  } else {
    stepError_.clear();
    afterStep(ctx, before);
  }
}

void WorldSample::draw(SampleContext& ctx) {
  // The panel may have moved or the window changed size: keep aiming beside it.
  ctx.camera.setRegion(ctx.besidePanel);
  for (const BodyId id : world_->bodyIds()) {
    const BodyView b = *world_->body(id);
    if (b.isSensor) continue;  // drawn as wire (drawEvents)
    glm::vec3 color = b.shape.isStaticOnly() ? kGroundColor : kStaticColor;
    if (b.type != BodyType::Static) {
      color = kPalette[static_cast<size_t>(id.index) % kPalette.size()];
      if (!b.awake && ctx.dimSleeping) color *= 0.55f;  // sleeping bodies are drawn darker
    }
    if (b.shape.compound()) {
      // Each child with its own mesh at the body's pose composed with the child's: a heap of
      // equal compounds is one instanced draw per distinct child mesh.
      // Sensor children are wire (drawEvents).
      const Transform body = b.transform();
      const auto& children = b.shape.compound()->children;
      const auto& meshes = childMeshes(ctx, b.shape);
      for (size_t k = 0; k < meshes.size(); ++k)
        if (!children[k].isSensor)
          ctx.renderer.drawBody(meshes[k].mesh, compose(body, meshes[k].local), color);
      continue;
    }
    ctx.renderer.drawBody(meshFor(ctx, b.shape), b.transform(), color);
  }
  drawEvents(ctx);
  drawBlast(ctx);
  if (probe_.mode() != ProbeMode::Off) {
    glm::vec3 origin, direction;
    ctx.camera.pixelRay(static_cast<float>(ctx.mouseX), static_cast<float>(ctx.mouseY),
                        ctx.windowWidth, ctx.windowHeight, origin, direction);
    probe_.run(*world_, Ray{Vec3(origin), glm::normalize(Vec3(direction))}, ctx.renderer,
               [&](const Shape& shape, const Transform& xf, const glm::vec3& color) {
                 ctx.renderer.drawBody(meshFor(ctx, shape), xf, color);
               });
  }
}

void WorldSample::drawPanel(SampleContext& ctx) {
  drawWorldPanel(ctx);
  drawJointsPanel(*world_, jointError_);
}

void WorldSample::drawWorldPanel(SampleContext& ctx) {
  if (!ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen)) {
    probe_.drawPanel();
    return;
  }
  if (!description_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", description_.c_str());
    ImGui::PopTextWrapPos();
  }
  const StepStats& s = world_->stats();
  ImGui::Text("step %lld  awake %d of %d  islands %d", static_cast<long long>(world_->stepCount()),
              s.awakeBodies, s.bodies, s.islands);
  ImGui::Text("pairs %d  manifolds %d  contacts %d", s.pairs, s.manifolds, s.contacts);
  ImGui::Text("max penetration %.4f m  energy %.1f J", s.maxPenetration, world_->energy().total());
  if (s.bodies == 0 && world_->bodyCount() > 0)  // a restored snapshot or a seek: not stepped yet
    ImGui::TextDisabled("(the counts above come with the next step)");
  ImGui::TextDisabled("timings: statistics window (F2)");
  drawEventsPanel(ctx);
  if (dropTemplate_.shape) {
    if (ImGui::Button("drop a body (D)")) drop();
    ImGui::SameLine();
  }
  if (ImGui::Button("spawn (V)")) spawn(ctx, false);
  ImGui::SameLine();
  if (ImGui::Button("shoot (B)")) spawn(ctx, true);
  if (ImGui::BeginCombo("spawn shape", ctx.spawnShape.c_str())) {
    // The hulls of assets/shapes, then the engine's round kinds and the compounds built here.
    for (const std::string& name : ctx.shapeNames)
      if (ImGui::Selectable(name.c_str(), name == ctx.spawnShape)) ctx.spawnShape = name;
    if (!ctx.shapeNames.empty()) ImGui::Separator();
    for (const char* name : {kSpawnSphere, kSpawnCapsule, kSpawnCylinder, kSpawnRoundedBox,
                             kSpawnTable, kSpawnDumbbell})
      if (ImGui::Selectable(name, ctx.spawnShape == name)) ctx.spawnShape = name;
    ImGui::EndCombo();
  }
  drawToolsPanel();
  if (!stepError_.empty()) wrappedError(stepError_);
  if (!error_.empty()) wrappedError(error_);
  probe_.drawPanel();
  drawTimeline(ctx);
}

bool WorldSample::onKey(SampleContext& ctx, int key) {
  switch (key) {
    case SDLK_d:
      if (!dropTemplate_.shape) return false;
      drop();
      return true;
    case SDLK_v:
      spawn(ctx, false);
      return true;
    case SDLK_b:
      spawn(ctx, true);
      return true;
    case SDLK_x:
      explodeTool_ = !explodeTool_;
      return true;
    case SDLK_m:
      probe_.cycleMode();
      return true;
    case SDLK_COMMA:
      // One step back: the recorded step before the one shown (paused, so it stays).
      if (!timeline_.empty() && world_->stepCount() > timeline_.firstStep())
        if (auto error = seekTimeline(ctx, world_->stepCount() - 1); !error)
          timelineMessage_ = error.error();
      return true;
    default:
      return false;
  }
}

bool WorldSample::onMouseDown(SampleContext& ctx, const Ray& ray) {
  (void)ctx;
  const RayHit hit = world_->rayCast(ray.origin, ray.direction * kRayLength);
  if (explodeTool_) {
    // A click on nothing does nothing (and orbits the camera as before).
    if (!hit.hit) return false;
    explode(hit.point);
    return true;
  }
  if (!hit.hit || !world_->body(hit.body)->isDynamic()) return false;
  Expected<DragId> drag = world_->createDrag(hit.body, hit.point);
  if (!drag) return false;
  drag_ = *drag;
  grabDistance_ = hit.fraction * kRayLength;
  return true;
}

void WorldSample::onMouseDrag(SampleContext& ctx, const Ray& ray) {
  (void)ctx;
  if (world_->isAlive(drag_))
    world_->setDragTarget(drag_, ray.origin + ray.direction * grabDistance_);
}

void WorldSample::onMouseUp(SampleContext& ctx) {
  (void)ctx;
  if (world_->isAlive(drag_)) world_->destroyDrag(drag_);
  drag_ = DragId{};
}

std::optional<Aabb> WorldSample::bounds() const {
  std::vector<BodyBox> boxes;
  for (const BodyId id : world_->bodyIds()) {
    const BodyView b = *world_->body(id);
    boxes.push_back({b.shape.bounds(b.transform()), b.isDynamic()});
  }
  return framedBounds(boxes);
}

MeshId WorldSample::meshFor(SampleContext& ctx, const Shape& shape) {
  if (const ConvexHull* hull = shape.hull()) {
    const auto it = hullMeshes_.find(hull);
    if (it != hullMeshes_.end()) return it->second;
    const MeshId id = ctx.renderer.addMesh(hullMesh(*hull));
    hullMeshes_.emplace(hull, id);
    shapes_.push_back(shape);
    return id;
  }
  if (shape.mesh() || shape.heightField() || shape.roundedHull()) {
    // By pointer: a level's ground is built once (131,072 triangles for a 256 x 256 field) and
    // uploaded once; nothing is rebuilt per frame. A rounded hull's mesh likewise, once per core.
    const void* key = shape.mesh()          ? static_cast<const void*>(shape.mesh())
                      : shape.heightField() ? static_cast<const void*>(shape.heightField())
                                            : static_cast<const void*>(shape.roundedHull());
    const auto it = surfaceMeshes_.find(key);
    if (it != surfaceMeshes_.end()) return it->second;
    const MeshId id = ctx.renderer.addMesh(shapeMesh(shape));
    surfaceMeshes_.emplace(key, id);
    shapes_.push_back(shape);
    return id;
  }
  const RoundCore* core = shape.round();
  const CylinderCore* cylinder = shape.cylinder();
  if (!core && !cylinder) return -1;  // empty, or a compound (drawn child by child)
  // Spheres, capsules and cylinders by value: equal ones share a mesh, so a heap of them is one
  // draw.
  const RoundKey key = cylinder ? RoundKey{static_cast<Real>(shape.type()),
                                           cylinder->support.radius,
                                           cylinder->support.halfHeight,
                                           0.0,
                                           0.0,
                                           0.0,
                                           0.0,
                                           0.0}
                                : RoundKey{static_cast<Real>(shape.type()),
                                           core->radius,
                                           core->points[0].x,
                                           core->points[0].y,
                                           core->points[0].z,
                                           core->points[1].x,
                                           core->points[1].y,
                                           core->points[1].z};
  const auto it = roundMeshes_.find(key);
  if (it != roundMeshes_.end()) return it->second;
  const MeshId id = ctx.renderer.addMesh(shapeMesh(shape));
  roundMeshes_.emplace(key, id);
  return id;
}

const std::vector<WorldSample::ChildMesh>& WorldSample::childMeshes(SampleContext& ctx,
                                                                    const Shape& shape) {
  const Compound* compound = shape.compound();
  const auto it = compoundMeshes_.find(compound);
  if (it != compoundMeshes_.end()) return it->second;
  std::vector<ChildMesh> children;
  if (compound)
    for (const CompoundChild& child : compound->children)
      children.push_back({meshFor(ctx, child.shape), child.local});
  shapes_.push_back(shape);
  return compoundMeshes_.emplace(compound, std::move(children)).first->second;
}

Shape WorldSample::spawnShape(SampleContext& ctx) {
  if (auto it = spawnShapes_.find(ctx.spawnShape); it != spawnShapes_.end()) return it->second;
  Expected<Shape> shape = Expected<Shape>::failure("");
  if (ctx.spawnShape == kSpawnSphere) {
    shape = makeSphere(kSpawnSphereRadius);
  } else if (ctx.spawnShape == kSpawnCapsule) {
    shape = makeCapsule(kSpawnCapsuleRadius, kSpawnCapsuleHalfHeight);
  } else if (ctx.spawnShape == kSpawnCylinder) {
    shape = makeCylinder(kSpawnCylinderRadius, kSpawnCylinderHalfHeight);
  } else if (ctx.spawnShape == kSpawnRoundedBox) {
    std::vector<Vec3> corners;
    for (int i = 0; i < 8; ++i)
      corners.push_back(kSpawnRoundedHalf *
                        Vec3(i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0));
    shape = makeRoundedHull(corners, kSpawnRoundedRadius);
  } else if (ctx.spawnShape == kSpawnTable) {
    shape = makeSampleTable();
  } else if (ctx.spawnShape == kSpawnDumbbell) {
    shape = makeSampleDumbbell();
  } else {
    auto def = loadShapeFile(ctx.assets / "shapes" / (ctx.spawnShape + ".json"));
    if (!def) {
      error_ = def.error();
      return {};
    }
    shape = makeHull(def->points);
  }
  if (!shape) {
    error_ = ctx.spawnShape + ": " + shape.error();
    return {};
  }
  spawnShapes_.emplace(ctx.spawnShape, *shape);
  return *shape;
}

Real WorldSample::topOfBodies() const {
  Real top = 0.0;
  for (const BodyId id : world_->bodyIds()) {
    const BodyView b = *world_->body(id);
    // A level's ground (a mesh or height field) by its box: the sphere about its centre reaches
    // far above a wide, flat terrain.
    top = std::max(top, b.shape.isStaticOnly() ? b.shape.bounds(b.transform()).upper.y
                                               : b.centerOfMass.y + b.radius);
  }
  return top;
}

// One more body like the template, 2 m above the highest body.
void WorldSample::drop() {
  BodyDef def = dropTemplate_;
  def.position = Vec3(0.1 * (dropped_ % 5), topOfBodies() + 2.0, 0.1 * (dropped_ % 3));
  def.linearVelocity = Vec3(0.0);
  def.angularVelocity = Vec3(0.3, 0.2, 0.1);
  if (auto id = world_->createBody(def); !id) {
    error_ = id.error();
  } else {
    error_.clear();
  }
  ++dropped_;
}

// The chosen shape 2 m above the bodies over the camera's target, or shot from the eye along the
// view direction.
void WorldSample::spawn(SampleContext& ctx, bool shoot) {
  BodyDef def;
  def.shape = spawnShape(ctx);
  if (!def.shape) return;
  def.rollingResistance = kSpawnRollingResistance;
  if (shoot) {
    const Vec3 eye(ctx.camera.eye());
    const Vec3 forward(ctx.camera.forward());
    def.position = eye + 1.0 * forward;
    def.linearVelocity = static_cast<Real>(shootSpeed_) * forward;
    def.hitEventSpeed = kShotHitSpeed;
    def.bullet = shootBullet_;
    // A chosen mass sets the density from the shape's volume (as a scene file's "mass" does).
    const Real volume = def.shape.massProperties(1.0).mass;
    if (shootMass_ > 0.0f && volume > 0.0) def.density = static_cast<Real>(shootMass_) / volume;
  } else {
    const Vec3 target(ctx.camera.target());
    def.position = Vec3(target.x + 0.13 * (spawned_ % 5), topOfBodies() + 2.0,
                        target.z + 0.11 * (spawned_ % 3));
    def.angularVelocity = Vec3(0.3, 0.2, 0.1);
  }
  if (auto id = world_->createBody(def); !id) {
    error_ = id.error();
  } else {
    error_.clear();
    ++spawned_;
  }
}

}  // namespace tumble::demo
