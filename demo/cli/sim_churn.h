#pragma once
// `tumble-cli sim --churn SEED` (issue 7's long run): bodies added and removed and settings changed
// at random with a fixed seed while a scene runs, and the process's memory for the report.
#include <cstdint>
#include <random>
#include <vector>

#include "tumble/scene.h"
#include "tumble/world.h"

namespace tumble::cli {

/// Random edits of a running world, the same for the same seed and scene.
/// Every simulated second (1 / dt steps): removes 1 to 5 random dynamic bodies and adds as many
/// copies of the scene's dynamic bodies, dropped from 5 to 7 m over [-3, 3]^2 with a random
/// orientation; every 10 s: sets one of a list of keys (solver iterations, contact and sleep
/// parameters, warm starting, sleeping, cross-check off/sample) to a random value in a sensible
/// part of its range, so that the run stays a pile rather than a stress test of one setting.
class Churn {
 public:
  Churn(uint64_t seed, const Scene& scene);
  /// Applies the edits due before step `step` (0-based). Returns an error if an edit fails.
  Expected<void> apply(World& world, long step);

  long added() const { return added_; }
  long removed() const { return removed_; }
  long settingsChanged() const { return settingsChanged_; }

 private:
  Real uniform(Real lo, Real hi);
  std::mt19937_64 rng_;
  std::vector<BodyDef> templates_;
  long stepsPerSecond_ = 60;
  long added_ = 0;
  long removed_ = 0;
  long settingsChanged_ = 0;
};

/// Resident set size of this process now, in KiB (/proc/self/statm); 0 when unknown.
long currentRssKb();
/// Peak resident set size of this process, in KiB (getrusage, at least the current RSS).
long peakRssKb();

}  // namespace tumble::cli
