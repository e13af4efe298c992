#pragma once
// An orbit camera: it looks at a target from a distance, turned by yaw and pitch (Y up).
#include <glm/glm.hpp>

namespace tumble::demo {

class OrbitCamera {
 public:
  /// Places the camera; angles in radians, distance in metres.
  void reset(const glm::vec3& target = {0.0f, 0.5f, 0.0f}, float distance = 9.0f, float yaw = 0.6f,
             float pitch = 0.42f);

  /// Turns by a mouse drag of (dx, dy) pixels.
  void orbit(float dx, float dy);
  /// Moves the target in the view plane by a drag of (dx, dy) pixels in a viewport `height` high.
  void pan(float dx, float dy, int height);
  /// Zooms by wheel clicks (positive is closer).
  void zoom(float clicks);

  /// The ray from the eye through pixel (x, y) of a `width` x `height` viewport (y down, as
  /// window coordinates are): origin and unit direction, in world space.
  void pixelRay(float x, float y, int width, int height, glm::vec3& origin,
                glm::vec3& direction) const;

  glm::vec3 eye() const;
  glm::vec3 target() const { return target_; }
  glm::mat4 view() const;
  /// Perspective projection for a viewport of `width` x `height` pixels.
  glm::mat4 projection(int width, int height) const;

  static constexpr float kFovY = 0.785398f;  ///< 45 degrees

 private:
  glm::vec3 target_{0.0f, 0.5f, 0.0f};
  float distance_ = 9.0f;
  float yaw_ = 0.6f;
  float pitch_ = 0.42f;
};

}  // namespace tumble::demo
