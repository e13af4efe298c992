#include "gjk_viewer_overlay.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tumble::demo {
namespace {

// The renderer's light direction (renderer.cpp), so overlay faces shade like the bodies.
const Vec3 kLight = glm::normalize(Vec3{0.35, 0.85, 0.4});

}  // namespace

ImU32 packColor(const Rgba& c) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a));
}

Overlay::Overlay(const OrbitCamera& camera, ImDrawList* list) : list_(list) {
  size_ = ImGui::GetIO().DisplaySize;
  const int w = std::max(1, static_cast<int>(size_.x));
  const int h = std::max(1, static_cast<int>(size_.y));
  viewProj_ = glm::dmat4(camera.projection(w, h) * camera.view());
  eye_ = Vec3(camera.eye());
  forward_ = glm::normalize(Vec3(camera.target()) - eye_);
}

std::optional<ImVec2> Overlay::project(const Vec3& p) const {
  const glm::dvec4 clip = viewProj_ * glm::dvec4(p, 1.0);
  if (clip.w < 0.05) return std::nullopt;
  const double x = clip.x / clip.w, y = clip.y / clip.w;
  return ImVec2(static_cast<float>((0.5 + 0.5 * x) * size_.x),
                static_cast<float>((0.5 - 0.5 * y) * size_.y));
}

float Overlay::depth(const Vec3& p) const {
  return static_cast<float>(glm::dot(p - eye_, forward_));
}

Vec3 Overlay::towardsEye(const Vec3& p) const {
  const Vec3 d = eye_ - p;
  const Real l = glm::length(d);
  return l > 0.0 ? d / l : -forward_;
}

void Overlay::line(const Vec3& a, const Vec3& b, const Rgba& color, float thickness) const {
  const auto pa = project(a), pb = project(b);
  if (pa && pb) list_->AddLine(*pa, *pb, packColor(color), thickness);
}

void Overlay::dot(const Vec3& p, float radiusPx, const Rgba& color) const {
  if (const auto s = project(p)) list_->AddCircleFilled(*s, radiusPx, packColor(color), 16);
}

void Overlay::ring(const Vec3& p, float radiusPx, const Rgba& color, float thickness) const {
  if (const auto s = project(p)) list_->AddCircle(*s, radiusPx, packColor(color), 20, thickness);
}

void Overlay::face(std::span<const Vec3> corners, const Vec3& normal, const Rgba& color) const {
  std::vector<ImVec2> pts;
  pts.reserve(corners.size());
  for (const Vec3& c : corners) {
    const auto s = project(c);
    if (!s) return;
    pts.push_back(*s);
  }
  if (pts.size() < 3) return;
  // ImGui's anti-aliased fill wants clockwise points on screen (y down): reverse otherwise.
  float area = 0.0f;
  for (size_t i = 0; i < pts.size(); ++i) {
    const ImVec2& p = pts[i];
    const ImVec2& q = pts[(i + 1) % pts.size()];
    area += p.x * q.y - q.x * p.y;
  }
  if (area < 0.0f) std::reverse(pts.begin(), pts.end());
  const float light = static_cast<float>(0.55 + 0.45 * std::fabs(glm::dot(normal, kLight)));
  const Rgba shaded{color.r * light, color.g * light, color.b * light, color.a};
  list_->AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), packColor(shaded));
}

void Overlay::arrow(const Vec3& from, const Vec3& to, const Rgba& color, float thickness,
                    float headPx) const {
  const auto a = project(from), b = project(to);
  if (!a || !b) return;
  const ImU32 c = packColor(color);
  list_->AddLine(*a, *b, c, thickness);
  const float dx = b->x - a->x, dy = b->y - a->y;
  const float l = std::sqrt(dx * dx + dy * dy);
  if (l < 1e-3f) return;
  const float ux = dx / l, uy = dy / l, h = std::min(headPx, 0.6f * l);
  const ImVec2 left(b->x - h * ux - 0.5f * h * uy, b->y - h * uy + 0.5f * h * ux);
  const ImVec2 right(b->x - h * ux + 0.5f * h * uy, b->y - h * uy - 0.5f * h * ux);
  list_->AddTriangleFilled(*b, right, left, c);
}

void Overlay::label(const Vec3& p, const char* text, const Rgba& color, float offsetPx) const {
  const auto s = project(p);
  if (!s) return;
  const ImVec2 at(s->x + offsetPx, s->y - offsetPx - ImGui::GetFontSize());
  // A dark shadow keeps the text readable over light and dark backgrounds.
  list_->AddText(ImVec2(at.x + 1.0f, at.y + 1.0f), packColor({0.0f, 0.0f, 0.0f, 0.8f * color.a}),
                 text);
  list_->AddText(at, packColor(color), text);
}

}  // namespace tumble::demo
