// The valley: a level built in code (scene files have no keys for these shapes yet): a 256 x 256
// height field (131,072 triangles, hills rising away from a flat middle) as the ground, a crater as
// a static triangle mesh, and compound tables and dumbbells, balls and boxes dropped on them. The
// stepping, drawing, dragging and the panel are WorldSample's.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "sample_compounds.h"
#include "samples.h"
#include "world_sample.h"

namespace tumble::demo {
namespace {

constexpr int kFieldPoints = 257;    // per side: 256 x 256 cells, two triangles each
constexpr Real kFieldSpacing = 0.5;  // m
constexpr Real kFieldHalfSize = 0.5 * (kFieldPoints - 1) * kFieldSpacing;  // 64 m
const Vec3 kCraterCenter(-7.0, 0.15, 5.0);
// Added to every dynamic body's starting height (m): the bodies' middle height is then over the
// hills, so the camera frames the bodies and not the whole field (see groundHeight).
constexpr Real kDropLift = 4.0;

Real smoothstep(Real edge0, Real edge1, Real x) {
  const Real t = std::clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// The ground's height (m) at world (x, z): 0.1 m in the middle, a mound beside it, and sums of
// waves (each in [0, 1]) growing in from 8 to 40 m out; below 6.3 m everywhere, under the middle
// height of the bodies dropped over the middle: they frame the camera, and the field counts as
// their ground (framing.h).
Real groundHeight(Real x, Real z) {
  const Real out = smoothstep(8.0, 40.0, std::sqrt(x * x + z * z));
  auto wave = [](Real phase) { return 0.5 + 0.5 * std::sin(phase); };
  const Real hills = 2.0 * wave(0.13 * x + 0.4) * wave(0.11 * z - 0.7) +
                     1.0 * wave(0.29 * x + 0.21 * z) + 0.4 * wave(0.83 * x - 0.61 * z + 1.3);
  const Real mound = 1.4 * std::exp(-((x - 7.0) * (x - 7.0) + (z + 1.0) * (z + 1.0)) / 10.0);
  return 0.1 + mound + 1.8 * out * hills;
}

Expected<Shape> makeGround() {
  std::vector<std::vector<Real>> heights(kFieldPoints, std::vector<Real>(kFieldPoints));
  for (int r = 0; r < kFieldPoints; ++r)
    for (int c = 0; c < kFieldPoints; ++c)
      heights[r][c] =
          groundHeight(c * kFieldSpacing - kFieldHalfSize, r * kFieldSpacing - kFieldHalfSize);
  return makeHeightField(heights, kFieldSpacing, kFieldSpacing);
}

// A crater about its local origin: a paraboloid bowl (radius 2.5 m, 0.94 m deep) in rings, a flat
// rim 0.3 m wide and an outer wall down to 0.15 m below the bottom, each ring 32 points around;
// every triangle faces up and out (counter-clockwise seen from there).
Expected<Shape> makeCrater() {
  constexpr int kSegments = 32;
  constexpr int kBowlRings = 10;
  constexpr Real kRadius = 2.5, kCurve = 0.15;
  struct Ring {
    Real radius, height;
  };
  std::vector<Ring> rings;
  for (int i = 1; i <= kBowlRings; ++i) {
    const Real r = kRadius * i / kBowlRings;
    rings.push_back({r, kCurve * r * r});
  }
  const Real rim = kCurve * kRadius * kRadius;
  rings.push_back({kRadius + 0.3, rim});
  rings.push_back({kRadius + 0.3 + 1.2 * rim, -0.15});

  std::vector<Vec3> vertices{Vec3(0.0)};
  for (const Ring& ring : rings)
    for (int j = 0; j < kSegments; ++j) {
      const Real a = 2.0 * std::numbers::pi * j / kSegments;
      vertices.emplace_back(ring.radius * std::cos(a), ring.height, ring.radius * std::sin(a));
    }
  auto at = [&](int ring, int j) { return 1 + ring * kSegments + (j % kSegments); };
  std::vector<std::array<int, 3>> triangles;
  for (int j = 0; j < kSegments; ++j) triangles.push_back({0, at(0, j + 1), at(0, j)});
  for (int i = 0; i + 1 < static_cast<int>(rings.size()); ++i)
    for (int j = 0; j < kSegments; ++j) {
      triangles.push_back({at(i, j), at(i, j + 1), at(i + 1, j)});
      triangles.push_back({at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)});
    }
  return makeMesh(std::move(vertices), std::move(triangles));
}

class ValleySample final : public WorldSample {
 protected:
  Expected<std::unique_ptr<World>> build(SampleContext& ctx) override {
    using E = Expected<std::unique_ptr<World>>;
    auto world = std::make_unique<World>(ctx.settings);
    auto ground = makeGround();
    auto crater = makeCrater();
    auto table = makeSampleTable();
    auto dumbbell = makeSampleDumbbell();
    auto ball = makeSphere(0.3);
    auto box = makeBox(Vec3(0.3));
    for (const auto* shape : {&ground, &crater, &table, &dumbbell, &ball, &box})
      if (!*shape) return E::failure(shape->error());
    setDescription(
        "built in code: a 256 x 256 height field (131,072 triangles) and a crater, a "
        "static mesh of " +
        std::to_string(crater->mesh()->triangles.size()) +
        " triangles; compound tables and dumbbells, balls and boxes dropped on them "
        "(rolling resistance 0.05)");

    std::vector<BodyDef> defs;
    // `turn` radians about `axis`.
    auto add = [&](const Shape& shape, const Vec3& position, BodyType type = BodyType::Dynamic,
                   Real turn = 0.0, const Vec3& axis = Vec3(0.3, 1.0, 0.2)) {
      BodyDef def;
      def.type = type;
      def.shape = shape;
      def.position = position;
      if (type == BodyType::Dynamic) def.position.y += kDropLift;
      // So that the balls and dumbbells come to rest (without it one rolled off across the
      // hills and kept 4 of the 15 awake).
      if (type == BodyType::Dynamic) def.rollingResistance = 0.05;
      def.orientation = glm::angleAxis(turn, glm::normalize(axis));
      defs.push_back(def);
    };
    add(*ground, Vec3(-kFieldHalfSize, 0.0, -kFieldHalfSize), BodyType::Static);
    add(*crater, kCraterCenter, BodyType::Static);
    // Tables falling flat on the flat ground, one onto the mound's side; dumbbells rolling down the
    // mound.
    const Vec3 up(0.0, 1.0, 0.0);
    add(*table, Vec3(-1.5, 1.0, -1.5), BodyType::Dynamic, 0.3, up);
    add(*table, Vec3(1.2, 1.5, 1.0), BodyType::Dynamic, 1.2, up);
    add(*table, Vec3(4.5, 3.0, -1.0), BodyType::Dynamic, 0.7);
    add(*dumbbell, Vec3(7.0, 4.0, -1.0), BodyType::Dynamic, 0.4);
    add(*dumbbell, Vec3(6.0, 5.5, 1.0), BodyType::Dynamic, 2.0);
    add(*dumbbell, Vec3(-2.0, 7.0, 2.5), BodyType::Dynamic, 1.0);
    // Balls into the crater, off its middle so they roll round it; boxes on the flat.
    for (int i = 0; i < 5; ++i) {
      const Real a = 1.3 * i;
      add(*ball, kCraterCenter + Vec3(1.6 * std::cos(a), 3.0 + 1.2 * i, 1.6 * std::sin(a)));
    }
    for (int i = 0; i < 4; ++i)
      add(*box, Vec3(2.0 + 0.2 * i, 2.0 + 1.5 * i, -4.0 + 0.7 * i), BodyType::Dynamic, 0.5 * i);
    for (const BodyDef& def : defs)
      if (auto id = world->createBody(def); !id) return E::failure(id.error());
    return world;
  }
};

}  // namespace

std::unique_ptr<Sample> makeValleySample() {
  return std::make_unique<ValleySample>();
}

}  // namespace tumble::demo
