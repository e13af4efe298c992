// Framing the demo's camera (demo/app/framing.cpp and camera.cpp, free of SDL and GL): the
// distance at which a box fits a field of view, the part of the window the panel leaves free, the
// box a World sample frames, and that a framed box's corners are drawn inside that part.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <glm/glm.hpp>

#include "../../demo/app/camera.h"
#include "../../demo/app/framing.h"

using namespace tumble;
using namespace tumble::demo;
using Catch::Matchers::WithinAbs;

namespace {

// The 8 corners of [lo, hi] in normalised device coordinates of `camera` in a w x h viewport.
std::vector<glm::vec2> cornersOnScreen(const OrbitCamera& camera, const glm::vec3& lo,
                                       const glm::vec3& hi, int w, int h) {
  const glm::mat4 m = camera.projection(w, h) * camera.view();
  std::vector<glm::vec2> out;
  for (int i = 0; i < 8; ++i) {
    const glm::vec4 p(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z, 1.0f);
    const glm::vec4 clip = m * p;
    REQUIRE(clip.w > 0.0f);  // in front of the eye
    out.emplace_back(clip.x / clip.w, clip.y / clip.w);
  }
  return out;
}

}  // namespace

TEST_CASE("framingDistance: a 2 m cube seen along -z fits at known distances", "[framing]") {
  const glm::vec3 lo(-1.0f), hi(1.0f), forward(0.0f, 0.0f, -1.0f);
  // The near face is 1 m closer than the centre: its corners (1, 1) across need depth 1 / tan.
  CHECK_THAT(framingDistance(lo, hi, forward, 1.0f, 1.0f), WithinAbs(2.0, 1e-6));  // 90 degrees
  CHECK_THAT(framingDistance(lo, hi, forward, 0.5f, 0.5f), WithinAbs(3.0, 1e-6));
  // The narrower half-angle decides: vertical tan 0.25 needs 1 / 0.25 + 1.
  CHECK_THAT(framingDistance(lo, hi, forward, 2.0f, 0.25f), WithinAbs(5.0, 1e-6));
  CHECK_THAT(framingDistance(lo, hi, forward, 0.25f, 2.0f), WithinAbs(5.0, 1e-6));
  // A flat box (10 x 0 x 0 m) needs only its width: 5 / 1, its near face at the centre.
  CHECK_THAT(framingDistance({-5.0f, 0.0f, 0.0f}, {5.0f, 0.0f, 0.0f}, forward, 1.0f, 1.0f),
             WithinAbs(5.0, 1e-6));
  // A point is kept `near` in front of the eye.
  CHECK_THAT(framingDistance(glm::vec3(3.0f), glm::vec3(3.0f), forward, 1.0f, 1.0f, 0.1f),
             WithinAbs(0.1, 1e-7));
}

TEST_CASE("framingDistance: seen from 45 degrees up the cube's corners give 1 + sqrt 2",
          "[framing]") {
  // Looking down at 45 degrees along -z: right is x, up is (0, 1/sqrt2, -1/sqrt2). The corner
  // (1, 1, 1) is sqrt2 nearer than the centre and 1 to the side: 1 / 1 + sqrt2. Vertically the
  // corners reach sqrt2 across at the centre's depth, which needs only sqrt2.
  const float s = std::sqrt(0.5f);
  const glm::vec3 forward(0.0f, -s, -s);
  CHECK_THAT(framingDistance(glm::vec3(-1.0f), glm::vec3(1.0f), forward, 1.0f, 1.0f),
             WithinAbs(1.0 + std::sqrt(2.0), 1e-5));
  // With a narrow vertical view (tan 0.25) the vertical decides: sqrt2 / 0.25.
  CHECK_THAT(framingDistance(glm::vec3(-1.0f), glm::vec3(1.0f), forward, 1.0f, 0.25f),
             WithinAbs(4.0 * std::sqrt(2.0), 1e-5));
}

TEST_CASE("regionBesidePanel: the wider side of the panel, or the whole window", "[framing]") {
  // The demo's panel at its first place: x 10 to 400 of a 1280-pixel window.
  const ViewRegion right = regionBesidePanel(10.0f, 400.0f, 1280.0f);
  CHECK(right == ViewRegion{0.3125f, 0.0f, 1.0f, 1.0f});
  // Dragged to the right edge: the left part.
  CHECK(regionBesidePanel(900.0f, 1270.0f, 1280.0f) == ViewRegion{0.0f, 0.0f, 0.703125f, 1.0f});
  // Collapsed (spans nothing), too wide (leaves 180 of 1280 pixels), or no window: all of it.
  CHECK(regionBesidePanel(10.0f, 10.0f, 1280.0f) == ViewRegion{});
  CHECK(regionBesidePanel(10.0f, 1100.0f, 1280.0f) == ViewRegion{});
  CHECK(regionBesidePanel(10.0f, 400.0f, 0.0f) == ViewRegion{});
  // Partly outside the window on the left: clamped to the window.
  CHECK(regionBesidePanel(-100.0f, 320.0f, 1280.0f) == ViewRegion{0.25f, 0.0f, 1.0f, 1.0f});
}

TEST_CASE("framedBounds: moving bodies and their walls, not the ground", "[framing]") {
  const BodyBox ground{{{-5.0, -1.0, -5.0}, {5.0, 0.0, 5.0}}, false};
  const BodyBox wall{{{-4.5, 0.0, -4.5}, {-4.0, 4.0, 4.5}}, false};
  const BodyBox pile{{{-3.0, 0.0, -3.0}, {3.0, 6.0, 3.0}}, true};
  const BodyBox box{{{1.0, 7.0, 1.0}, {2.0, 8.0, 2.0}}, true};

  const std::array pileScene{ground, wall, pile, box};
  const auto framed = framedBounds(pileScene);
  REQUIRE(framed);
  CHECK(framed->lower == Vec3(-4.5, 0.0, -4.5));
  CHECK(framed->upper == Vec3(3.0, 8.0, 4.5));

  // A ramp under the bodies that does not reach past them on every side is framed.
  const BodyBox ramp{{{-9.0, -4.0, 1.5}, {9.0, 5.0, 3.5}}, false};
  const BodyBox onRamp{{{1.0, 2.0, 2.0}, {2.0, 3.0, 3.0}}, true};
  const std::array incline{ramp, onRamp};
  CHECK(framedBounds(incline)->lower == Vec3(-9.0, -4.0, 1.5));
  CHECK(framedBounds(incline)->upper == Vec3(9.0, 5.0, 3.5));

  // Nothing moves: every body, the ground too.
  const std::array still{ground, wall};
  CHECK(framedBounds(still)->lower == Vec3(-5.0, -1.0, -5.0));
  CHECK(framedBounds(still)->upper == Vec3(5.0, 4.0, 5.0));

  CHECK_FALSE(framedBounds(std::span<const BodyBox>{}));
}

TEST_CASE("OrbitCamera::frame: the box's corners are drawn inside the free region", "[framing]") {
  // The 2000-box heap's first frame (15 x 31 x 15 m) and a flat 20 x 1 m wall, in a 1280 x 720
  // and a 1024 x 768 window beside the panel (x 10 to 400), seen from the demo's usual angles.
  struct Case {
    glm::vec3 lo, hi;
    int w, h;
  };
  const Case cases[] = {{{-7.5f, 0.0f, -7.5f}, {7.5f, 31.0f, 7.5f}, 1280, 720},
                        {{-7.5f, 0.0f, -7.5f}, {7.5f, 31.0f, 7.5f}, 1024, 768},
                        {{-10.0f, 0.0f, -0.5f}, {10.0f, 1.0f, 0.5f}, 1280, 720},
                        {{-10.0f, 0.0f, -0.5f}, {10.0f, 1.0f, 0.5f}, 1600, 900}};
  constexpr float kMargin = 0.04f;
  for (const Case& c : cases) {
    CAPTURE(c.w, c.h, c.lo.x, c.hi.y);
    OrbitCamera camera;
    camera.reset({0.0f, 0.0f, 0.0f}, 9.0f, 0.6f, 0.6f);
    const ViewRegion region = regionBesidePanel(10.0f, 400.0f, static_cast<float>(c.w));
    camera.setRegion(region);
    camera.frame(c.lo, c.hi, c.w, c.h, kMargin);
    CHECK_THAT(camera.target().y, WithinAbs(0.5 * (c.lo.y + c.hi.y), 1e-5));

    // The region in normalised device coordinates, less its margins.
    const float x0 = 2.0f * region.x0 - 1.0f, x1 = 2.0f * region.x1 - 1.0f;
    const float mx = kMargin * (x1 - x0), my = kMargin * 2.0f;
    float tightest = 1.0f;  // the smallest gap between a corner and the margin, in NDC
    for (const glm::vec2& p : cornersOnScreen(camera, c.lo, c.hi, c.w, c.h)) {
      CHECK(p.x >= x0 + mx - 1e-4f);
      CHECK(p.x <= x1 - mx + 1e-4f);
      CHECK(p.y >= -1.0f + my - 1e-4f);
      CHECK(p.y <= 1.0f - my + 1e-4f);
      tightest = std::min(
          {tightest, p.x - (x0 + mx), (x1 - mx) - p.x, p.y - (-1.0f + my), (1.0f - my) - p.y});
    }
    // Framed, not merely inside: one corner touches the margin.
    CHECK_THAT(tightest, WithinAbs(0.0, 1e-4));

    // The target is drawn at the region's centre (the lens shift).
    const glm::vec4 clip =
        camera.projection(c.w, c.h) * camera.view() * glm::vec4(camera.target(), 1.0f);
    CHECK_THAT(clip.x / clip.w, WithinAbs(region.x0 + region.x1 - 1.0f, 1e-5));
    CHECK_THAT(clip.y / clip.w, WithinAbs(0.0, 1e-5));
  }
}

TEST_CASE("OrbitCamera: a pixel ray through the region's centre passes the target", "[framing]") {
  OrbitCamera camera;
  camera.reset({1.0f, 2.0f, 3.0f}, 10.0f, 0.6f, 0.6f);
  camera.setRegion(regionBesidePanel(10.0f, 400.0f, 1280.0f));
  glm::vec3 origin, direction;
  camera.pixelRay(0.5f * (400.0f + 1280.0f), 360.0f, 1280, 720, origin, direction);
  const glm::vec3 toTarget = camera.target() - origin;
  const glm::vec3 miss = toTarget - glm::dot(toTarget, direction) * direction;
  CHECK_THAT(glm::length(miss), WithinAbs(0.0, 1e-4));
  // reset() aims at the whole window again.
  camera.reset();
  CHECK(camera.region() == ViewRegion{});
}
