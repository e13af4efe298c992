#pragma once
// 3D lines, points, translucent faces and labels for the GJK viewer, projected with the camera
// and drawn into Dear ImGui's background draw list (over the rendered bodies, under the panels).
// The renderer draws opaque meshes only; translucency and thick lines come from ImGui's
// anti-aliased 2D primitives, faces sorted back to front by the caller.
#include <optional>
#include <span>

#include <imgui.h>
#include <glm/glm.hpp>

#include "camera.h"
#include "tumble/math.h"

namespace tumble::demo {

/// RGBA in [0, 1].
struct Rgba {
  float r = 1.0f, g = 1.0f, b = 1.0f, a = 1.0f;
  Rgba withAlpha(float alpha) const { return {r, g, b, alpha}; }
};

class Overlay {
 public:
  /// Projects with `camera` for a viewport of ImGui's display size; draws into `list`.
  Overlay(const OrbitCamera& camera, ImDrawList* list);

  /// Screen position of a world point, or nothing when it is behind the near plane.
  std::optional<ImVec2> project(const Vec3& p) const;
  /// Depth of a world point along the view direction (larger is farther).
  float depth(const Vec3& p) const;
  /// Unit vector from `p` towards the eye.
  Vec3 towardsEye(const Vec3& p) const;

  void line(const Vec3& a, const Vec3& b, const Rgba& color, float thickness = 1.5f) const;
  void dot(const Vec3& p, float radiusPx, const Rgba& color) const;
  void ring(const Vec3& p, float radiusPx, const Rgba& color, float thickness = 2.0f) const;
  /// A filled convex polygon (any winding), flat-shaded by `normal` against a fixed light.
  void face(std::span<const Vec3> corners, const Vec3& normal, const Rgba& color) const;
  /// An arrow from `from` to `to` with a head of `headPx` pixels.
  void arrow(const Vec3& from, const Vec3& to, const Rgba& color, float thickness = 2.5f,
             float headPx = 10.0f) const;
  /// `text` with its top-left corner `offsetPx` pixels right of and above `p`'s projection.
  void label(const Vec3& p, const char* text, const Rgba& color, float offsetPx = 6.0f) const;

 private:
  glm::dmat4 viewProj_;
  Vec3 eye_;
  Vec3 forward_;
  ImVec2 size_;
  ImDrawList* list_;
};

/// ImGui's packed colour.
ImU32 packColor(const Rgba& c);

}  // namespace tumble::demo
