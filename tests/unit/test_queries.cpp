// World queries with filters: ray casts (closest, any, all), overlaps (box, sphere, convex
// shape) and shape casts, against brute force over every body and analytic times of impact.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "tumble/scene.h"
#include "tumble/shape_cast.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

BodyId addStatic(World& w, const Shape& shape, const Vec3& pos, const Quat& q = Quat(1, 0, 0, 0),
                 const BodyFilter& filter = {}) {
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = shape;
  def.position = pos;
  def.orientation = q;
  def.filter = filter;
  return *w.createBody(def);
}

Quat randomRotation(std::mt19937_64& rng) {
  std::normal_distribution<Real> g;
  return glm::normalize(Quat(g(rng), g(rng), g(rng), g(rng)));
}

// A random convex shape of every convex kind, about 0.2 to 1 m.
Shape randomConvex(std::mt19937_64& rng, int kind) {
  std::uniform_real_distribution<Real> u(0.2, 0.6);
  switch (kind % 5) {
    case 0:
      return *makeBox(Vec3(u(rng), u(rng), u(rng)));
    case 1:
      return *makeSphere(u(rng));
    case 2:
      return *makeCapsule(u(rng) * 0.5, u(rng));
    case 3:
      return *makeCylinder(u(rng), u(rng));
    default: {
      const Vec3 h(u(rng) * 0.7, u(rng) * 0.7, u(rng) * 0.7);
      std::vector<Vec3> corners;
      for (int i = 0; i < 8; ++i)
        corners.push_back(Vec3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z));
      return *makeRoundedHull(corners, 0.1);
    }
  }
}

// A scene of every kind: a height field floor, a mesh ramp, a compound, and 60 random convex
// bodies (static, so nothing moves between the queries and the brute force).
void buildMixedScene(World& w, std::mt19937_64& rng) {
  std::vector<std::vector<Real>> heights(9, std::vector<Real>(9));
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c) heights[r][c] = 0.3 * std::sin(0.7 * r) * std::cos(0.5 * c);
  addStatic(w, *makeHeightField(heights, 1.0, 1.0), Vec3(-4.0, -1.0, -4.0));
  std::vector<Vec3> verts{{0, 0, 0}, {2, 0, 0}, {2, 1, 2}, {0, 1, 2}, {1, 2, 3}};
  std::vector<std::array<int, 3>> tris{{0, 2, 1}, {0, 3, 2}, {3, 4, 2}};
  addStatic(w, *makeMesh(verts, tris), Vec3(1.0, 0.0, -3.0));
  const CompoundChild children[3] = {
      {*makeBox(Vec3(0.4, 0.1, 0.4)), Transform{Vec3(0.0), Quat(1, 0, 0, 0)}},
      {*makeSphere(0.3), Transform{Vec3(0.6, 0.3, 0.0), Quat(1, 0, 0, 0)}},
      {*makeCapsule(0.15, 0.4), Transform{Vec3(-0.6, 0.3, 0.0), Quat(1, 0, 0, 0)}}};
  addStatic(w, *makeCompound(children), Vec3(-1.5, 1.0, 1.5), randomRotation(rng));
  std::uniform_real_distribution<Real> p(-4.0, 4.0), y(0.0, 3.0);
  for (int i = 0; i < 60; ++i)
    addStatic(w, randomConvex(rng, i), Vec3(p(rng), y(rng), p(rng)), randomRotation(rng));
}

}  // namespace

TEST_CASE("a sphere cast meets a plane-like box and a box at the analytic time", "[query][cast]") {
  World w{Settings{}};
  const BodyId ground = addGround(w);  // top face at y = 0
  const Shape ball = *makeSphere(0.5);
  const Transform start{Vec3(0.3, 5.0, 0.2), Quat(1, 0, 0, 0)};
  // Centre height 5 - 10 t reaches the radius 0.5 at t = 0.45.
  const auto down = w.castShape(ball, start, Vec3(1.0, -10.0, 0.5));
  REQUIRE(down);
  CHECK(down->body == ground);
  CHECK_THAT(down->fraction, WithinRel(0.45, 1e-9));
  CHECK_THAT(down->normal.y, WithinAbs(1.0, 1e-12));
  CHECK_THAT(down->point.x, WithinAbs(0.3 + 0.45, 1e-9));
  CHECK_THAT(down->point.y, WithinAbs(0.0, 1e-9));

  // Grazing a box's top edge: the centre (x, 0.6) touches the edge (-0.5, 0.5) when
  // (x + 0.5)^2 + 0.1^2 = 0.25^2, a curved distance that Newton's steps approach from below.
  World w2{Settings{}};
  const BodyId box = addStatic(w2, *makeBox(Vec3(0.5)), Vec3(0.0));
  const Shape small = *makeSphere(0.25);
  const auto edge =
      w2.castShape(small, Transform{Vec3(-3.0, 0.6, 0.0), Quat(1, 0, 0, 0)}, Vec3(4.0, 0, 0));
  REQUIRE(edge);
  CHECK(edge->body == box);
  const Real x = -0.5 - std::sqrt(0.25 * 0.25 - 0.01);
  CHECK_THAT(edge->fraction, WithinRel((x + 3.0) / 4.0, 1e-9));
  const Vec3 expectedNormal = glm::normalize(Vec3(x + 0.5, 0.1, 0.0));
  CHECK_THAT(glm::dot(edge->normal, expectedNormal), WithinAbs(1.0, 1e-9));
  CHECK_THAT(glm::length(edge->point - Vec3(-0.5, 0.5, 0.0)), WithinAbs(0.0, 1e-6));

  // Onto a rotated box's face: the face plane's distance along its normal.
  World w3{Settings{}};
  const Quat q = glm::angleAxis(0.4, glm::normalize(Vec3(1, 0, 1)));
  addStatic(w3, *makeBox(Vec3(1.0)), Vec3(0.0), q);
  const Vec3 faceNormal = q * Vec3(0, 1, 0);
  const Vec3 from = 4.0 * faceNormal;  // the centre above the face's middle
  const auto face = w3.castShape(small, Transform{from, Quat(1, 0, 0, 0)}, -6.0 * faceNormal);
  REQUIRE(face);
  CHECK_THAT(face->fraction, WithinRel((4.0 - 1.0 - 0.25) / 6.0, 1e-9));
  CHECK_THAT(glm::dot(face->normal, faceNormal), WithinAbs(1.0, 1e-12));

  // A box cast (no radius) falling flat on the ground.
  const auto flat =
      w.castShape(*makeBox(Vec3(0.5)), Transform{Vec3(0, 3, 0), Quat(1, 0, 0, 0)}, Vec3(0, -5, 0));
  REQUIRE(flat);
  CHECK_THAT(flat->fraction, WithinRel(0.5, 1e-9));
  CHECK_THAT(flat->normal.y, WithinAbs(1.0, 1e-12));

  // Overlapping at the start: fraction 0. With the cores apart (the ball's centre above the
  // ground, within its radius) the normal is the separating direction; with the cores
  // overlapping, against the translation.
  const auto near =
      w.castShape(ball, Transform{Vec3(0, 0.2, 0), Quat(1, 0, 0, 0)}, Vec3(0.0, 0.0, 2.0));
  REQUIRE(near);
  CHECK(near->fraction == 0.0);
  CHECK_THAT(near->normal.y, WithinAbs(1.0, 1e-12));
  const auto inside =
      w.castShape(ball, Transform{Vec3(0, -0.2, 0), Quat(1, 0, 0, 0)}, Vec3(0.0, 0.0, 2.0));
  REQUIRE(inside);
  CHECK(inside->fraction == 0.0);
  CHECK_THAT(inside->normal.z, WithinAbs(-1.0, 1e-12));
  // Moving away, or stopping short: no hit.
  CHECK_FALSE(w.castShape(ball, start, Vec3(0.0, 1.0, 0.0)));
  CHECK_FALSE(w.castShape(ball, start, Vec3(0.0, -4.4, 0.0)));
  CHECK_FALSE(w.castShape(Shape(), start, Vec3(0, -10, 0)));  // not a convex shape
}

TEST_CASE("shape casts never pass the time of impact and agree with overlaps", "[query][cast]") {
  std::mt19937_64 rng(16);
  World w{Settings{}};
  buildMixedScene(w, rng);
  std::uniform_real_distribution<Real> p(-5.0, 5.0), y(3.5, 6.0);
  int hits = 0, maxIterations = 0;
  for (int i = 0; i < 200; ++i) {
    const Shape s = randomConvex(rng, i);
    const Transform xf{Vec3(p(rng), y(rng), p(rng)), randomRotation(rng)};
    const Vec3 to(p(rng), -1.5, p(rng));
    const Vec3 translation = to - xf.position;
    if (!w.overlapShape(s, xf).empty()) continue;
    const auto hit = w.castShape(s, xf, translation);
    if (!hit) {
      // The sweep's end is free too (sampled along the path: none of the samples overlaps).
      for (int k = 1; k <= 20; ++k)
        CHECK(w.overlapShape(s, {xf.position + (k / 20.0) * translation, xf.rotation}).empty());
      continue;
    }
    ++hits;
    maxIterations = std::max(maxIterations, hit->iterations);
    // Just before the hit nothing overlaps; just after, the body hit does.
    const Real before = std::max(0.0, hit->fraction - 1e-6);
    CHECK(w.overlapShape(s, {xf.position + before * translation, xf.rotation}).empty());
    const auto after =
        w.overlapShape(s, {xf.position + (hit->fraction + 1e-6) * translation, xf.rotation});
    CHECK(std::find(after.begin(), after.end(), hit->body) != after.end());
    CHECK_THAT(glm::length(hit->normal), WithinAbs(1.0, 1e-9));
    CHECK(glm::dot(hit->normal, translation) <= 1e-9);
  }
  CHECK(hits > 40);  // representative: most sweeps down into the scene hit something
  // Newton's steps converge well before the cap (the winning body's queries).
  CHECK(maxIterations < kCastMaxIterations / 2);
}

TEST_CASE("ray all-hits equals brute force over every body", "[query][ray]") {
  std::mt19937_64 rng(7);
  World w{Settings{}};
  buildMixedScene(w, rng);
  std::uniform_real_distribution<Real> p(-6.0, 6.0), y(-1.0, 5.0);
  int none = 0, several = 0;
  for (int i = 0; i < 500; ++i) {
    const Vec3 from(p(rng), y(rng), p(rng)), to(p(rng), y(rng), p(rng));
    const Vec3 d = to - from;
    const std::vector<RayCastHit> all = w.castRayAll(from, d);
    std::vector<std::pair<Real, int>> brute;
    for (const BodyId id : w.bodyIds()) {
      const BodyView b = *w.body(id);
      Real t;
      Vec3 n;
      if (b.shape.rayCast(b.transform().applyInverse(from), b.transform().rotateInverse(d), 1.0, t,
                          n))
        brute.push_back({t, id.index});
    }
    std::sort(brute.begin(), brute.end());
    REQUIRE(all.size() == brute.size());
    for (size_t k = 0; k < all.size(); ++k) {
      CHECK(all[k].body.index == brute[k].second);
      CHECK(all[k].fraction == brute[k].first);
      CHECK_THAT(glm::length(all[k].point - (from + all[k].fraction * d)), WithinAbs(0.0, 1e-12));
    }
    const auto closest = w.castRayClosest(from, d);
    const auto any = w.castRayAny(from, d);
    CHECK(closest.has_value() == !all.empty());
    CHECK(any.has_value() == !all.empty());
    if (!all.empty()) {
      CHECK(closest->body == all.front().body);
      CHECK(closest->fraction == all.front().fraction);
      CHECK(std::any_of(all.begin(), all.end(), [&](const RayCastHit& h) {
        return h.body == any->body && h.fraction == any->fraction;
      }));
      const RayHit old = w.rayCast(from, d);  // the older API answers the same
      CHECK(old.hit);
      CHECK(old.body == closest->body);
    }
    none += all.empty();
    several += all.size() >= 2;
  }
  CHECK(none > 25);
  CHECK(several > 50);
}

TEST_CASE("overlapShape agrees with collide() and GJK over every body", "[query][overlap]") {
  std::mt19937_64 rng(3);
  World w{Settings{}};
  buildMixedScene(w, rng);
  const Settings s;
  std::uniform_real_distribution<Real> p(-5.0, 5.0), y(-1.0, 4.0);
  int overlapping = 0, total = 0;
  for (int i = 0; i < 300; ++i) {
    const Shape q = randomConvex(rng, i);
    const Transform xf{Vec3(p(rng), y(rng), p(rng)), randomRotation(rng)};
    const std::vector<BodyId> got = w.overlapShape(q, xf);
    CHECK(std::is_sorted(got.begin(), got.end()));
    for (const BodyId id : w.bodyIds()) {
      const BodyView b = *w.body(id);
      // Brute force: the smallest distance over every convex piece (collide() for convex ones;
      // GJK on every triangle of a mesh or height field).
      Real distance = 1e300;
      auto piece = [&](const Shape& shape, const Transform& bx) {
        distance = std::min(distance, collide(q, xf, shape, bx, 0.0, s).distance);
      };
      if (b.shape.isConvex()) piece(b.shape, b.transform());
      if (const Compound* c = b.shape.compound())
        for (const CompoundChild& ch : c->children)
          piece(ch.shape, compose(b.transform(), ch.local));
      auto triangle = [&](const TriangleRef& t) {
        SupportShape tri;
        tri.points = std::span<const Vec3>(t.v, 3);
        const GjkResult g = gjkDistance(q.support(), xf, tri, b.transform(), s.gjk);
        distance = std::min(distance, g.intersecting() ? 0.0 : g.distance - q.roundRadius());
      };
      const Aabb everything{Vec3(-1e9), Vec3(1e9)};
      if (const TriangleMesh* m = b.shape.mesh()) m->forTriangles(everything, triangle);
      if (const HeightField* f = b.shape.heightField()) f->forTriangles(everything, triangle);
      if (std::abs(distance) < 1e-7) continue;  // the touching band may go either way
      const bool found = std::binary_search(got.begin(), got.end(), id);
      CHECK(found == (distance < 0.0));
      overlapping += distance < 0.0;
      ++total;
    }
  }
  // Representative: a few percent of the pairs overlap, not none and not most.
  CHECK(overlapping > total / 200);
  CHECK(overlapping < total / 4);
}

TEST_CASE("overlapAabb and overlapSphere against brute force", "[query][overlap]") {
  std::mt19937_64 rng(11);
  World w{Settings{}};
  buildMixedScene(w, rng);
  std::uniform_real_distribution<Real> p(-5.0, 5.0), r(0.1, 1.5);
  for (int i = 0; i < 200; ++i) {
    const Vec3 c(p(rng), p(rng) * 0.5 + 1.0, p(rng));
    const Real radius = r(rng);
    const Aabb box{c - Vec3(radius), c + Vec3(radius)};
    std::vector<BodyId> boxes;
    for (const BodyId id : w.bodyIds())
      if (w.body(id)->shape.bounds(w.body(id)->transform()).overlaps(box)) boxes.push_back(id);
    CHECK(w.overlapAabb(box) == boxes);
    // A sphere is a box's subset, and overlapShape with a sphere shape says the same.
    const std::vector<BodyId> sphere = w.overlapSphere(c, radius);
    CHECK(std::includes(boxes.begin(), boxes.end(), sphere.begin(), sphere.end()));
    CHECK(sphere == w.overlapShape(*makeSphere(radius), Transform{c, Quat(1, 0, 0, 0)}));
  }
}

TEST_CASE("query filters: category and mask bits, the ignored body, the predicate",
          "[query][filter]") {
  World w{Settings{}};
  std::vector<BodyId> ids;
  const uint64_t masks[4] = {~uint64_t{0}, 0x1, 0x6, uint64_t{1} << 63};
  for (int i = 0; i < 4; ++i)
    ids.push_back(addStatic(w, *makeSphere(0.4), Vec3(0.0, 0.0, 2.0 * i), Quat(1, 0, 0, 0),
                            BodyFilter{uint64_t{1} << i, masks[i], 0}));
  CHECK(w.body(ids[2])->filter.category == 4);
  CHECK(w.body(ids[2])->filter.mask == 0x6);
  const uint64_t values[5] = {0, 1, 2, 0x5, uint64_t{1} << 63 | 0x8};
  for (const uint64_t category : values)
    for (const uint64_t mask : values) {
      QueryFilter f;
      f.category = category;
      f.mask = mask;
      std::vector<BodyId> expected;
      for (int i = 0; i < 4; ++i)
        if (((uint64_t{1} << i) & mask) && (category & masks[i])) expected.push_back(ids[i]);
      CHECK(w.overlapSphere(Vec3(0, 0, 3), 10.0, f) == expected);
      CHECK(w.overlapAabb(Aabb{Vec3(-10), Vec3(10)}, f) == expected);
      const auto all = w.castRayAll(Vec3(0, 0, -5), Vec3(0, 0, 20), f);
      REQUIRE(all.size() == expected.size());
      for (size_t k = 0; k < all.size(); ++k) CHECK(all[k].body == expected[k]);
      const auto closest = w.castRayClosest(Vec3(0, 0, -5), Vec3(0, 0, 20), f);
      CHECK(closest.has_value() == !expected.empty());
      if (closest) CHECK(closest->body == expected.front());
      const auto cast = w.castShape(*makeSphere(0.1), Transform{Vec3(0, 0, -5), Quat(1, 0, 0, 0)},
                                    Vec3(0, 0, 20), f);
      CHECK(cast.has_value() == !expected.empty());
      if (cast) CHECK(cast->body == expected.front());
    }
  QueryFilter skip;
  skip.ignore = ids[0];
  CHECK(w.castRayClosest(Vec3(0, 0, -5), Vec3(0, 0, 20), skip)->body == ids[1]);
  CHECK(w.castShape(*makeSphere(0.1), Transform{Vec3(0, 0, -5), Quat(1, 0, 0, 0)}, Vec3(0, 0, 20),
                    skip)
            ->body == ids[1]);
  QueryFilter odd;
  odd.category = ~uint64_t{0};
  odd.predicate = [&](BodyId id) { return id.index % 2 == 1; };
  CHECK(w.overlapSphere(Vec3(0, 0, 3), 10.0, odd) == std::vector<BodyId>{ids[1], ids[3]});
  CHECK(w.castRayAll(Vec3(0, 0, -5), Vec3(0, 0, 20), odd).size() == 2);
}

TEST_CASE("queries are deterministic and change no simulation bits", "[query][determinism]") {
  auto build = [](World& w) {
    addGround(w);
    for (int i = 0; i < 30; ++i) addBox(w, Vec3(0.3 * (i % 5), 0.6 + 1.1 * i, 0.2 * (i % 3)));
  };
  World a{Settings{}}, b{Settings{}};
  build(a);
  build(b);
  std::vector<BodyId> firstAll;
  for (int step = 0; step < 120; ++step) {
    REQUIRE(a.step(1.0 / 60.0));
    REQUIRE(b.step(1.0 / 60.0));
    // Only `a` is queried; the hashes must stay equal.
    const auto all = a.castRayAll(Vec3(0.5, 40.0, 0.2), Vec3(0, -45, 0));
    CHECK(std::is_sorted(all.begin(), all.end(), [](const RayCastHit& x, const RayCastHit& y) {
      return x.fraction < y.fraction || (x.fraction == y.fraction && x.body.index < y.body.index);
    }));
    (void)a.overlapSphere(Vec3(0.5, 2.0, 0.2), 1.5);
    (void)a.castShape(*makeSphere(0.3), Transform{Vec3(0.5, 40.0, 0.2), Quat(1, 0, 0, 0)},
                      Vec3(0, -45, 0));
    REQUIRE(a.stateHash() == b.stateHash());
  }
  // The same query on both worlds gives the same answer, element by element.
  const auto ra = a.castRayAll(Vec3(-3, 0.5, 0.2), Vec3(8, 0, 0));
  const auto rb = b.castRayAll(Vec3(-3, 0.5, 0.2), Vec3(8, 0, 0));
  REQUIRE(ra.size() == rb.size());
  for (size_t k = 0; k < ra.size(); ++k) {
    CHECK(ra[k].body == rb[k].body);
    CHECK(ra[k].fraction == rb[k].fraction);
  }
}

TEST_CASE("scene files give bodies their filter and name a bad bit", "[query][filter][scene]") {
  const auto scene = parseScene(
      R"({"bodies": [{"shape": {"sphere": {"radius": 1}}, "filter": {"category": [0, 63],
          "mask": [2], "group": -4}}, {"shape": {"sphere": {"radius": 1}}}]})",
      "t", SceneDirs{});
  REQUIRE(scene);
  CHECK(scene->bodies[0].filter.category == (uint64_t{1} | uint64_t{1} << 63));
  CHECK(scene->bodies[0].filter.mask == 4);
  CHECK(scene->bodies[0].filter.group == -4);
  CHECK(scene->bodies[1].filter == BodyFilter{});
  const auto bad =
      parseScene(R"({"bodies": [{"shape": {"sphere": {"radius": 1}}, "filter": {"mask": [64]}}]})",
                 "t", SceneDirs{});
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("bodies[0].filter.mask[0]"));
  CHECK_FALSE(
      parseScene(R"({"bodies": [{"shape": {"sphere": {"radius": 1}}, "filter": {"bits": [1]}}]})",
                 "t", SceneDirs{}));
}

TEST_CASE("castCores: analytic times of impact of round cores, and its ends", "[query][cast]") {
  const Settings s;
  const Quat id(1, 0, 0, 0);
  // Two perpendicular capsules: the segments' gap is vertical, touching when it is 0.5.
  const Shape a = *makeCapsule(0.2, 1.0);
  const Shape b = *makeCapsule(0.3, 1.0);
  const Quat alongX = glm::angleAxis(0.5 * glm::pi<Real>(), Vec3(0, 0, 1));
  const Quat alongZ = glm::angleAxis(0.5 * glm::pi<Real>(), Vec3(1, 0, 0));
  const CastResult cross = castCores(a.support(), {Vec3(0.1, 5, 0.2), alongX}, 0.2, Vec3(0, -10, 0),
                                     b.support(), {Vec3(0), alongZ}, 0.3, 1.0, s.gjk);
  REQUIRE(cross.status == CastStatus::Hit);
  CHECK_THAT(cross.fraction, WithinRel(0.45, 1e-12));
  CHECK_THAT(cross.normal.y, WithinAbs(1.0, 1e-12));
  CHECK_THAT(cross.point.y, WithinAbs(0.3, 1e-9));
  CHECK(cross.iterations <= 3);
  // A ball grazing a cylinder's rim (exact support, curved): (x + 1)^2 + 0.1^2 = 0.25^2.
  const Shape drum = *makeCylinder(1.0, 0.5);
  const Shape ball = *makeSphere(0.25);
  const CastResult rim = castCores(ball.support(), {Vec3(-4, 0.6, 0), id}, 0.25, Vec3(4, 0, 0),
                                   drum.support(), {Vec3(0), id}, 0.0, 1.0, s.gjk);
  REQUIRE(rim.status == CastStatus::Hit);
  const Real x = -1.0 - std::sqrt(0.25 * 0.25 - 0.01);
  CHECK_THAT(rim.fraction, WithinRel((x + 4.0) / 4.0, 1e-9));
  CHECK(rim.iterations <= 10);
  // Starting beyond reach of the motion: a miss; moving away: a miss after one query.
  CHECK(castCores(ball.support(), {Vec3(-4, 0.6, 0), id}, 0.25, Vec3(2, 0, 0), drum.support(),
                  {Vec3(0), id}, 0.0, 1.0, s.gjk)
            .status == CastStatus::Miss);
  const CastResult away = castCores(ball.support(), {Vec3(-4, 0.6, 0), id}, 0.25, Vec3(-2, 0, 0),
                                    drum.support(), {Vec3(0), id}, 0.0, 1.0, s.gjk);
  CHECK(away.status == CastStatus::Miss);
  CHECK(away.iterations == 1);
  // maxFraction clips: the rim is at 0.52, not within 0.5.
  CHECK(castCores(ball.support(), {Vec3(-4, 0.6, 0), id}, 0.25, Vec3(4, 0, 0), drum.support(),
                  {Vec3(0), id}, 0.0, 0.5, s.gjk)
            .status == CastStatus::Miss);
}

TEST_CASE("query answers do not depend on the broad-phase tree's shape", "[query][determinism]") {
  // A simulated heap (its tree grown by reinsertions) against the same poses created afresh in
  // reverse order (another tree); indices map through the reversal.
  World a{Settings{}};
  addGround(a);
  for (int i = 0; i < 40; ++i)
    addBox(a, Vec3(0.4 * (i % 4) - 0.6, 0.6 + 1.1 * i, 0.3 * (i % 3) - 0.3), Vec3(0.5), 0.5, 0.0,
           glm::angleAxis(0.1 * i, glm::normalize(Vec3(1, 2, 3))));
  for (int step = 0; step < 200; ++step) REQUIRE(a.step(1.0 / 60.0));
  const std::vector<BodyId> ids = a.bodyIds();
  const int n = static_cast<int>(ids.size());
  World b{Settings{}};
  for (int k = n - 1; k >= 0; --k) {
    const BodyView v = *a.body(ids[k]);
    addStatic(b, v.shape, v.position, v.rotation);
  }
  auto mapped = [&](BodyId id) { return n - 1 - id.index; };
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<Real> p(-3.0, 3.0), y(0.0, 8.0);
  int compared = 0, casts = 0;
  for (int i = 0; i < 300; ++i) {
    const Vec3 from(p(rng), y(rng), p(rng)), d(p(rng), -y(rng), p(rng));
    const auto ra = a.castRayAll(from, d), rb = b.castRayAll(from, d);
    REQUIRE(ra.size() == rb.size());
    // Order by (fraction, index) in b's indices: compare as sets with near-equal fractions.
    for (const RayCastHit& h : ra) {
      const bool found = std::any_of(rb.begin(), rb.end(), [&](const RayCastHit& g) {
        return g.body.index == mapped(h.body) && std::abs(g.fraction - h.fraction) < 1e-12;
      });
      CHECK(found);
    }
    const auto ca = a.castRayClosest(from, d), cb = b.castRayClosest(from, d);
    REQUIRE(ca.has_value() == cb.has_value());
    if (ca) CHECK(mapped(ca->body) == cb->body.index);
    const Vec3 c(p(rng), y(rng) * 0.5, p(rng));
    const auto oa = a.overlapSphere(c, 0.8), ob = b.overlapSphere(c, 0.8);
    std::vector<int> ma;
    for (const BodyId id : oa) ma.push_back(mapped(id));
    std::sort(ma.begin(), ma.end());
    std::vector<int> mb;
    for (const BodyId id : ob) mb.push_back(id.index);
    CHECK(ma == mb);
    const auto sa = a.castShape(*makeSphere(0.2), Transform{from, Quat(1, 0, 0, 0)}, d);
    const auto sb = b.castShape(*makeSphere(0.2), Transform{from, Quat(1, 0, 0, 0)}, d);
    REQUIRE(sa.has_value() == sb.has_value());
    if (sa) {
      // At fraction 0 several bodies tie and the lower index wins: reversed indices differ.
      if (sa->fraction > 0.0) CHECK(mapped(sa->body) == sb->body.index);
      casts += sa->fraction > 0.0;
      CHECK_THAT(sa->fraction, WithinAbs(sb->fraction, 1e-9));
    }
    compared += !ra.empty();
  }
  CHECK(compared > 100);
  CHECK(casts > 100);
}

TEST_CASE("queries find a body that left its fat box during the last step", "[query][stale]") {
  // A force is integrated after the step's broad phase: a large one moves the box past its fat
  // box (0.1 m margin) within one step. The query must see where the body is now.
  World w{Settings{}};
  const BodyId box = addBox(w, Vec3(0.0, 5.0, 0.0));
  const Real mass = w.body(box)->mass;
  w.applyForce(box, Vec3(mass * 10000.0, 0.0, 0.0), w.body(box)->centerOfMass);
  REQUIRE(w.step(1.0 / 60.0));
  const BodyView v = *w.body(box);
  REQUIRE(v.position.x > 1.2);  // its box wholly outside the fat box
  const Vec3 c = v.position;
  const auto hit = w.castRayClosest(c + Vec3(0, 5, 0), Vec3(0, -10, 0));
  REQUIRE(hit);
  CHECK(hit->body == box);
  CHECK(w.castRayAll(c + Vec3(0, 5, 0), Vec3(0, -10, 0)).size() == 1);
  CHECK(w.overlapSphere(c, 0.1) == std::vector<BodyId>{box});
  CHECK(w.overlapAabb(Aabb{c - Vec3(0.1), c + Vec3(0.1)}) == std::vector<BodyId>{box});
  const auto cast = w.castShape(*makeSphere(0.1), Transform{c + Vec3(0, 5, 0), Quat(1, 0, 0, 0)},
                                Vec3(0, -10, 0));
  REQUIRE(cast);
  CHECK(cast->body == box);
}

TEST_CASE("Queries pass through sensor bodies unless the filter includes sensors") {
  World w{Settings{}};
  BodyDef def;
  def.type = BodyType::Static;
  def.shape = boxHull(Vec3(0.5));
  def.position = Vec3(2.0, 0.0, 0.0);
  def.isSensor = true;
  const BodyId sensor = *w.createBody(def);
  def.position = Vec3(5.0, 0.0, 0.0);
  def.isSensor = false;
  const BodyId wall = *w.createBody(def);
  const Vec3 origin(0.0), translation(10.0, 0.0, 0.0);
  QueryFilter all;
  all.includeSensors = true;

  const auto ray = w.castRayClosest(origin, translation);
  REQUIRE(ray);
  CHECK(ray->body == wall);
  CHECK_THAT(ray->fraction, WithinAbs(0.45, 1e-12));
  const auto raySensor = w.castRayClosest(origin, translation, all);
  REQUIRE(raySensor);
  CHECK(raySensor->body == sensor);
  CHECK_THAT(raySensor->fraction, WithinAbs(0.15, 1e-12));
  CHECK(w.castRayAll(origin, translation).size() == 1);
  CHECK(w.castRayAll(origin, translation, all).size() == 2);

  CHECK(w.overlapSphere(Vec3(2.0, 0.0, 0.0), 0.1).empty());
  CHECK(w.overlapSphere(Vec3(2.0, 0.0, 0.0), 0.1, all) == std::vector<BodyId>{sensor});
  const Aabb inside{Vec3(1.9, -0.1, -0.1), Vec3(2.1, 0.1, 0.1)};
  CHECK(w.overlapAabb(inside).empty());
  CHECK(w.overlapAabb(inside, all) == std::vector<BodyId>{sensor});

  const Shape ball = *makeSphere(0.25);
  const Transform start{origin, Quat(1.0, 0.0, 0.0, 0.0)};
  const auto cast = w.castShape(ball, start, translation);
  REQUIRE(cast);
  CHECK(cast->body == wall);
  CHECK_THAT(cast->fraction, WithinRel(0.425, 1e-9));
  const auto castSensor = w.castShape(ball, start, translation, all);
  REQUIRE(castSensor);
  CHECK(castSensor->body == sensor);
  CHECK_THAT(castSensor->fraction, WithinRel(0.125, 1e-9));
}
