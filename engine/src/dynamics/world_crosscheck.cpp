// The cross-check of crosscheck.h (GJK/EPA beside the vertex LP test, the tolerance band and the
// disagreement log) run on world pairs: the same rule as `tumble-cli collide`, so a saved pair
// replays with the same verdicts.
#include "dynamics/world_crosscheck.h"

#include <string>

#include "tumble/crosscheck.h"

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

}  // namespace

void crossCheckPair(const Body& a, const Body& b, int indexA, int indexB, const Settings& s,
                    uint64_t sequence, const std::string& logPath, int64_t& checked,
                    int64_t& disagreed, int64_t& pivots) {
  if (s.crosscheck == CrossCheckMode::Off) return;
  if (s.crosscheck == CrossCheckMode::Sample) {
    const Real u = static_cast<Real>(mix(sequence) >> 11) * (1.0 / 9007199254740992.0);
    if (!(u < s.crosscheckSampleRate)) return;
  }
  const CrossCheckResult r = crossCheck(a.support, a.transform(), b.support, b.transform(), s);
  ++checked;
  pivots += r.lp.pivots;
  if (r.agree) return;
  ++disagreed;
  if (logPath.empty()) return;
  // Opened in append mode for this line and flushed (CrossCheckLog): a crash loses no earlier line.
  CrossCheckLog log(logPath);
  const std::string id = "b" + std::to_string(indexA) + "-b" + std::to_string(indexB) + "-s" +
                         std::to_string(sequence);
  log.record(id, a.support, a.transform(), b.support, b.transform(), r);
}

}  // namespace tumble
