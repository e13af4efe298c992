#include "framing.h"

#include <algorithm>
#include <cmath>

namespace tumble::demo {
namespace {

// Below this width the panel's side is not worth aiming at: use the whole window.
constexpr float kMinFreeFraction = 0.25f;

Aabb merged(const Aabb& a, const Aabb& b) {
  return {glm::min(a.lower, b.lower), glm::max(a.upper, b.upper)};
}

}  // namespace

ViewRegion regionBesidePanel(float panelX0, float panelX1, float width) {
  if (!(width > 0.0f) || !(panelX1 > panelX0)) return {};
  const float left = std::max(panelX0, 0.0f);
  const float right = std::max(width - panelX1, 0.0f);
  if (std::max(left, right) < kMinFreeFraction * width) return {};
  if (right >= left) return {std::min(panelX1 / width, 1.0f), 0.0f, 1.0f, 1.0f};
  return {0.0f, 0.0f, std::max(panelX0 / width, 0.0f), 1.0f};
}

float framingDistance(const glm::vec3& lo, const glm::vec3& hi, const glm::vec3& forward,
                      float tanX, float tanY, float near) {
  // In the camera's frame a corner at (x, y) across and z along the view axis, seen from the
  // distance d, is at depth d + z: it is in view when |x| <= tanX (d + z) and |y| <= tanY (d + z).
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  const glm::vec3 centre = 0.5f * (lo + hi);
  float distance = 0.0f;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
    const glm::vec3 d = corner - centre;
    const float x = std::abs(glm::dot(d, right));
    const float y = std::abs(glm::dot(d, up));
    const float z = glm::dot(d, forward);
    distance = std::max({distance, x / tanX - z, y / tanY - z, near - z});
  }
  return distance;
}

std::optional<Aabb> framedBounds(std::span<const BodyBox> bodies) {
  std::optional<Aabb> moving;
  for (const BodyBox& b : bodies)
    if (b.moves) moving = moving ? merged(*moving, b.box) : b.box;
  std::optional<Aabb> out = moving;
  for (const BodyBox& b : bodies) {
    if (b.moves) continue;
    if (moving) {
      const Aabb& m = *moving;
      const bool below = b.box.upper.y <= 0.5 * (m.lower.y + m.upper.y);
      const bool around = b.box.lower.x <= m.lower.x && b.box.upper.x >= m.upper.x &&
                          b.box.lower.z <= m.lower.z && b.box.upper.z >= m.upper.z;
      // A terrain (a height field or mesh far wider than the bodies on it) is a ground too, even
      // where its hills rise above them.
      const bool wide = b.box.upper.x - b.box.lower.x >= 3.0f * (m.upper.x - m.lower.x) &&
                        b.box.upper.z - b.box.lower.z >= 3.0f * (m.upper.z - m.lower.z);
      if (around && (below || wide)) continue;  // a ground
    }
    out = out ? merged(*out, b.box) : b.box;
  }
  return out;
}

}  // namespace tumble::demo
