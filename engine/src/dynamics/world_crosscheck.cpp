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

bool sampled(const Settings& s, uint64_t sequence) {
  if (s.crosscheck == CrossCheckMode::Off) return false;
  if (s.crosscheck == CrossCheckMode::Sample) {
    const Real u = static_cast<Real>(mix(sequence) >> 11) * (1.0 / 9007199254740992.0);
    if (!(u < s.crosscheckSampleRate)) return false;
  }
  return true;
}

void check(const SupportShape& a, const Transform& xa, const SupportShape& b, const Transform& xb,
           const std::string& id, const Settings& s, const std::string& logPath, int64_t& checked,
           int64_t& disagreed, int64_t& pivots) {
  // The LP test takes point sets: a cylinder is none (it would test the points it samples).
  if (a.cylinder != nullptr || b.cylinder != nullptr) return;
  const CrossCheckResult r = crossCheck(a, xa, b, xb, s);
  ++checked;
  pivots += r.lp.pivots;
  if (r.agree) return;
  ++disagreed;
  if (logPath.empty()) return;
  // Opened in append mode for this line and flushed (CrossCheckLog): a crash loses no earlier line.
  CrossCheckLog log(logPath);
  log.record(id, a, xa, b, xb, r);
}

// One child's core and world pose: a compound's child, a mesh's or field's triangle (its three
// world points, kept in `tri`, under the identity), or the convex shape itself (child 0).
void childCore(const Shape& shape, const Transform& x, uint32_t child, Vec3 (&tri)[3],
               SupportShape& core, Transform& pose) {
  if (const Compound* c = shape.compound()) {
    core = c->children[child].shape.support();
    pose = compose(x, c->children[child].local);
    return;
  }
  if (shape.isStaticOnly()) {
    const TriangleRef t =
        shape.mesh() ? shape.mesh()->triangle(child) : shape.heightField()->triangle(child);
    for (int k = 0; k < 3; ++k) tri[k] = x.apply(t.v[k]);
    core = SupportShape{};
    core.points = std::span<const Vec3>(tri, 3);
    pose = Transform{};
    return;
  }
  core = shape.support();
  pose = x;
}

}  // namespace

void crossCheckPair(const Body& a, const Body& b, int indexA, int indexB, const Settings& s,
                    uint64_t sequence, const std::string& logPath, int64_t& checked,
                    int64_t& disagreed, int64_t& pivots) {
  if (!sampled(s, sequence)) return;
  const std::string id = "b" + std::to_string(indexA) + "-b" + std::to_string(indexB) + "-s" +
                         std::to_string(sequence);
  check(a.support, a.transform(), b.support, b.transform(), id, s, logPath, checked, disagreed,
        pivots);
}

void crossCheckChildren(const Body& a, const Body& b, uint64_t key, int indexA, int indexB,
                        const Settings& s, uint64_t sequence, const std::string& logPath,
                        int64_t& checked, int64_t& disagreed, int64_t& pivots) {
  if (!sampled(s, sequence)) return;
  Vec3 triA[3], triB[3];
  SupportShape ca, cb;
  Transform xa, xb;
  childCore(a.shape, a.transform(), static_cast<uint32_t>(key >> 32), triA, ca, xa);
  childCore(b.shape, b.transform(), static_cast<uint32_t>(key & 0xFFFFFFFFu), triB, cb, xb);
  const std::string id = "b" + std::to_string(indexA) + "c" + std::to_string(key >> 32) + "-b" +
                         std::to_string(indexB) + "c" + std::to_string(key & 0xFFFFFFFFu) + "-s" +
                         std::to_string(sequence);
  check(ca, xa, cb, xb, id, s, logPath, checked, disagreed, pivots);
}

}  // namespace tumble
