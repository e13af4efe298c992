// The default scene: convex hulls built by the engine from assets/shapes and from a seeded random
// point cloud, resting on the ground at fixed transforms. Static until the dynamics land.
#include <cstdint>
#include <random>
#include <vector>

#include <imgui.h>

#include "samples.h"
#include "shape_file.h"

namespace tumble::demo {
namespace {

struct Body {
  std::string name;
  ConvexHull hull;
  MeshId mesh = -1;
  Transform transform;
  glm::vec3 color;
  MassProperties mass;
};

// A uniform double in [0, 1) from 53 random bits (not std::uniform_real_distribution, whose
// output differs between standard libraries).
double unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::vector<Vec3> randomCloud(std::uint64_t seed, int count, Real radius) {
  std::mt19937_64 rng(seed);
  std::vector<Vec3> points;
  while (static_cast<int>(points.size()) < count) {
    const Vec3 p(2.0 * unit(rng) - 1.0, 2.0 * unit(rng) - 1.0, 2.0 * unit(rng) - 1.0);
    if (glm::dot(p, p) <= 1.0) points.push_back(p * radius);  // rejection: uniform in the ball
  }
  return points;
}

// Lifts `t` so the hull's lowest point touches the ground plane y = 0.
Transform restOnGround(const ConvexHull& hull, Transform t) {
  Real lowest = 0.0;
  bool first = true;
  for (const Vec3& v : hull.vertices()) {
    const Real y = t.rotate(v).y;
    if (first || y < lowest) lowest = y;
    first = false;
  }
  t.position.y = -lowest;
  return t;
}

class ShowcaseSample final : public Sample {
 public:
  Expected<void> create(SampleContext& ctx) override {
    struct Placement {
      const char* shape;  // a file in assets/shapes, or nullptr for the random cloud
      Vec3 position;
      Vec3 axis;
      Real angle;
      glm::vec3 color;
    };
    // A 3 x 3 grid, 1.6 m apart; the last one is a hull of a seeded random cloud made here.
    const Placement placements[] = {
        {"box", {-1.6, 0.0, -1.6}, {0.0, 1.0, 0.0}, 0.5, {0.86f, 0.45f, 0.26f}},
        {"tetrahedron", {0.0, 0.0, -1.6}, {0.0, 1.0, 0.0}, 0.3, {0.30f, 0.66f, 0.45f}},
        {"octahedron", {1.6, 0.0, -1.6}, {0.0, 1.0, 0.0}, 0.2, {0.70f, 0.40f, 0.75f}},
        {"icosahedron", {-1.6, 0.0, 0.0}, {1.0, 0.0, 0.0}, 0.4, {0.35f, 0.52f, 0.86f}},
        {"dodecahedron", {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, 0.0, {0.35f, 0.75f, 0.78f}},
        {"cylinder16", {1.6, 0.0, 0.0}, {0.0, 0.0, 1.0}, 1.5708, {0.80f, 0.35f, 0.40f}},
        {"cone", {-1.6, 0.0, 1.6}, {0.0, 1.0, 0.0}, 0.0, {0.55f, 0.70f, 0.30f}},
        {"capsule", {0.0, 0.0, 1.6}, {1.0, 0.0, 0.0}, 0.35, {0.90f, 0.60f, 0.45f}},
        {nullptr, {1.6, 0.0, 1.6}, {0.0, 1.0, 0.0}, 0.0, {0.85f, 0.75f, 0.30f}},
    };
    for (const Placement& p : placements) {
      Body body;
      if (p.shape) {
        auto hull = loadShape(ctx.assets, p.shape);
        if (!hull) return Expected<void>::failure(hull.error());
        body.name = p.shape;
        body.hull = std::move(*hull);
      } else {
        auto hull = ConvexHull::build(randomCloud(kRandomSeed, 40, 0.6));
        if (!hull) return Expected<void>::failure("random hull: " + hull.error());
        body.name = "cloud (seed " + std::to_string(kRandomSeed) + ")";
        body.hull = std::move(*hull);
      }
      body.transform.rotation = glm::angleAxis(p.angle, glm::normalize(p.axis));
      body.transform.position = p.position;
      body.transform = restOnGround(body.hull, body.transform);
      body.color = p.color;
      body.mass = body.hull.massProperties(kDensity);
      body.mesh = ctx.renderer.addMesh(hullMesh(body.hull));
      bodies_.push_back(std::move(body));
    }
    // Aim a little left of the bodies so they sit beside the panel, not under it.
    ctx.camera.reset({-1.1f, 0.3f, 0.9f}, 8.0f);
    return tumble::ok();
  }

  void draw(SampleContext& ctx) override {
    for (const Body& b : bodies_) ctx.renderer.drawBody(b.mesh, b.transform, b.color);
  }

  void drawPanel(SampleContext& ctx) override {
    (void)ctx;
    if (!ImGui::CollapsingHeader("Bodies", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Text("density %.0f kg/m^3", kDensity);
    if (ImGui::BeginTable("bodies", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("shape");
      ImGui::TableSetupColumn("verts");
      ImGui::TableSetupColumn("faces");
      ImGui::TableSetupColumn("edges");
      ImGui::TableSetupColumn("mass kg");
      ImGui::TableHeadersRow();
      for (const Body& b : bodies_) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(b.color.r, b.color.g, b.color.b, 1.0f), "%s", b.name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%zu", b.hull.vertices().size());
        ImGui::TableNextColumn();
        ImGui::Text("%zu", b.hull.faces().size());
        ImGui::TableNextColumn();
        ImGui::Text("%zu", b.hull.edges().size());
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", b.mass.mass);
      }
      ImGui::EndTable();
    }
  }

  int bodyCount() const override { return static_cast<int>(bodies_.size()); }

 private:
  static constexpr std::uint64_t kRandomSeed = 7;
  static constexpr Real kDensity = 1000.0;
  std::vector<Body> bodies_;
};

}  // namespace

std::unique_ptr<Sample> makeShowcaseSample() {
  return std::make_unique<ShowcaseSample>();
}

}  // namespace tumble::demo
