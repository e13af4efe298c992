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

// The two cores a run checks and their poses (a triangle's points live in `tri`: not copied).
struct Cores {
  Vec3 triA[3], triB[3];
  SupportShape a, b;
  Transform xa, xb;

  Cores(const Body& bodyA, const Body& bodyB, const CrossCheckRun& run) {
    if (!run.children) {
      a = bodyA.support, xa = bodyA.transform();
      b = bodyB.support, xb = bodyB.transform();
      return;
    }
    childCore(bodyA.shape, bodyA.transform(), static_cast<uint32_t>(run.key >> 32), triA, a, xa);
    childCore(bodyB.shape, bodyB.transform(), static_cast<uint32_t>(run.key & 0xFFFFFFFFu), triB, b,
              xb);
  }
  Cores(const Cores&) = delete;
  Cores& operator=(const Cores&) = delete;
};

std::string pairId(const CrossCheckRun& run) {
  if (!run.children)
    return "b" + std::to_string(run.indexA) + "-b" + std::to_string(run.indexB) + "-s" +
           std::to_string(run.sequence);
  return "b" + std::to_string(run.indexA) + "c" + std::to_string(run.key >> 32) + "-b" +
         std::to_string(run.indexB) + "c" + std::to_string(run.key & 0xFFFFFFFFu) + "-s" +
         std::to_string(run.sequence);
}

// Run and record in one, as the 1-thread narrow phase calls it.
void checkNow(const Body& a, const Body& b, CrossCheckRun run, const Settings& s,
              const std::string& logPath, int64_t& checked, int64_t& disagreed, int64_t& pivots) {
  if (!crossCheckSampled(s, run.sequence)) return;
  crossCheckRun(a, b, run, s);
  crossCheckRecord(a, b, run, logPath, checked, disagreed, pivots);
}

}  // namespace

bool crossCheckSampled(const Settings& s, uint64_t sequence) {
  if (s.crosscheck == CrossCheckMode::Off) return false;
  if (s.crosscheck == CrossCheckMode::Sample) {
    const Real u = static_cast<Real>(mix(sequence) >> 11) * (1.0 / 9007199254740992.0);
    if (!(u < s.crosscheckSampleRate)) return false;
  }
  return true;
}

void crossCheckRun(const Body& a, const Body& b, CrossCheckRun& run, const Settings& s) {
  const Cores c(a, b, run);
  // The LP test takes point sets: a cylinder is none (it would test the points it samples).
  run.skipped = c.a.cylinder != nullptr || c.b.cylinder != nullptr;
  if (!run.skipped) run.result = crossCheck(c.a, c.xa, c.b, c.xb, s);
}

void crossCheckRecord(const Body& a, const Body& b, const CrossCheckRun& run,
                      const std::string& logPath, int64_t& checked, int64_t& disagreed,
                      int64_t& pivots) {
  if (run.skipped) return;
  ++checked;
  pivots += run.result.lp.pivots;
  if (run.result.agree) return;
  ++disagreed;
  if (logPath.empty()) return;
  // Opened in append mode for this line and flushed (CrossCheckLog): a crash loses no earlier line.
  const Cores c(a, b, run);
  CrossCheckLog log(logPath);
  log.record(pairId(run), c.a, c.xa, c.b, c.xb, run.result);
}

void crossCheckPair(const Body& a, const Body& b, int indexA, int indexB, const Settings& s,
                    uint64_t sequence, const std::string& logPath, int64_t& checked,
                    int64_t& disagreed, int64_t& pivots) {
  CrossCheckRun run;
  run.indexA = indexA, run.indexB = indexB, run.sequence = sequence;
  checkNow(a, b, run, s, logPath, checked, disagreed, pivots);
}

void crossCheckChildren(const Body& a, const Body& b, uint64_t key, int indexA, int indexB,
                        const Settings& s, uint64_t sequence, const std::string& logPath,
                        int64_t& checked, int64_t& disagreed, int64_t& pivots) {
  CrossCheckRun run;
  run.indexA = indexA, run.indexB = indexB, run.children = true, run.key = key;
  run.sequence = sequence;
  checkNow(a, b, run, s, logPath, checked, disagreed, pivots);
}

}  // namespace tumble
