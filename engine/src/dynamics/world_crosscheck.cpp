// The LP verdict (Kreuzer's vertex LP, lp.h) beside GJK for world pairs. A pair counts as a
// disagreement only outside the tolerance band of crosscheck.h (the same rule as
// `tumble-cli collide`): GJK distances or EPA depths inside it are ties, not errors.
#include "dynamics/world_crosscheck.h"

#include <cmath>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "tumble/crosscheck.h"
#include "tumble/lp.h"

namespace tumble {
namespace {

// SplitMix64 (Steele et al. 2014): a fixed hash of the pair's sequence number, so sampling is
// deterministic and independent of timing.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

nlohmann::json worldPoints(const Body& b) {
  const Transform xf = b.transform();
  nlohmann::json pts = nlohmann::json::array();
  for (const Vec3& v : b.shape->vertices()) {
    const Vec3 p = xf.apply(v);
    pts.push_back({p.x, p.y, p.z});
  }
  return pts;
}

}  // namespace

void crossCheckPair(const Body& a, const Body& b, const Settings& s, const Manifold& m,
                    uint64_t sequence, const std::string& logPath, int64_t& checked,
                    int64_t& disagreed, int64_t& pivots) {
  if (s.crosscheck == CrossCheckMode::Off) return;
  if (s.crosscheck == CrossCheckMode::Sample) {
    const Real u = static_cast<Real>(mix(sequence) >> 11) * (1.0 / 9007199254740992.0);
    if (!(u < s.crosscheckSampleRate)) return;
  }
  const LpResult lp =
      lpIntersect(a.shape->vertices(), a.transform(), b.shape->vertices(), b.transform(), s.lp);
  ++checked;
  pivots += lp.pivots;
  const Real tie = crossCheckBand(lp.scale, s);
  bool disagree = false;
  if (lp.intersect && !m.overlapping) disagree = m.distance > tie;
  if (!lp.intersect && m.overlapping) disagree = -m.distance > tie;
  if (!disagree) return;
  ++disagreed;
  if (logPath.empty()) return;
  nlohmann::json line;
  line["id"] = "b" + std::to_string(m.a.index) + "-b" + std::to_string(m.b.index) + "-s" +
               std::to_string(sequence);
  line["a"] = worldPoints(a);
  line["b"] = worldPoints(b);
  std::ofstream out(logPath, std::ios::app);
  out << line.dump() << "\n";
}

}  // namespace tumble
