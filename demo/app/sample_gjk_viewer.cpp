// The GJK/LP viewer scene. Two views side by side: on the left the pair A, B as posed (meshes
// of the renderer, the closest points or the penetration on top), on the right A - B (the hull of
// all pairwise differences of the posed points, built by the engine's hull builder) around the
// origin, with the simplex of the chosen GJK iteration and, when the pair overlaps, EPA's final
// polytope and normal. Lines and translucent faces are drawn by gjk_viewer_overlay.h.
// Computation: gjk_viewer_model.h (shared with tests/unit/test_gjk_viewer.cpp).
#include "sample_gjk_viewer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include <SDL.h>
#include <imgui.h>

#include "gjk_viewer_model.h"
#include "gjk_viewer_overlay.h"
#include "gjk_viewer_views.h"
#include "hull_mesh.h"
#include "tumble/shape_file.h"

namespace tumble::demo {
namespace {

constexpr Vec3 kWorkAnchor{-0.85, 1.35, 0.0};      // where the pair's centre is drawn
constexpr Vec3 kMinkowskiAnchor{1.55, 1.35, 0.0};  // where A - B's view centre is drawn

const char* verdict(bool intersect) {
  return intersect ? "intersect" : "separated";
}

const char* toString(GjkStatus s) {
  switch (s) {
    case GjkStatus::Separated:
      return "ok";
    case GjkStatus::Intersecting:
      return "ok";
    case GjkStatus::MaxIterations:
      return "max_iterations";
  }
  return "?";
}

const char* toString(EpaStatus s) {
  switch (s) {
    case EpaStatus::Converged:
      return "converged";
    case EpaStatus::MaxIterations:
      return "max_iterations";
    case EpaStatus::Touching:
      return "touching";
  }
  return "?";
}

struct BodyView {
  std::optional<ConvexHull> hull;  // of (points - pivot) * scale; none for flat or tiny sets
  MeshId mesh = -1;
};

class GjkViewerSample final : public Sample {
 public:
  GjkViewerSample(std::optional<CollideQuery> query, std::string spec)
      : initialQuery_(std::move(query)), initialSpec_(std::move(spec)) {}

  Expected<void> create(SampleContext& ctx) override {
    auto library = loadShapeLibrary(ctx.assets / "shapes");
    if (!library) return Expected<void>::failure(library.error());
    library_ = std::move(*library);
    if (initialQuery_) {
      setPair(*initialQuery_, "query");
    } else if (!initialSpec_.empty()) {
      if (auto error = loadSpec(initialSpec_); !error) return error;
    } else if (auto error = defaultPair(); !error) {
      return error;
    }
    std::snprintf(pathBuffer_, sizeof pathBuffer_, "%s", initialSpec_.c_str());
    update(ctx);
    step_ = middleStep(static_cast<int>(query_.trace.steps.size()));
    ctx.camera.reset({0.3f, 1.15f, 0.0f}, 7.0f, 0.12f, 0.30f);
    return tumble::ok();
  }

  void draw(SampleContext& ctx) override {
    update(ctx);
    for (int k = 0; k < 2; ++k) {
      const ViewerBody& body = k == 0 ? a_ : b_;
      if (views_[k].mesh < 0) continue;
      const Transform shown{work_.toDisplay(body.position), body.rotation};
      ctx.renderer.drawBody(views_[k].mesh, shown, k == 0 ? kViewerColorA : kViewerColorB);
    }
  }

  void drawPanel(SampleContext& ctx) override {
    ImGui::TextDisabled("see the GJK viewer window");
    // One window of its own at the right (the views sit between it and the panel).
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x - 10.0f, 10.0f), ImGuiCond_FirstUseEver,
                            ImVec2(1.0f, 0.0f));
    // A fixed width (auto height), so a long line cannot widen it over the views.
    ImGui::SetNextWindowSizeConstraints(ImVec2(330.0f, 0.0f), ImVec2(330.0f, 1.0e6f));
    ImGui::Begin("GJK viewer", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushItemWidth(180.0f);
    drawResults();
    drawControls();
    ImGui::PopItemWidth();
    ImGui::End();
    drawOverlay(ctx);
  }

  bool onKey(SampleContext& ctx, int key) override {
    (void)ctx;
    const int last = static_cast<int>(query_.trace.steps.size()) - 1;
    switch (key) {
      case SDLK_LEFT:
        step_ = std::max(0, step_ - 1);
        return true;
      case SDLK_RIGHT:
        step_ = std::min(last, step_ + 1);
        return true;
      case SDLK_HOME:
        step_ = 0;
        return true;
      case SDLK_END:
        step_ = last;
        return true;
      default:
        return false;
    }
  }

  // Picks the body whose drawn centre passes nearest the ray (within its drawn radius).
  bool onMouseDown(SampleContext& ctx, const Ray& ray) override {
    (void)ctx;
    drag_ = -1;
    Real bestT = 0.0;
    for (int k = 0; k < 2; ++k) {
      const ViewerBody& body = k == 0 ? a_ : b_;
      const Vec3 c = work_.toDisplay(body.position);
      const Real t = glm::dot(c - ray.origin, ray.direction);
      const Real miss = glm::length(ray.origin + t * ray.direction - c);
      if (t > 0.0 && miss <= radii_[k] * work_.scale && (drag_ < 0 || t < bestT)) {
        drag_ = k;
        bestT = t;
      }
    }
    if (drag_ < 0) return false;
    ViewerBody& body = drag_ == 0 ? a_ : b_;
    dragNormal_ = -ray.direction;
    dragStart_ = ray.origin + bestT * ray.direction;
    dragPosition_ = body.position;
    dragRotation_ = body.rotation;
    dragTurn_ = (SDL_GetModState() & KMOD_CTRL) != 0;
    return true;
  }

  // Moves the body in the plane facing the camera; with Ctrl held, turns it about its centre
  // (the axis perpendicular to the drag in the view plane, so the near side follows the mouse;
  // 2 radians per displayed metre).
  void onMouseDrag(SampleContext& ctx, const Ray& ray) override {
    (void)ctx;
    if (drag_ < 0) return;
    const Real den = glm::dot(ray.direction, dragNormal_);
    if (std::fabs(den) < 1e-9) return;
    const Real t = glm::dot(dragStart_ - ray.origin, dragNormal_) / den;
    const Vec3 delta = ray.origin + t * ray.direction - dragStart_;
    ViewerBody& body = drag_ == 0 ? a_ : b_;
    if (dragTurn_) {
      const Vec3 axis = glm::cross(dragNormal_, delta);
      const Real l = glm::length(axis);
      if (l > 1e-9)
        body.rotation = glm::normalize(glm::angleAxis(2.0 * l, axis / l) * dragRotation_);
    } else {
      body.position = dragPosition_ + delta / work_.scale;
    }
    poseDirty_ = true;
  }

  void onMouseUp(SampleContext& ctx) override {
    (void)ctx;
    drag_ = -1;
  }

  int bodyCount() const override { return 2; }

 private:
  Expected<void> defaultPair() {
    const ShapeDef* box = findShape(library_, "box");
    const ShapeDef* ico = findShape(library_, "icosahedron");
    if (!box || !ico)
      return Expected<void>::failure(
          std::string("assets/shapes needs box.json and icosahedron.json"));
    shapeA_ = static_cast<int>(box - library_.data());
    shapeB_ = static_cast<int>(ico - library_.data());
    a_ = bodyAt(box->name, box->points);
    b_ = bodyAt(ico->name, ico->points);
    resetPose();
    return tumble::ok();
  }

  // Fixed poses chosen so that the pair is separated by a few centimetres and GJK needs several
  // iterations (the default picture shows the middle one).
  void resetPose() {
    if (shapeA_ < 0) {
      a_.position = a_.pivot;
      b_.position = b_.pivot;
      a_.rotation = b_.rotation = Quat{1.0, 0.0, 0.0, 0.0};
    } else {
      a_.position = {-0.55, 1.0, 0.0};
      a_.rotation = glm::angleAxis(0.6, glm::normalize(Vec3{1.0, 1.0, 0.3}));
      b_.position = {0.75, 1.25, 0.25};
      b_.rotation = glm::angleAxis(0.4, glm::normalize(Vec3{0.2, 1.0, 0.5}));
    }
    refit_ = true;
  }

  void setPair(const CollideQuery& q, const std::string& origin) {
    a_ = bodyAt(origin + " a", q.a);
    b_ = bodyAt(origin + " b", q.b);
    shapeA_ = shapeB_ = -1;
    loadedId_ = q.id;
    refit_ = true;
  }

  Expected<void> loadSpec(const std::string& spec) {
    const auto [file, line] = splitPairSpec(spec);
    auto q = loadCollidePair(file, line);
    if (!q) return Expected<void>::failure(q.error());
    setPair(*q, std::filesystem::path(file).filename().string() +
                    (line > 0 ? ":" + std::to_string(line) : std::string()));
    followLast_ = true;  // a saved pair is about the answer
    return tumble::ok();
  }

  void pickShape(int which, int index) {
    ViewerBody& body = which == 0 ? a_ : b_;
    const ShapeDef& s = library_[static_cast<size_t>(index)];
    const Vec3 position = body.position;
    const Quat rotation = body.rotation;
    body = bodyAt(s.name, s.points);
    body.position = position;
    body.rotation = rotation;
    (which == 0 ? shapeA_ : shapeB_) = index;
    refit_ = true;
  }

  // Framing and meshes (after a new pair, a new shape or "Frame views"), then the query.
  void update(SampleContext& ctx) {
    if (refit_) {
      refit(ctx);
      refit_ = false;
      poseDirty_ = true;
    }
    if (poseDirty_) {
      std::vector<Vec3> va = a_.worldPoints(), vb = b_.worldPoints();
      if (views_[0].hull) va = hullVertices(a_, views_[0]);
      if (views_[1].hull) vb = hullVertices(b_, views_[1]);
      diffs_ = minkowskiPoints(va, vb);
      auto hull = ConvexHull::build(diffs_);
      minkowski_.reset();
      if (hull) minkowski_ = std::move(*hull);
      poseDirty_ = false;
    }
    // Cheap enough to run every frame, so edits of the settings panel show at once.
    query_ = runViewerQuery(a_.worldPoints(), b_.worldPoints(), ctx.settings);
    const int steps = static_cast<int>(query_.trace.steps.size());
    step_ = followLast_ ? steps - 1 : std::clamp(step_, 0, std::max(0, steps - 1));
  }

  // World positions of the hull vertices only: A - B is the hull of their differences too.
  static std::vector<Vec3> hullVertices(const ViewerBody& body, const BodyView& view) {
    const Transform x = body.transform();
    std::vector<Vec3> out;
    for (int src : view.hull->sourceIndices())
      out.push_back(x.apply(body.points[static_cast<size_t>(src)]));
    return out;
  }

  void refit(SampleContext& ctx) {
    const std::vector<Vec3> wa = a_.worldPoints(), wb = b_.worldPoints();
    std::vector<Vec3> all(wa);
    all.insert(all.end(), wb.begin(), wb.end());
    const Vec3 centre = centroid(all);
    Real workRadius = 0.0;
    for (const Vec3& p : all) workRadius = std::max(workRadius, glm::length(p - centre));
    const std::vector<Vec3> diffs = minkowskiPoints(wa, wb);
    const Vec3 mid = 0.5 * centroid(diffs);  // between the origin and A - B
    Real mRadius = glm::length(mid);
    for (const Vec3& w : diffs) mRadius = std::max(mRadius, glm::length(w - mid));
    // True size when it fits the views (about 1.2 m radius each), else one common scale.
    const Real largest = std::max(workRadius, mRadius);
    const Real scale = largest > 1.2 || largest < 0.2 ? 1.1 / std::max(largest, 1e-12) : 1.0;
    work_ = Framing{centre, scale, kWorkAnchor};
    mink_ = Framing{mid, scale, kMinkowskiAnchor};

    ctx.renderer.clearMeshes();
    for (int k = 0; k < 2; ++k) {
      const ViewerBody& body = k == 0 ? a_ : b_;
      std::vector<Vec3> local;
      radii_[k] = 0.0;
      for (const Vec3& p : body.points) {
        local.push_back((p - body.pivot) * scale);
        radii_[k] = std::max(radii_[k], glm::length(p - body.pivot));
      }
      views_[k] = BodyView{};
      if (auto hull = ConvexHull::build(local)) {
        views_[k].mesh = ctx.renderer.addMesh(hullMesh(*hull));
        views_[k].hull = std::move(*hull);
      }
    }
    // sourceIndices() of a scaled hull index `points` too; the pick radius is at least 5 cm.
    for (Real& r : radii_) r = std::max(r, 0.05 / scale);
  }

  void drawControls();
  void drawResults();
  void drawOverlay(SampleContext& ctx);

  std::optional<CollideQuery> initialQuery_;
  std::string initialSpec_;
  std::vector<ShapeDef> library_;
  ViewerBody a_, b_;
  int shapeA_ = -1, shapeB_ = -1;  // index into library_, -1 for a loaded pair
  std::string loadedId_;
  BodyView views_[2];
  Real radii_[2] = {0.5, 0.5};  // world radius about the pivot, for picking
  Framing work_, mink_;
  bool refit_ = true, poseDirty_ = true;
  std::vector<Vec3> diffs_;
  std::optional<ConvexHull> minkowski_;
  ViewerQuery query_;
  int step_ = 0;
  bool followLast_ = false;
  int drag_ = -1;
  bool dragTurn_ = false;
  // The "turn deg" fields keep the user's angles (TurnField, gjk_viewer_model.h).
  TurnField turn_[2];
  Vec3 dragNormal_{0.0}, dragStart_{0.0}, dragPosition_{0.0};
  Quat dragRotation_{1.0, 0.0, 0.0, 0.0};
  char pathBuffer_[512] = {};
  int pathLine_ = 0;
  std::string loadError_;
};

void GjkViewerSample::drawControls() {
  if (!ImGui::CollapsingHeader("Pair", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextDisabled("drag: move, Ctrl+drag: turn");
  for (int k = 0; k < 2; ++k) {
    ImGui::PushID(k);
    ViewerBody& body = k == 0 ? a_ : b_;
    int& shape = k == 0 ? shapeA_ : shapeB_;
    const char* label = "shape";
    const std::string current = shape >= 0 ? library_[static_cast<size_t>(shape)].name : body.name;
    ImGui::TextColored(k == 0 ? ImVec4(kViewerColorA.r, kViewerColorA.g, kViewerColorA.b, 1.0f)
                              : ImVec4(kViewerColorB.r, kViewerColorB.g, kViewerColorB.b, 1.0f),
                       "%s", k == 0 ? "A" : "B");
    ImGui::SameLine();
    if (ImGui::BeginCombo(label, current.c_str())) {
      for (int i = 0; i < static_cast<int>(library_.size()); ++i) {
        if (ImGui::Selectable(library_[static_cast<size_t>(i)].name.c_str(), i == shape))
          pickShape(k, i);
      }
      ImGui::EndCombo();
    }
    if (ImGui::DragScalarN("position", ImGuiDataType_Double, &body.position.x, 3, 0.01f, nullptr,
                           nullptr, "%.3f"))
      poseDirty_ = true;
    Vec3& euler = turn_[k].sync(body.rotation);
    if (ImGui::DragScalarN("turn deg", ImGuiDataType_Double, &euler.x, 3, 0.5f, nullptr, nullptr,
                           "%.1f")) {
      body.rotation = turn_[k].apply();
      poseDirty_ = true;
    }
    ImGui::PopID();
  }
  if (ImGui::Button("Reset pose")) resetPose();
  ImGui::SameLine();
  if (ImGui::Button("Frame views")) refit_ = true;

  ImGui::InputText("file", pathBuffer_, sizeof pathBuffer_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "a collide-format JSON Lines file (tumble-cli collide input, or the pairs "
        "the cross-check saves); FILE:LINE picks a line");
  ImGui::InputInt("line", &pathLine_);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("1-based line of the file; 0: the first pair");
  pathLine_ = std::max(pathLine_, 0);
  if (ImGui::Button("Load pair")) {
    std::string spec = pathBuffer_;
    if (pathLine_ > 0 && splitPairSpec(spec).second == 0) spec += ":" + std::to_string(pathLine_);
    const auto error = loadSpec(spec);
    loadError_ = error ? std::string() : error.error();
  }
  if (!loadedId_.empty()) {
    ImGui::SameLine();
    ImGui::Text("id \"%s\"", loadedId_.c_str());
  }
  if (!loadError_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", loadError_.c_str());
    ImGui::PopTextWrapPos();
  }
}

void GjkViewerSample::drawResults() {
  const CrossCheckResult& c = query_.check;
  const int steps = static_cast<int>(query_.trace.steps.size());
  ImGui::SliderInt("GJK step", &step_, 0, std::max(0, steps - 1));
  ImGui::SameLine();
  ImGui::Checkbox("last", &followLast_);
  if (steps > 0) {
    const GjkTraceStep& s = query_.trace.steps[static_cast<size_t>(step_)];
    ImGui::Text("step %d of %d: %d-point simplex, |v| %.5g m", step_, steps - 1, s.count,
                s.distance);
  }
  ImGui::TextDisabled("Left/Right, Home/End: step");
  ImGui::Separator();
  const ImVec4 good(0.55f, 0.90f, 0.55f, 1.0f), bad(1.0f, 0.35f, 0.30f, 1.0f);
  ImGui::Text("GJK  %s", verdict(c.gjkIntersect));
  ImGui::Text("     %s %.6g m", c.gjkIntersect ? "depth (EPA)" : "distance", c.gjkMeasure);
  ImGui::Text("     %d iterations, %s", c.gjk.iterations, toString(c.gjk.status));
  if (c.epaRan) {
    ImGui::Text("EPA  %s, %d iter., %zu faces", toString(c.epa.status), c.epa.iterations,
                query_.epa.faces.size());
    ImGui::Text("     normal (%.3f, %.3f, %.3f)", c.epa.normal.x, c.epa.normal.y, c.epa.normal.z);
  }
  ImGui::Text("LP   %s", verdict(c.lp.intersect));
  ImGui::Text("     objective %.3g, %d pivots, %s", c.lp.objective, c.lp.pivots, c.lpStatusName());
  ImGui::Text("band %.3g m (h = %.3g m)", c.band, c.lp.scale);
  if (c.agree) {
    ImGui::TextColored(good,
                       c.gjkIntersect == c.lp.intersect ? "agree" : "agree (within the band)");
  } else {
    ImGui::TextColored(bad, "DISAGREE (outside the band)");
  }
  if (work_.scale != 1.0) ImGui::TextDisabled("views drawn at scale %.3g", work_.scale);
  if (!minkowski_) ImGui::TextDisabled("A - B is flat: drawn as points");
  if (c.epaRan) ImGui::TextDisabled("EPA polytope: at the last step");
}

void GjkViewerSample::drawOverlay(SampleContext& ctx) {
  ViewerPicture pic;
  pic.query = &query_;
  pic.minkowski = minkowski_ ? &*minkowski_ : nullptr;
  pic.diffs = &diffs_;
  pic.work = work_;
  pic.mink = mink_;
  pic.step = step_;
  for (int k = 0; k < 2; ++k) {
    pic.body[k] = k == 0 ? &a_ : &b_;
    pic.meshed[k] = views_[k].mesh >= 0;
    pic.radius[k] = radii_[k];
  }
  const Overlay o(ctx.camera, ImGui::GetBackgroundDrawList());
  drawMinkowskiView(o, pic);
  drawPairView(o, pic);
  if (!query_.check.agree) drawDisagreementBanner();
}

}  // namespace

std::unique_ptr<Sample> makeGjkViewerSample() {
  const char* spec = std::getenv(kViewerPairEnv);
  return std::make_unique<GjkViewerSample>(std::nullopt, spec ? std::string(spec) : std::string());
}

std::unique_ptr<Sample> makeGjkViewerSample(const CollideQuery& query) {
  return std::make_unique<GjkViewerSample>(query, std::string());
}

std::unique_ptr<Sample> makeGjkViewerSampleFromFile(std::string spec) {
  return std::make_unique<GjkViewerSample>(std::nullopt, std::move(spec));
}

}  // namespace tumble::demo
