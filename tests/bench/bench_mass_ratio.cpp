// The mass-ratio stacks of README's "Exact contact groups", printed, never asserted (the laws are
// test_exact_contacts' and test_stability's): unit cubes from the ground up, sleep off, with the
// rows one by one (contact.exact_ratio 0) and with the default exact contact groups.
//  - at rest: each stack placed touching, 1200 steps of 1/60 s: the top cube's sink and the
//    fastest body over the last 60 steps;
//  - dropped: every cube above the bottom one turned by about 0.1 rad, offset 0.1 m on odd
//    levels and dropped from a gap of 0.3 m or 2 m: whether every cube ended above the one it was
//    put on, and the deepest contact of the run.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "tumble/shape.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;

struct Outcome {
  Real topSink = 0.0, fastest = 0.0, deepest = 0.0;
  bool standing = true;
};

Outcome run(const std::vector<Real>& masses, Real ratio, Real gap, bool askew) {
  tumble::Settings s;
  s.sleep.enabled = false;
  s.contact.exactRatio = ratio;
  tumble::World w(s);
  tumble::BodyDef ground;
  ground.type = tumble::BodyType::Static;
  ground.shape = *tumble::makeBox(Vec3(20.0, 0.5, 20.0));
  ground.position = Vec3(0.0, -0.5, 0.0);
  (void)w.createBody(ground);
  std::vector<tumble::BodyId> ids;
  for (size_t i = 0; i < masses.size(); ++i) {
    tumble::BodyDef def;
    def.shape = *tumble::makeBox(Vec3(0.5));
    const Real k = static_cast<Real>(i);
    def.position = Vec3(askew ? 0.1 * static_cast<Real>(i % 2) : 0.0, 0.5 + k * (1.0 + gap), 0.0);
    if (askew) def.orientation = glm::normalize(tumble::Quat(1.0, 0.05 * k, 0.1 * k, 0.02));
    def.density = masses[i];  // kg: a 1 m cube
    ids.push_back(*w.createBody(def));
  }
  Outcome o;
  const int steps = 1200;
  for (int i = 0; i < steps; ++i) {
    (void)w.step(s.dt);
    o.deepest = std::max(o.deepest, w.stats().maxPenetration);
    if (i >= steps - 60)
      for (tumble::BodyId id : ids)
        o.fastest = std::max({o.fastest, glm::length(w.body(id)->linearVelocity),
                              glm::length(w.body(id)->angularVelocity)});
  }
  const size_t top = masses.size() - 1;
  o.topSink = 0.5 + static_cast<Real>(top) - w.body(ids[top])->centerOfMass.y;
  for (size_t i = 1; i < ids.size(); ++i)
    o.standing =
        o.standing && w.body(ids[i])->centerOfMass.y > w.body(ids[i - 1])->centerOfMass.y + 0.9;
  return o;
}

std::string name(const std::vector<Real>& masses) {
  std::string n;
  for (Real m : masses) n += (n.empty() ? "" : "/") + std::to_string(static_cast<int>(m));
  return n;
}

}  // namespace

int main() {
  const Real exact = tumble::Settings{}.contact.exactRatio;
  const std::vector<std::vector<Real>> stacks = {{1, 100}, {1, 1000}, {1, 100, 1, 100}, {100, 1}};
  std::printf(
      "at rest, 1200 steps: the top cube's sink (mm), fastest body over the last 60 steps\n");
  std::printf("%-14s %12s %12s %14s %12s\n", "stack (kg)", "rows sink", "rows fast", "exact sink",
              "exact fast");
  for (const auto& m : stacks) {
    const Outcome a = run(m, 0.0, 0.0, false), b = run(m, exact, 0.0, false);
    std::printf("%-14s %12.3f %12.1e %14.3f %12.1e\n", name(m).c_str(), 1e3 * a.topSink, a.fastest,
                1e3 * b.topSink, b.fastest);
  }
  std::printf("\ndropped askew: standing (every cube above its own), deepest contact (mm)\n");
  std::printf("%-14s %6s %14s %14s\n", "stack (kg)", "gap", "rows", "exact");
  for (const auto& m :
       std::vector<std::vector<Real>>{{1, 100}, {1, 1000}, {1, 1000, 1}, {1, 100, 1, 100}})
    for (Real gap : {0.3, 2.0}) {
      const Outcome a = run(m, 0.0, gap, true), b = run(m, exact, gap, true);
      std::printf("%-14s %6.1f %5s %8.1f %5s %8.1f\n", name(m).c_str(), gap,
                  a.standing ? "yes" : "no", 1e3 * a.deepest, b.standing ? "yes" : "no",
                  1e3 * b.deepest);
    }
  return 0;
}
