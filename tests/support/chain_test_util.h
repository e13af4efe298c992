#pragma once
// Helpers for the chain tests: random chains (straight, zigzag, helix) and brute-force gaps.
#include <cmath>
#include <random>
#include <vector>

#include "random.h"
#include "tumble/chain.h"
#include "tumble/segment.h"

namespace tumble::test {

/// Uniform on the unit sphere, by rejection from the cube outside a ball of radius 0.1 (not
/// unitVector: the chain tests' seeded sequences depend on this bound).
inline Vec3 chainUnitVector(std::mt19937_64& rng) {
  for (;;) {
    const Vec3 v(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1));
    const Real l = glm::length(v);
    if (l > 0.1 && l <= 1.0) return v / l;
  }
}

enum class ChainFamily { Straight, Zigzag, Helix };

/// Points of a chain with `segments` segments of length 1 (helix: close to 1).
inline std::vector<Vec3> makeChain(ChainFamily family, int segments, std::mt19937_64& rng) {
  std::vector<Vec3> p;
  p.reserve(segments + 1);
  const Vec3 origin(uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5));
  switch (family) {
    case ChainFamily::Straight: {
      const Vec3 d = chainUnitVector(rng);
      for (int k = 0; k <= segments; ++k) p.push_back(origin + Real(k) * d);
      break;
    }
    case ChainFamily::Zigzag: {
      const Real half = uniform(rng, 0.3, 1.3);  // half the turn angle at each joint
      const Vec3 a(std::cos(half), std::sin(half), 0.0), b(std::cos(half), -std::sin(half), 0.0);
      p.push_back(origin);
      for (int k = 0; k < segments; ++k) p.push_back(p.back() + (k % 2 ? b : a));
      break;
    }
    case ChainFamily::Helix: {
      const Real turn = uniform(rng, 0.4, 1.2);    // angle per segment
      const Real pitch = uniform(rng, 0.05, 0.5);  // rise per segment
      // Chord of a circle of radius R over `turn`: 2 R sin(turn/2); with the rise, length 1.
      const Real chord = std::sqrt(std::max(1.0 - pitch * pitch, 0.01));
      const Real radius = chord / (2.0 * std::sin(0.5 * turn));
      for (int k = 0; k <= segments; ++k)
        p.push_back(origin +
                    Vec3(radius * std::cos(k * turn), pitch * k, radius * std::sin(k * turn)));
      break;
    }
  }
  return p;
}

/// Least gap over pairs (i, j), j - i >= 2, by the all-pairs loop.
inline Real bruteMinGap(const std::vector<Vec3>& p, Real radius) {
  Real best = 1e300;
  const int n = static_cast<int>(p.size()) - 1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j)
      best = std::min(best, segmentDistance(p[i], p[i + 1], p[j], p[j + 1]) - 2.0 * radius);
  return best;
}

}  // namespace tumble::test
