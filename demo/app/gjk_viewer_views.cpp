#include "gjk_viewer_views.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <imgui.h>

namespace tumble::demo {
namespace {

constexpr Rgba kHull{0.55f, 0.80f, 0.62f, 0.20f};
constexpr Rgba kHullEdge{0.12f, 0.30f, 0.20f, 0.55f};
constexpr Rgba kSimplex{1.0f, 0.86f, 0.15f, 1.0f};
constexpr Rgba kClosest{0.10f, 0.95f, 0.95f, 1.0f};
constexpr Rgba kSupport{0.95f, 0.25f, 0.95f, 1.0f};
constexpr Rgba kEpa{1.0f, 0.55f, 0.10f, 1.0f};
constexpr Rgba kNormal{0.95f, 0.15f, 0.12f, 1.0f};
constexpr Rgba kWhite{1.0f, 1.0f, 1.0f, 1.0f};

Rgba rgba(const glm::vec3& c, float a = 1.0f) {
  return {c.r, c.g, c.b, a};
}

}  // namespace

void drawMinkowskiView(const Overlay& o, const ViewerPicture& pic) {
  auto at = [&](const Vec3& w) { return pic.mink.toDisplay(w); };
  if (pic.minkowski) {
    // Translucent faces back to front (painter's order), then the edges.
    const auto& faces = pic.minkowski->faces();
    std::vector<std::pair<float, size_t>> order;
    for (size_t f = 0; f < faces.size(); ++f) {
      Vec3 c{0.0};
      for (int v : faces[f].vertices) c += pic.minkowski->vertices()[static_cast<size_t>(v)];
      order.emplace_back(o.depth(at(c / static_cast<Real>(faces[f].vertices.size()))), f);
    }
    std::sort(order.begin(), order.end(),
              [](const auto& x, const auto& y) { return x.first > y.first; });
    std::vector<Vec3> corners;
    for (const auto& [d, f] : order) {
      corners.clear();
      for (int v : faces[f].vertices)
        corners.push_back(at(pic.minkowski->vertices()[static_cast<size_t>(v)]));
      o.face(corners, faces[f].normal, kHull);
    }
    for (const HullEdge& e : pic.minkowski->edges())
      o.line(at(pic.minkowski->vertices()[static_cast<size_t>(e.a)]),
             at(pic.minkowski->vertices()[static_cast<size_t>(e.b)]), kHullEdge, 1.0f);
  } else {
    for (const Vec3& w : (*pic.diffs)) o.dot(at(w), 2.5f, kHullEdge.withAlpha(0.9f));
  }
  o.label(at(pic.minkowski ? pic.minkowski->vertices().front() : (*pic.diffs).front()), "A - B",
          {0.85f, 1.0f, 0.88f, 1.0f});

  // The origin: axes (X red, Y green, Z blue) and a dot.
  const Vec3 origin = at(Vec3{0.0});
  const Real axis = 0.25;
  o.line(origin, origin + Vec3{axis, 0, 0}, {0.9f, 0.2f, 0.2f, 1.0f}, 2.0f);
  o.line(origin, origin + Vec3{0, axis, 0}, {0.2f, 0.85f, 0.2f, 1.0f}, 2.0f);
  o.line(origin, origin + Vec3{0, 0, axis}, {0.25f, 0.4f, 0.95f, 1.0f}, 2.0f);
  o.dot(origin, 4.5f, kWhite);
  o.label(origin, "origin", kWhite);

  const int steps = static_cast<int>(pic.query->trace.steps.size());
  if (steps == 0) return;
  const GjkTraceStep& s = pic.query->trace.steps[static_cast<size_t>(pic.step)];
  const SimplexPieces pieces = simplexPieces(s.count);
  for (const auto& t : pieces.triangles) {
    const Vec3 corners[3] = {at(s.vertices[t[0]]), at(s.vertices[t[1]]), at(s.vertices[t[2]])};
    const Vec3 n = glm::cross(corners[1] - corners[0], corners[2] - corners[0]);
    o.face(corners, glm::length(n) > 0.0 ? glm::normalize(n) : Vec3{0, 1, 0},
           kSimplex.withAlpha(0.35f));
  }
  for (const auto& [i, j] : pieces.edges)
    o.line(at(s.vertices[i]), at(s.vertices[j]), kSimplex, 2.5f);
  for (int k = 0; k < s.count; ++k) o.dot(at(s.vertices[k]), 4.0f, kSimplex);
  const bool atLast = pic.step == steps - 1;
  const bool showEpa = atLast && pic.query->check.epaRan && !pic.query->epa.faces.empty();
  if (pic.step > 0 && !showEpa) {
    o.ring(at(s.support), 8.0f, kSupport, 2.0f);
    o.label(at(s.support), "support", kSupport, 9.0f);
  }
  if (s.distance > 0.0) {
    o.arrow(origin, at(s.closest), kClosest, 2.0f, 9.0f);
    o.label(at(s.closest), "v", kClosest);
  }

  if (showEpa) {
    const EpaTrace& e = pic.query->epa;
    for (size_t f = 0; f < e.faces.size(); ++f) {
      const auto& t = e.faces[f];
      const Vec3 c[3] = {at(e.vertices[static_cast<size_t>(t[0])]),
                         at(e.vertices[static_cast<size_t>(t[1])]),
                         at(e.vertices[static_cast<size_t>(t[2])])};
      if (static_cast<int>(f) == e.closestFace)
        o.face(c, pic.query->check.epa.normal, kEpa.withAlpha(0.55f));
      for (int k = 0; k < 3; ++k) o.line(c[k], c[(k + 1) % 3], kEpa.withAlpha(0.85f), 1.2f);
    }
    const Vec3 tip = at(pic.query->check.epa.depth * pic.query->check.epa.normal);
    o.arrow(origin, tip, kNormal, 3.0f, 11.0f);
    o.label(tip, "depth x normal", kNormal);
  }
}

void drawPairView(const Overlay& o, const ViewerPicture& pic) {
  auto at = [&](const Vec3& p) { return pic.work.toDisplay(p); };
  char text[96];
  for (int k = 0; k < 2; ++k) {
    const ViewerBody& body = *pic.body[k];
    const Rgba color = rgba(k == 0 ? kViewerColorA : kViewerColorB);
    if (!pic.meshed[k]) {
      // A point, segment, triangle or flat set: no mesh, so its points (and edges for <= 3).
      const std::vector<Vec3> w = body.worldPoints();
      for (size_t i = 0; i < w.size() && w.size() <= 3; ++i)
        for (size_t j = i + 1; j < w.size(); ++j) o.line(at(w[i]), at(w[j]), color, 3.0f);
      for (const Vec3& p : w) o.dot(at(p), 4.0f, color);
    }
    o.label(at(body.position) + Vec3{0.0, pic.radius[k] * pic.work.scale, 0.0}, k == 0 ? "A" : "B",
            color);
  }
  const int steps = static_cast<int>(pic.query->trace.steps.size());
  if (steps == 0) return;
  const GjkTraceStep& s = pic.query->trace.steps[static_cast<size_t>(pic.step)];
  const bool penetrating = pic.step == steps - 1 && pic.query->check.epaRan;
  if (!penetrating) {
    // This step's closest points on A and on B, and their distance |v|.
    o.line(at(s.pointA), at(s.pointB), kClosest, 2.0f);
    o.dot(at(s.pointA), 5.0f, rgba(kViewerColorA));
    o.ring(at(s.pointA), 5.0f, kWhite, 1.5f);
    o.dot(at(s.pointB), 5.0f, rgba(kViewerColorB));
    o.ring(at(s.pointB), 5.0f, kWhite, 1.5f);
    std::snprintf(text, sizeof text, "%.4g m", s.distance);
    o.label(at(0.5 * (s.pointA + s.pointB)), text, kClosest, 10.0f);
    return;
  }
  // Overlapping: EPA's deepest points and the normal (B moves by depth x normal to separate).
  const EpaResult& e = pic.query->check.epa;
  o.dot(at(pic.query->deepA), 5.0f, rgba(kViewerColorA));
  o.dot(at(pic.query->deepB), 5.0f, rgba(kViewerColorB));
  const Vec3 from = at(pic.query->deepA);
  o.arrow(from, from + std::max(e.depth * pic.work.scale, 0.25) * e.normal, kNormal, 3.0f, 11.0f);
  std::snprintf(text, sizeof text, "depth %.4g m", e.depth);
  o.label(from, text, kNormal, 10.0f);
}

void drawDisagreementBanner() {
  ImDrawList* fg = ImGui::GetForegroundDrawList();
  const float w = ImGui::GetIO().DisplaySize.x;
  const char* text = "GJK AND LP DISAGREE (outside the tolerance band)";
  const ImVec2 size = ImGui::CalcTextSize(text);
  fg->AddRectFilled(ImVec2(0.5f * w - 0.5f * size.x - 24.0f, 44.0f),
                    ImVec2(0.5f * w + 0.5f * size.x + 24.0f, 76.0f),
                    packColor({0.85f, 0.05f, 0.05f, 0.92f}), 4.0f);
  fg->AddText(ImVec2(0.5f * w - 0.5f * size.x, 60.0f - 0.5f * size.y), packColor(kWhite), text);
}

}  // namespace tumble::demo
