// Shape casts by conservative advancement on GJK distance.
#include "tumble/shape_cast.h"

#include <algorithm>
#include <cmath>

#include "tumble/gjk.h"

namespace tumble {

CastResult castCores(const SupportShape& a, const Transform& xa, Real radiusA,
                     const Vec3& translation, const SupportShape& b, const Transform& xb,
                     Real radiusB, Real maxFraction, const Settings::Gjk& settings) {
  CastResult out;
  const Real radii = radiusA + radiusB;
  const Real length = glm::length(translation);
  const Real tolerance = kCastTolerance * std::max(1.0, length);
  Real t = 0.0;
  Vec3 n(0.0);  // unit, from A to B, of the last separated query
  auto miss = [&] {
    out.status = CastStatus::Miss;
    return out;
  };
  GjkSimplex warm;
  const GjkSimplex* seed = nullptr;
  for (int it = 0; it < kCastMaxIterations; ++it) {
    const Transform at{xa.position + t * translation, xa.rotation};
    const GjkResult g = gjkDistance(a, at, b, xb, settings, seed);
    warm = g.simplex;
    seed = &warm;
    out.iterations = it + 1;
    out.fraction = t;
    if (g.intersecting() || !(g.distance > 0.0)) {
      // The cores touch: at t = 0 an initial overlap; later, rounding past a touching core pair
      // (radii 0), where the last separated direction still holds.
      if (t == 0.0) n = length > 0.0 ? translation / length : Vec3(0.0, -1.0, 0.0);
      out.status = CastStatus::Hit;
      out.normal = -n;
      out.point = g.pointB;
      return out;
    }
    // The witness points' difference loses its direction to rounding as the cores close in
    // (radii 0): below 1e-9 m per metre of translation the last direction is kept.
    const Vec3 gap = g.pointB - g.pointA;
    const Real gapLength = glm::length(gap);
    if (gapLength > 1e-9 * std::max(1.0, length) || (it == 0 && gapLength > 0.0))
      n = gap / gapLength;
    else if (it == 0)
      n = length > 0.0 ? translation / length : Vec3(0.0, -1.0, 0.0);
    const Real separation = g.distance - radii;
    out.status = CastStatus::Hit;
    out.normal = -n;
    out.point = g.pointB - radiusB * n;
    if (separation <= tolerance) return out;
    const Real rate = glm::dot(translation, n);
    // d'(t) = -rate: with rate <= 0 the convex d(t) never decreases again.
    if (!(rate > 0.0)) return miss();
    const Real next = t + separation / rate;
    if (next > maxFraction) return miss();
    if (next == t) return out;  // rounding: no step changes t any more
    t = next;
  }
  out.status = CastStatus::MaxIterations;  // t is below the time of impact: a hit there
  return out;
}

}  // namespace tumble
