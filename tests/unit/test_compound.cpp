// Compound shapes (issue 14): several convex children in one body. Mass properties against a
// single equal shape and against slice-by-slice integration, the child broad-phase against brute
// force, and compounds resting and tumbling in a world.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <random>
#include <set>

#include "random.h"
#include "tumble/collide.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

Transform at(const Vec3& p, const Quat& q = Quat(1.0, 0.0, 0.0, 0.0)) {
  return {p, q};
}

void checkSameMass(const MassProperties& a, const MassProperties& b, Real rel) {
  CHECK_THAT(a.volume, WithinRel(b.volume, rel));
  CHECK_THAT(a.mass, WithinRel(b.mass, rel));
  for (int k = 0; k < 3; ++k)
    CHECK_THAT(a.centerOfMass[k],
               WithinAbs(b.centerOfMass[k], rel * (1.0 + glm::length(b.centerOfMass))));
  const Real scale = b.inertia[0][0] + b.inertia[1][1] + b.inertia[2][2];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      CHECK_THAT(a.inertia[i][j], WithinAbs(b.inertia[i][j], rel * scale));
}

// A table: a top and four legs, all boxes.
Shape table() {
  std::vector<CompoundChild> parts;
  parts.push_back({*makeBox(Vec3(1.0, 0.05, 0.6)), at(Vec3(0.0, 0.75, 0.0))});
  for (const Real x : {-0.9, 0.9})
    for (const Real z : {-0.5, 0.5})
      parts.push_back({*makeBox(Vec3(0.05, 0.35, 0.05)), at(Vec3(x, 0.35, z))});
  return *makeCompound(parts);
}

}  // namespace

TEST_CASE("a compound of boxes has the mass properties of the box they fill", "[compound]") {
  // Two cubes stacked, and a flat box turned on its side beside them: the same solid as one box.
  const std::vector<CompoundChild> two = {{*makeBox(Vec3(0.5)), at(Vec3(0.0, 0.5, 0.0))},
                                          {*makeBox(Vec3(0.5)), at(Vec3(0.0, -0.5, 0.0))}};
  checkSameMass(makeCompound(two)->massProperties(300.0),
                makeBox(Vec3(0.5, 1.0, 0.5))->massProperties(300.0), 1e-12);
  const Quat quarter = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));
  const std::vector<CompoundChild> turned = {
      {*makeBox(Vec3(1.0, 0.5, 0.25)), at(Vec3(2.0, 3.0, -1.0), quarter)}};
  MassProperties want = makeBox(Vec3(0.5, 1.0, 0.25))->massProperties(7.0);
  want.centerOfMass = Vec3(2.0, 3.0, -1.0);
  checkSameMass(makeCompound(turned)->massProperties(7.0), want, 1e-12);
}

TEST_CASE("a dumbbell's mass properties equal slice-by-slice integration", "[compound]") {
  // Along x: a capsule bar (radius 0.05, half height 0.4) turned from y onto x, a sphere
  // (radius 0.2) at each end, centred 0.6 from the middle; the bar's caps lie inside the
  // spheres, so they are counted twice (children may overlap) - integrate the same sum.
  const Quat toX = glm::angleAxis(Real(-std::numbers::pi / 2), Vec3(0.0, 0.0, 1.0));
  const std::vector<CompoundChild> parts = {{*makeCapsule(0.05, 0.4), at(Vec3(0.0), toX)},
                                            {*makeSphere(0.2), at(Vec3(-0.6, 0.0, 0.0))},
                                            {*makeSphere(0.2), at(Vec3(0.6, 0.0, 0.0))}};
  const Real density = 2000.0;
  const MassProperties m = makeCompound(parts)->massProperties(density);
  // Each child's profile along x: area pi rho(x)^2; inertia about x sums rho^2 / 2 per unit mass,
  // about y (and z) rho^2 / 4 + x^2. Composite Simpson's rule over [-0.8, 0.8].
  auto rhoSq = [](Real x) {
    auto cap = [](Real u, Real half, Real r) {  // capsule along x: |u| <= half, caps beyond
      const Real over = std::abs(u) - half;
      return over <= 0.0 ? r * r : std::max<Real>(0.0, r * r - over * over);
    };
    auto ball = [](Real u, Real r) { return std::max<Real>(0.0, r * r - u * u); };
    return std::array<Real, 3>{cap(x, 0.4, 0.05), ball(x + 0.6, 0.2), ball(x - 0.6, 0.2)};
  };
  const int n = 4000000;
  const Real lo = -0.8, h = 1.6 / n;
  Real vol = 0.0, ixx = 0.0, iyy = 0.0;
  for (int i = 0; i <= n; ++i) {
    const Real x = lo + i * h;
    const Real w = (i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0);
    for (const Real r2 : rhoSq(x)) {
      const Real area = std::numbers::pi * r2;
      vol += w * area;
      ixx += w * area * r2 / 2.0;
      iyy += w * area * (r2 / 4.0 + x * x);
    }
  }
  vol *= h / 3.0, ixx *= h / 3.0, iyy *= h / 3.0;
  CHECK_THAT(m.volume, WithinRel(vol, 1e-6));
  CHECK_THAT(m.mass, WithinRel(density * vol, 1e-6));
  CHECK_THAT(m.inertia[0][0], WithinRel(density * ixx, 1e-6));
  CHECK_THAT(m.inertia[1][1], WithinRel(density * iyy, 1e-6));
  CHECK_THAT(m.inertia[2][2], WithinRel(density * iyy, 1e-6));
  CHECK(glm::length(m.centerOfMass) < 1e-15);
}

TEST_CASE("bad compounds are refused, naming the child", "[compound]") {
  CHECK_FALSE(makeCompound({}));
  const Shape inner = table();
  const std::vector<CompoundChild> nested = {{*makeSphere(1.0), at(Vec3(0.0))},
                                             {inner, at(Vec3(1.0))}};
  const auto e = makeCompound(nested);
  REQUIRE_FALSE(e);
  CHECK(e.error().find("child 1") != std::string::npos);
  CHECK(e.error().find("compound") != std::string::npos);
  const std::vector<CompoundChild> empty = {{Shape{}, at(Vec3(0.0))}};
  CHECK_FALSE(makeCompound(empty));
  std::vector<CompoundChild> nan = {{*makeSphere(1.0), at(Vec3(std::nan(""), 0.0, 0.0))}};
  CHECK(makeCompound(nan).error().find("child 0") != std::string::npos);
  std::vector<CompoundChild> zeroQ = {{*makeSphere(1.0), at(Vec3(0.0), Quat(0.0, 0.0, 0.0, 0.0))}};
  CHECK_FALSE(makeCompound(zeroQ));
}

TEST_CASE("the child broad-phase finds what brute force finds", "[compound]") {
  // 50 children in a row; shapes at random poses near it. collideChildren's contacts equal
  // collide() run on every child, and it looks at few children.
  std::vector<CompoundChild> row;
  for (int i = 0; i < 50; ++i) {
    const Shape s = i % 3 == 0
                        ? *makeSphere(0.4)
                        : (i % 3 == 1 ? *makeCapsule(0.2, 0.3) : *makeBox(Vec3(0.3, 0.4, 0.35)));
    row.push_back(
        {s, at(Vec3(i * 1.0, 0.0, 0.0), glm::angleAxis(Real(0.3 * i), Vec3(0.0, 1.0, 0.0)))});
  }
  const Shape compound = *makeCompound(row);
  const Shape others[] = {*makeBox(Vec3(0.5, 0.4, 0.3)), *makeSphere(0.5), *makeCapsule(0.3, 0.5),
                          compound};
  std::mt19937_64 rng(50);
  const Settings settings;
  int touching = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Transform xa;
    xa.position = Vec3(uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3));
    xa.rotation = randomRotation(rng);
    Transform xb;
    xb.position = xa.apply(Vec3(uniform(rng, -1, 50), uniform(rng, -1, 1), uniform(rng, -1, 1)));
    xb.rotation = randomRotation(rng);
    const Shape& other = others[trial % 4];
    std::vector<ChildContact> got;
    collideChildren(compound, xa, other, xb, 0.05, settings, got);
    std::set<uint64_t> want;
    const std::vector<CompoundChild>& otherChildren =
        other.compound() ? other.compound()->children
                         : std::vector<CompoundChild>{{other, Transform{}}};
    for (size_t i = 0; i < row.size(); ++i)
      for (size_t j = 0; j < otherChildren.size(); ++j) {
        const CollideResult r =
            collide(row[i].shape, compose(xa, row[i].local), otherChildren[j].shape,
                    compose(xb, otherChildren[j].local), 0.05, settings);
        if (r.pointCount > 0) want.insert(static_cast<uint64_t>(i) << 32 | j);
      }
    std::set<uint64_t> keys;
    for (size_t k = 0; k < got.size(); ++k) {
      keys.insert(got[k].key);
      if (k > 0) CHECK(got[k - 1].key < got[k].key);
    }
    CHECK(keys == want);
    touching += static_cast<int>(want.size());
  }
  CHECK(touching > 200);
}

TEST_CASE("a ray hits a compound's nearest child", "[compound]") {
  const Shape t = table();
  Real f = 0.0;
  Vec3 n(0.0);
  // Down onto the top, then along the floor between the legs (a miss), then into a leg.
  REQUIRE(t.rayCast(Vec3(0.3, 5.0, 0.1), Vec3(0.0, -1.0, 0.0), 10.0, f, n));
  CHECK_THAT(f, WithinAbs(5.0 - 0.8, 1e-12));
  CHECK(glm::length(n - Vec3(0.0, 1.0, 0.0)) < 1e-12);
  CHECK_FALSE(t.rayCast(Vec3(-5.0, 0.3, 0.0), Vec3(1.0, 0.0, 0.0), 10.0, f, n));
  REQUIRE(t.rayCast(Vec3(-5.0, 0.3, 0.5), Vec3(1.0, 0.0, 0.0), 10.0, f, n));
  CHECK_THAT(f, WithinAbs(5.0 - 0.95, 1e-12));
}

TEST_CASE("a table stands on its four legs and a dumbbell rolls straight", "[compound]") {
  World w{Settings{}};
  editSettings(w, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w);
  BodyDef def;
  def.shape = table();
  def.position = Vec3(0.0, 0.01, 0.0);
  def.density = 500.0;
  const BodyId t = *w.createBody(def);
  for (int i = 0; i < 120; ++i) REQUIRE(w.step(w.settings().dt));
  const BodyView b = *w.body(t);
  CHECK(glm::length(b.linearVelocity) < 1e-3);
  CHECK(glm::length(b.angularVelocity) < 1e-3);
  CHECK_THAT(b.position.y, WithinAbs(0.0, 1e-3));
  CHECK(w.manifolds().size() == 4);  // one per leg
  for (const Manifold& m : w.manifolds()) CHECK(m.pointCount == 4);

  // A dumbbell (two spheres on a bar along z) pushed along x rolls on its spheres.
  World w2{Settings{}};
  editSettings(w2, [&](Settings& s) { s.sleep.enabled = false; });
  addGround(w2);
  const Quat toZ = glm::angleAxis(Real(std::numbers::pi / 2), Vec3(1.0, 0.0, 0.0));
  const std::vector<CompoundChild> parts = {{*makeCapsule(0.05, 0.4), at(Vec3(0.0), toZ)},
                                            {*makeSphere(0.2), at(Vec3(0.0, 0.0, -0.6))},
                                            {*makeSphere(0.2), at(Vec3(0.0, 0.0, 0.6))}};
  BodyDef bell;
  bell.shape = *makeCompound(parts);
  bell.position = Vec3(0.0, 0.2, 0.0);
  bell.linearVelocity = Vec3(2.0, 0.0, 0.0);
  bell.angularVelocity = Vec3(0.0, 0.0, -10.0);  // rolling: v = omega r
  bell.density = 1000.0;
  const BodyId d = *w2.createBody(bell);
  for (int i = 0; i < 60; ++i) REQUIRE(w2.step(w2.settings().dt));
  const BodyView db = *w2.body(d);
  CHECK_THAT(db.position.x, WithinAbs(2.0, 0.02));
  CHECK(std::abs(db.position.z) < 1e-3);
  CHECK_THAT(db.position.y, WithinAbs(0.2, 1e-3));
}
