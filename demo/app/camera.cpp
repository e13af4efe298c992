#include "camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace tumble::demo {
namespace {

constexpr float kRadiansPerPixel = 0.008f;
constexpr float kMinDistance = 0.5f;
constexpr float kMaxDistance = 200.0f;
constexpr float kMaxPitch = 1.55f;  // just short of straight up or down
constexpr float kNear = 0.05f;      // m, near and far planes of the projection
constexpr float kFar = 500.0f;

}  // namespace

void OrbitCamera::reset(const glm::vec3& target, float distance, float yaw, float pitch) {
  target_ = target;
  distance_ = distance;
  yaw_ = yaw;
  pitch_ = pitch;
  region_ = {};
}

void OrbitCamera::frame(const glm::vec3& lo, const glm::vec3& hi, int width, int height,
                        float margin) {
  // The region's half-angles: the vertical field of view spans the viewport's height, the
  // region a fraction of it, minus the margins.
  const float tanHalf = std::tan(kFovY * 0.5f);
  const float aspect =
      static_cast<float>(std::max(width, 1)) / static_cast<float>(std::max(height, 1));
  const float keep = std::max(1.0f - 2.0f * margin, 0.1f);
  const float tanX = tanHalf * aspect * (region_.x1 - region_.x0) * keep;
  const float tanY = tanHalf * (region_.y1 - region_.y0) * keep;
  target_ = 0.5f * (lo + hi);
  distance_ = std::clamp(framingDistance(lo, hi, forward(), std::max(tanX, 1e-3f),
                                         std::max(tanY, 1e-3f), 2.0f * kNear),
                         kMinDistance, 0.8f * kFar);
}

void OrbitCamera::orbit(float dx, float dy) {
  yaw_ -= dx * kRadiansPerPixel;
  pitch_ = std::clamp(pitch_ + dy * kRadiansPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx, float dy, int height) {
  // One pixel moves the target by the size of a pixel at the target's distance.
  const float metresPerPixel =
      2.0f * distance_ * std::tan(kFovY * 0.5f) / static_cast<float>(std::max(height, 1));
  const glm::vec3 forward = glm::normalize(target_ - eye());
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  target_ += (-dx * right + dy * up) * metresPerPixel;
}

void OrbitCamera::zoom(float clicks) {
  distance_ = std::clamp(distance_ * std::pow(0.9f, clicks), kMinDistance, kMaxDistance);
}

glm::vec3 OrbitCamera::forward() const {
  return -glm::vec3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_),
                    std::cos(pitch_) * std::cos(yaw_));
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 offset(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_),
                         std::cos(pitch_) * std::cos(yaw_));
  return target_ + distance_ * offset;
}

void OrbitCamera::pixelRay(float x, float y, int width, int height, glm::vec3& origin,
                           glm::vec3& direction) const {
  const glm::mat4 inverse = glm::inverse(projection(width, height) * view());
  const float ndcX = 2.0f * x / static_cast<float>(std::max(width, 1)) - 1.0f;
  const float ndcY = 1.0f - 2.0f * y / static_cast<float>(std::max(height, 1));
  glm::vec4 nearPoint = inverse * glm::vec4(ndcX, ndcY, -1.0f, 1.0f);
  glm::vec4 farPoint = inverse * glm::vec4(ndcX, ndcY, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  origin = glm::vec3(nearPoint);
  direction = glm::normalize(glm::vec3(farPoint - nearPoint));
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), target_, glm::vec3(0.0f, 1.0f, 0.0f));
}

glm::mat4 OrbitCamera::projection(int width, int height) const {
  const float aspect =
      static_cast<float>(std::max(width, 1)) / static_cast<float>(std::max(height, 1));
  glm::mat4 p = glm::perspective(kFovY, aspect, kNear, kFar);
  // Lens shift: normalised device x and y move by the region centre's offset from the viewport's
  // (clip w is -z in eye space, so the offset goes in with a minus on the z column).
  p[2][0] -= region_.x0 + region_.x1 - 1.0f;
  p[2][1] -= 1.0f - (region_.y0 + region_.y1);
  return p;
}

}  // namespace tumble::demo
