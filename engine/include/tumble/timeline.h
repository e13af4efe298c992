#pragma once
/// A recording of a World's steps that can put the world back at any recorded step: the demo's
/// rewind and scrub bar, a game's rollback. It keeps snapshots (snapshot.h) as keyframes, one
/// every `keyframeInterval` steps and one after every step the world was edited before (a body
/// created, a drag moved, a setting changed: World::editCount), and for every step its dt and
/// state hash. A step between keyframes is reached by restoring the keyframe before it and
/// replaying the steps in between, which gives the same bits (snapshots are exact and the step is
/// deterministic; the recorded hashes check it). Memory is bounded: when the keyframes' bytes pass
/// the budget, the oldest keyframe and the steps that only it reaches are dropped.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble {

class World;

struct TimelineSettings {
  /// Bytes held at most (bytes(): keyframes, the whole copy of the last one that deltas are
  /// taken against, and 16 per step); the latest keyframe is kept whatever its size.
  size_t budgetBytes = size_t{256} << 20;
  /// A keyframe at least every this many steps (>= 1): seeking replays fewer steps than this.
  int keyframeInterval = 30;
};

class Timeline {
 public:
  explicit Timeline(const TimelineSettings& settings = {}) : settings_(settings) {}

  /// Call after every step of `world`, with the dt it took. A step that does not follow the last
  /// recorded one (the world was stepped from an earlier recorded state after seek(), or replaced)
  /// drops the recording after the step before it (the future is recomputed) or, when nothing
  /// recorded leads to it, starts a new recording.
  void record(const World& world, Real dt);
  /// Forgets every step (a new scene).
  void clear();

  bool empty() const { return steps_.empty(); }
  /// The recorded steps, as World::stepCount() after each: [firstStep(), lastStep()].
  int64_t firstStep() const { return first_; }
  int64_t lastStep() const { return first_ + static_cast<int64_t>(steps_.size()) - 1; }
  /// The state hash recorded after `step`; nothing outside the range.
  std::optional<uint64_t> hashAt(int64_t step) const;

  /// Puts `world` in its recorded state after `step`: restores the nearest keyframe at or before
  /// it and replays the steps between (at most keyframeInterval - 1). Fails, naming the step and
  /// the range, outside [firstStep(), lastStep()], and when a replayed step's hash differs from
  /// the recorded one (then `world` holds the replayed state: the determinism is broken). The
  /// steps after `step` stay recorded until a step is recorded from here.
  Expected<void> seek(World& world, int64_t step);

  /// Bytes held: keyframes (as stored: deltas are small) plus the per-step records.
  size_t bytes() const;
  int keyframeCount() const { return static_cast<int>(keyframes_.size()); }
  const TimelineSettings& settings() const { return settings_; }
  void setSettings(const TimelineSettings& settings);

 private:
  // A keyframe is a whole snapshot, or (`delta`) the bytes that differ from the keyframe before
  // it, which has the same size: runs of (u32 gap, u32 length, length new bytes). A world at
  // rest changes a few counters between keyframes, so its keyframes cost almost nothing.
  struct Keyframe {
    int64_t step = 0;
    bool delta = false;
    std::vector<uint8_t> bytes;
    size_t size = 0;  // of the whole snapshot
  };
  std::vector<uint8_t> snapshotAt(size_t keyframe) const;
  struct StepRecord {
    Real dt = 0.0;
    uint64_t hash = 0;
  };
  void dropAfter(int64_t step);
  void trim();

  TimelineSettings settings_;
  std::deque<Keyframe> keyframes_;  // ascending steps; the first is at first_ and whole
  std::vector<uint8_t> last_;       // the last keyframe's whole snapshot (deltas are against it)
  std::deque<StepRecord> steps_;    // steps_[k] is step first_ + k
  int64_t first_ = 0;
  size_t keyframeBytes_ = 0;
  uint64_t lastEdits_ = 0;        // World::editCount() after the last record or seek
  const World* world_ = nullptr;  // the world recorded (another one starts a new recording)
};

}  // namespace tumble
