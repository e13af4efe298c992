#include "sample_compounds.h"

#include <numbers>
#include <vector>

namespace tumble::demo {
namespace {

Transform at(const Vec3& position, const Quat& rotation = Quat(1.0, 0.0, 0.0, 0.0)) {
  return {position, rotation};
}

}  // namespace

Expected<Shape> makeSampleTable() {
  auto top = makeBox(Vec3(0.6, 0.02, 0.4));
  auto leg = makeBox(Vec3(0.025, 0.365, 0.025));
  if (!top) return top;
  if (!leg) return leg;
  std::vector<CompoundChild> parts{{*top, at(Vec3(0.0, 0.365, 0.0))}};
  for (const Real x : {-0.54, 0.54})
    for (const Real z : {-0.34, 0.34}) parts.push_back({*leg, at(Vec3(x, 0.0, z))});
  return makeCompound(parts);
}

Expected<Shape> makeSampleDumbbell() {
  auto bar = makeCapsule(0.05, 0.45);
  auto ball = makeSphere(0.2);
  if (!bar) return bar;
  if (!ball) return ball;
  const Quat yToX = glm::angleAxis(-0.5 * std::numbers::pi, Vec3(0.0, 0.0, 1.0));
  const std::vector<CompoundChild> parts{{*bar, at(Vec3(0.0), yToX)},
                                         {*ball, at(Vec3(-0.45, 0.0, 0.0))},
                                         {*ball, at(Vec3(0.45, 0.0, 0.0))}};
  return makeCompound(parts);
}

}  // namespace tumble::demo
