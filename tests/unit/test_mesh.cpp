// Static triangle meshes and height fields (issue 14): validation, active edges, the tree and the
// grid against brute force, and bodies sliding, rolling and shot at them.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>

#include "random.h"
#include "tumble/collide.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;

namespace {

// A grid of n x n cells of size `cell` in the plane y = height(x, z), corner at the origin,
// triangulated as a height field is.
Shape gridMesh(int n, Real cell, Real (*height)(Real, Real)) {
  std::vector<Vec3> v;
  for (int r = 0; r <= n; ++r)
    for (int c = 0; c <= n; ++c) v.emplace_back(c * cell, height(c * cell, r * cell), r * cell);
  std::vector<std::array<int, 3>> t;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int p00 = r * (n + 1) + c, p01 = p00 + 1, p10 = p00 + n + 1, p11 = p10 + 1;
      t.push_back({p00, p10, p11});
      t.push_back({p00, p11, p01});
    }
  return *makeMesh(std::move(v), std::move(t));
}

Real flat(Real, Real) {
  return 0.0;
}
Real bumpy(Real x, Real z) {
  return 0.3 * std::sin(0.7 * x) * std::cos(0.5 * z);
}

std::vector<std::vector<Real>> gridHeights(int n, Real cell, Real (*height)(Real, Real)) {
  std::vector<std::vector<Real>> h(n + 1, std::vector<Real>(n + 1));
  for (int r = 0; r <= n; ++r)
    for (int c = 0; c <= n; ++c) h[r][c] = height(c * cell, r * cell);
  return h;
}

}  // namespace

TEST_CASE("bad meshes and height fields are refused, naming what is wrong", "[mesh]") {
  const std::vector<Vec3> v = {Vec3(0.0), Vec3(1.0, 0.0, 0.0), Vec3(0.0, 0.0, 1.0)};
  CHECK(makeMesh(v, {{0, 2, 1}}));
  CHECK(makeMesh(v, {{0, 2, 3}}).error().find("triangle 0 has index 3 out of range") !=
        std::string::npos);
  CHECK(makeMesh(v, {{0, 2, 1}, {0, 1, 1}}).error().find("triangle 1 has zero area") !=
        std::string::npos);
  CHECK_FALSE(makeMesh(v, {}));
  CHECK(
      makeMesh({Vec3(0.0), Vec3(std::nan("")), Vec3(1.0)}, {{0, 1, 2}}).error().find("vertex 1") !=
      std::string::npos);
  CHECK(makeHeightField({{0.0, 1.0}, {0.0}}, 1.0, 1.0).error().find("row 1") != std::string::npos);
  CHECK(makeHeightField({{0.0, 1.0}, {0.0, std::nan("")}}, 1.0, 1.0).error().find("[1][1]") !=
        std::string::npos);
  CHECK_FALSE(makeHeightField({{0.0, 1.0}, {0.0, 1.0}}, 0.0, 1.0));
  CHECK_FALSE(makeHeightField({{0.0, 1.0}}, 1.0, 1.0));
  // Static only.
  World w{Settings{}};
  CountAsserts quiet;
  BodyDef def;
  def.shape = gridMesh(2, 1.0, flat);
  const auto dynamic = w.createBody(def);
  REQUIRE_FALSE(dynamic);
  CHECK(dynamic.error().find("mesh is static only") != std::string::npos);
  def.type = BodyType::Static;
  CHECK(w.createBody(def));
}

TEST_CASE("flush and concave edges are inactive, ridges and borders active", "[mesh]") {
  // Two triangles sharing the edge (0, 2): flat, then folded up (a valley), then down (a ridge).
  for (const Real lift : {0.0, 0.5, -0.5}) {
    const std::vector<Vec3> v = {Vec3(0.0), Vec3(1.0, lift, 0.0), Vec3(1.0, 0.0, 1.0),
                                 Vec3(0.0, lift, 1.0)};
    // Both face +y: (0, 2, 1) and (0, 3, 2), sharing 0-2 (edge 0 of the first, edge 2 of the
    // second).
    const std::vector<std::array<int, 3>> t = {{0, 2, 1}, {0, 3, 2}};
    const std::vector<uint8_t> a = activeEdges(v, t, 2.0 * std::numbers::pi / 180.0);
    const bool shared0 = a[0] & 1u, shared1 = a[1] & 4u;
    CHECK(shared0 == shared1);
    CHECK(shared0 == (lift < 0.0));  // only the ridge
    CHECK((a[0] & 6u) == 6u);        // the borders
    CHECK((a[1] & 3u) == 3u);
  }
}

TEST_CASE("mesh and height-field queries equal brute force over the triangles", "[mesh]") {
  const int n = 24;
  const Real cell = 0.75;
  const Shape mesh = gridMesh(n, cell, bumpy);
  const Shape field = *makeHeightField(gridHeights(n, cell, bumpy), cell, cell);
  const TriangleMesh& m = *mesh.mesh();
  const HeightField& f = *field.heightField();
  REQUIRE(m.triangles.size() == static_cast<size_t>(2 * n * n));
  std::mt19937_64 rng(7);
  const Settings settings;
  const Shape probes[] = {*makeBox(Vec3(0.6, 0.3, 0.4)), *makeSphere(0.5), *makeCapsule(0.3, 0.5)};
  Transform place;
  place.position = Vec3(3.0, -1.0, 2.0);
  place.rotation = glm::angleAxis(Real(0.3), glm::normalize(Vec3(1.0, 2.0, 0.5)));
  int contacts = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // The grid's triangles are the mesh's, index for index.
    const uint32_t ti = static_cast<uint32_t>(uniformInt(rng, 0, 2 * n * n - 1));
    for (int k = 0; k < 3; ++k)
      CHECK(glm::length(m.triangle(ti).v[k] - f.triangle(ti).v[k]) == 0.0);
    CHECK(m.triangle(ti).active == f.triangle(ti).active);
    // collideChildren through the tree / grid equals collideTriangle on every triangle.
    Transform xb;
    xb.position = place.apply(
        Vec3(uniform(rng, 0, n * cell), uniform(rng, -0.2, 0.9), uniform(rng, 0, n * cell)));
    xb.rotation = place.rotation * randomRotation(rng);
    const Shape& probe = probes[trial % 3];
    for (const Shape* s : {&mesh, &field}) {
      std::vector<ChildContact> got;
      collideChildren(*s, place, probe, xb, 0.05, settings, got);
      std::vector<uint64_t> want;
      for (uint32_t t = 0; t < m.triangles.size(); ++t)
        if (collideTriangle(m.triangle(t), place, probe, xb, 0.05, settings).pointCount > 0)
          want.push_back(static_cast<uint64_t>(t) << 32);
      std::vector<uint64_t> keys;
      for (const ChildContact& c : got) keys.push_back(c.key);
      CHECK(keys == want);
      contacts += static_cast<int>(want.size());
    }
    // A ray: the tree's and grid's nearest hit equal the nearest over all triangles.
    const Vec3 o(uniform(rng, -2, 20), 3.0, uniform(rng, -2, 20));
    const Vec3 d(uniform(rng, -3, 3), -4.0, uniform(rng, -3, 3));
    Real best = 2.0, t = 0.0;
    Vec3 nrm(0.0);
    for (uint32_t i = 0; i < m.triangles.size(); ++i) {
      const TriangleRef tr = m.triangle(i);
      // Plane hit inside the triangle, by barycentric signs (a method apart from the cast's).
      const Real den = glm::dot(tr.normal, d);
      if (den == 0.0) continue;
      const Real th = glm::dot(tr.normal, tr.v[0] - o) / den;
      if (th < 0.0 || th > best) continue;
      const Vec3 p = o + th * d;
      bool inside = true;
      for (int k = 0; k < 3; ++k)
        inside = inside && glm::dot(glm::cross(tr.v[(k + 1) % 3] - tr.v[k], p - tr.v[k]),
                                    tr.normal) >= -1e-12;
      if (inside) best = th;
    }
    for (const Shape* s : {&mesh, &field}) {
      const bool hit = s->rayCast(o, d, 2.0, t, nrm);
      CHECK(hit == (best < 2.0));
      if (hit && best < 2.0) CHECK_THAT(t, WithinAbs(best, 1e-9));
    }
  }
  CHECK(contacts > 300);
}

TEST_CASE("a capsule tilted over a triangle gets its far end as a point within reach", "[mesh]") {
  // One triangle in y = 0 (normal up) and a capsule over it, tilted 10 degrees from lying, its
  // lower end 2 mm above the plane, the whole segment over the triangle: within a speculative
  // distance of 0.2 both ends are points at their plane distances (the upper end 2 * 0.5 sin 10 m
  // higher), within 0.1 only the nearer end is, as on a hull's face (test_round_shapes).
  const Shape mesh =
      *makeMesh({Vec3(-3.0, 0.0, 3.0), Vec3(3.0, 0.0, 3.0), Vec3(0.0, 0.0, -3.0)}, {{0, 1, 2}});
  const TriangleRef tri = mesh.mesh()->triangle(0);
  REQUIRE(glm::length(tri.normal - Vec3(0.0, 1.0, 0.0)) < 1e-12);
  const Settings settings;
  const Shape cap = *makeCapsule(0.25, 0.5);
  const Real tilt = 10.0 * std::numbers::pi / 180.0;
  const Real rise = std::sin(tilt);
  Transform xc;
  xc.position = Vec3(0.0, 0.25 + 0.002 + 0.5 * rise, 0.5);
  xc.rotation = glm::angleAxis(tilt, Vec3(0.0, 0.0, 1.0)) *
                glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));
  const Transform place;
  const CollideResult wide = collideTriangle(tri, place, cap, xc, 0.2, settings);
  REQUIRE(wide.pointCount == 2);
  CHECK(glm::length(wide.normal - Vec3(0.0, 1.0, 0.0)) < 1e-12);
  const Real lo = std::min(wide.points[0].separation, wide.points[1].separation);
  const Real hi = std::max(wide.points[0].separation, wide.points[1].separation);
  CHECK_THAT(lo, WithinAbs(0.002, 1e-12));
  CHECK_THAT(hi, WithinAbs(0.002 + rise, 1e-12));
  const CollideResult tight = collideTriangle(tri, place, cap, xc, 0.1, settings);
  REQUIRE(tight.pointCount == 1);
  CHECK_THAT(tight.points[0].separation, WithinAbs(0.002, 1e-12));
}

TEST_CASE("a box slides across 100 x 100 flush triangles without a bump", "[mesh]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = gridMesh(100, 1.0, flat);
  ground.position = Vec3(-50.0, 0.0, -50.0);
  ground.friction = 0.0;
  REQUIRE(w.createBody(ground));
  BodyDef box;
  box.shape = boxHull(Vec3(0.5));
  box.position = Vec3(-40.0, 0.5, -35.0);
  box.linearVelocity = 5.0 * glm::normalize(Vec3(1.0, 0.0, 0.6));
  box.friction = 0.0;
  box.density = 1000.0;
  const BodyId id = *w.createBody(box);
  Real worst = 0.0;
  for (int i = 0; i < 240; ++i) {
    REQUIRE(w.step(w.settings().dt));
    if (i >= 10) worst = std::max(worst, std::abs(w.body(id)->linearVelocity.y));
  }
  CHECK(worst < 0.01);
  CHECK(w.body(id)->position.x > -40.0 + 0.8 * 4.0 * 5.0 / std::sqrt(1.36));  // it slid
}

TEST_CASE("a ball rolls across a flat height field without a bump", "[mesh]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = *makeHeightField(gridHeights(60, 0.5, flat), 0.5, 0.5);
  ground.position = Vec3(-15.0, 0.0, -15.0);
  REQUIRE(w.createBody(ground));
  BodyDef ball;
  ball.shape = *makeSphere(0.5);
  ball.position = Vec3(-12.0, 0.5, -10.0);
  ball.linearVelocity = Vec3(4.0, 0.0, 3.0);
  ball.angularVelocity = glm::cross(Vec3(0.0, 1.0, 0.0), ball.linearVelocity) / 0.5;  // rolling
  ball.density = 1000.0;
  const BodyId id = *w.createBody(ball);
  Real worst = 0.0;
  for (int i = 0; i < 240; ++i) {
    REQUIRE(w.step(w.settings().dt));
    if (i >= 5) worst = std::max(worst, std::abs(w.body(id)->linearVelocity.y));
  }
  CHECK(worst < 0.01);
  CHECK_THAT(w.body(id)->position.y, WithinAbs(0.5, 1e-3));
  CHECK(w.body(id)->position.x > 0.0);
}

TEST_CASE("a 0.2 m ball shot at 300 m/s does not pass through a mesh wall", "[mesh]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.gravity = Vec3(0.0); });
  // A wall in the plane x = 0 facing -x: two triangles.
  const std::vector<Vec3> v = {Vec3(0.0, -5.0, -5.0), Vec3(0.0, -5.0, 5.0), Vec3(0.0, 5.0, 5.0),
                               Vec3(0.0, 5.0, -5.0)};
  BodyDef wall;
  wall.type = BodyType::Static;
  wall.shape = *makeMesh(v, {{0, 1, 2}, {0, 2, 3}});
  REQUIRE(glm::dot(wall.shape.mesh()->normals[0], Vec3(-1.0, 0.0, 0.0)) > 0.999);
  REQUIRE(w.createBody(wall));
  BodyDef ball;
  ball.shape = *makeSphere(0.2);
  ball.position = Vec3(-20.0, 0.3, 0.1);
  ball.linearVelocity = Vec3(300.0, 0.0, 0.0);
  ball.density = 1000.0;
  const BodyId id = *w.createBody(ball);
  for (int i = 0; i < 60; ++i) {
    REQUIRE(w.step(w.settings().dt));
    REQUIRE(w.body(id)->position.x < -0.2 + 0.01);
  }
}

TEST_CASE("the LP cross-check runs on triangles and compound children", "[mesh][crosscheck]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.crosscheck = CrossCheckMode::All; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = *makeHeightField(gridHeights(20, 1.0, bumpy), 1.0, 1.0);
  ground.position = Vec3(-10.0, 0.0, -10.0);
  REQUIRE(w.createBody(ground));
  const std::vector<CompoundChild> parts = {
      {*makeBox(Vec3(0.4)), {Vec3(0.0), Quat(1, 0, 0, 0)}},
      {*makeCapsule(0.2, 0.4), {Vec3(0.6, 0.0, 0.0), Quat(1, 0, 0, 0)}}};
  for (int i = 0; i < 6; ++i) {
    BodyDef def;
    def.shape = i % 2 ? *makeCompound(parts) : boxHull(Vec3(0.4));
    def.position = Vec3(-3.0 + 1.3 * i, 1.2, 0.4 * i - 1.0);
    def.density = 500.0;
    REQUIRE(w.createBody(def));
  }
  for (int i = 0; i < 90; ++i) REQUIRE(w.step(w.settings().dt));
  CHECK(w.stats().crosscheckChecked > 300);
  CHECK(w.stats().crosscheckDisagreed == 0);
}

TEST_CASE("the LP cross-check runs on mesh triangles against sphere, capsule and rounded cores",
          "[mesh][crosscheck]") {
  // Bodies dropped 2.5 m apart onto the mesh: the pairs checked are bodies against mesh triangles
  // (a sphere's point, a capsule's segment, a rounded box's hull core, a hull; a cylinder's core
  // is no point set, so it has no LP check).
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.crosscheck = CrossCheckMode::All; });
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = gridMesh(24, 1.0, bumpy);
  ground.position = Vec3(-12.0, 0.0, -12.0);
  REQUIRE(w.createBody(ground));
  const std::vector<Vec3> core = {Vec3(-0.3, -0.2, -0.25), Vec3(0.3, -0.2, -0.25),
                                  Vec3(-0.3, 0.2, -0.25),  Vec3(0.3, 0.2, -0.25),
                                  Vec3(-0.3, -0.2, 0.25),  Vec3(0.3, -0.2, 0.25),
                                  Vec3(-0.3, 0.2, 0.25),   Vec3(0.3, 0.2, 0.25)};
  const Shape kinds[] = {*makeSphere(0.4), *makeCapsule(0.25, 0.4), *makeRoundedHull(core, 0.1),
                         boxHull(Vec3(0.4))};
  for (int i = 0; i < 8; ++i) {
    BodyDef def;
    def.shape = kinds[i % 4];
    def.position = Vec3(-7.5 + 2.5 * (i % 4), 1.0, i < 4 ? -3.0 : 3.0);
    def.orientation = glm::angleAxis(0.3 * i, glm::normalize(Vec3(1.0, 0.4, 0.2)));
    REQUIRE(w.createBody(def));
  }
  for (int i = 0; i < 90; ++i) REQUIRE(w.step(w.settings().dt));
  // Eight bodies on two or more triangles each for most of the 90 steps (measured: 2173 checks).
  CHECK(w.stats().crosscheckChecked > 8 * 2 * 60);
  CHECK(w.stats().crosscheckDisagreed == 0);
}
