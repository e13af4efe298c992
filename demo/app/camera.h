#pragma once
// An orbit camera: it looks at a target from a distance, turned by yaw and pitch (Y up). It can
// aim at a part of the viewport (the part the panel leaves free) and frame a box there.
#include <glm/glm.hpp>

#include "framing.h"

namespace tumble::demo {

class OrbitCamera {
 public:
  /// Places the camera, aiming at the whole viewport; angles in radians, distance in metres.
  void reset(const glm::vec3& target = {0.0f, 0.5f, 0.0f}, float distance = 9.0f, float yaw = 0.6f,
             float pitch = 0.42f);

  /// Turns by a mouse drag of (dx, dy) pixels.
  void orbit(float dx, float dy);
  /// Moves the target in the view plane by a drag of (dx, dy) pixels in a viewport `height` high.
  void pan(float dx, float dy, int height);
  /// Zooms by wheel clicks (positive is closer).
  void zoom(float clicks);
  /// Aims at the centre of the box [lo, hi] (m) with the current yaw and pitch, from the distance
  /// at which the whole box is drawn inside the region of a `width` x `height` viewport, keeping
  /// `margin` of the region's width and height free on each side.
  void frame(const glm::vec3& lo, const glm::vec3& hi, int width, int height, float margin = 0.04f);

  /// The part of the viewport the camera aims at: the target is drawn at its centre (an
  /// off-centre projection, so orbiting turns about what is seen there). reset() restores the
  /// whole viewport.
  void setRegion(const ViewRegion& region) { region_ = region; }
  const ViewRegion& region() const { return region_; }

  /// The ray from the eye through pixel (x, y) of a `width` x `height` viewport (y down, as
  /// window coordinates are): origin and unit direction, in world space.
  void pixelRay(float x, float y, int width, int height, glm::vec3& origin,
                glm::vec3& direction) const;

  glm::vec3 eye() const;
  glm::vec3 target() const { return target_; }
  /// Aims at `target` (m) keeping the distance, yaw and pitch (a scene following a body).
  void setTarget(const glm::vec3& target) { target_ = target; }
  float distance() const { return distance_; }
  /// The unit direction from the eye to the target.
  glm::vec3 forward() const;
  glm::mat4 view() const;
  /// Perspective projection for a viewport of `width` x `height` pixels, its centre of view moved
  /// to the centre of region().
  glm::mat4 projection(int width, int height) const;

  static constexpr float kFovY = 0.785398f;  ///< 45 degrees

 private:
  glm::vec3 target_{0.0f, 0.5f, 0.0f};
  float distance_ = 9.0f;
  float yaw_ = 0.6f;
  float pitch_ = 0.42f;
  ViewRegion region_;
};

}  // namespace tumble::demo
