#pragma once
// Framing the camera on a scene (pure functions, no SDL or GL, so a unit test checks them): which
// box to frame, the part of the window the panel leaves free, and the distance at which the box
// fits there.
#include <optional>
#include <span>

#include <glm/glm.hpp>

#include "tumble/aabb.h"

namespace tumble::demo {

/// A part of the viewport in fractions of its width and height, y down (as window coordinates):
/// [x0, x1] x [y0, y1] within [0, 1]; the default is the whole viewport.
struct ViewRegion {
  float x0 = 0.0f;
  float y0 = 0.0f;
  float x1 = 1.0f;
  float y1 = 1.0f;
  bool operator==(const ViewRegion&) const = default;
};

/// The part of a `width`-pixel-wide window that a panel spanning the pixels [panelX0, panelX1]
/// leaves free: the wider side of it, over the full height. The whole window when the panel spans
/// nothing or would leave less than a quarter of the width.
ViewRegion regionBesidePanel(float panelX0, float panelX1, float width);

/// The distance (m) from the centre of the box [lo, hi] at which a camera looking along `forward`
/// (unit; the camera's up is world Y made orthogonal to it) sees all 8 corners within `tanX` and
/// `tanY`, the tangents of the half-angles of its view (> 0), each corner at least `near` (m) in
/// front of the eye.
float framingDistance(const glm::vec3& lo, const glm::vec3& hi, const glm::vec3& forward,
                      float tanX, float tanY, float near = 0.1f);

/// A body's world box and whether it moves (dynamic).
struct BodyBox {
  Aabb box;
  bool moves = false;
};

/// The box to frame: every moving body and the static bodies around them (walls, ramps,
/// containers), leaving out grounds, the static bodies whose top is below the moving bodies'
/// middle height and that reach past them on all four horizontal sides. With no moving body,
/// every body. Empty when there is no body.
std::optional<Aabb> framedBounds(std::span<const BodyBox> bodies);

}  // namespace tumble::demo
