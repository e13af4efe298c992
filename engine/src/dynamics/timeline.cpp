// Timeline (timeline.h): keyframes plus replay.
#include "tumble/timeline.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "tumble/snapshot.h"
#include "tumble/world.h"

namespace tumble {
namespace {

// The runs where `next` differs from `base` (same size); empty when it would not save a quarter.
std::vector<uint8_t> encodeDelta(const std::vector<uint8_t>& base,
                                 const std::vector<uint8_t>& next) {
  std::vector<uint8_t> out;
  const size_t n = next.size(), limit = n - n / 4;
  auto put32 = [&](uint32_t v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + 4);
  };
  size_t i = 0, last = 0;
  while (i < n) {
    if (base[i] == next[i]) {
      ++i;
      continue;
    }
    // A run ends at 8 equal bytes in a row (a shorter gap costs less kept than split).
    size_t end = i + 1, same = 0;
    while (end < n && same < 8) same = base[end] == next[end] ? same + 1 : 0, ++end;
    end -= same;
    put32(static_cast<uint32_t>(i - last));
    put32(static_cast<uint32_t>(end - i));
    out.insert(out.end(), next.begin() + static_cast<std::ptrdiff_t>(i),
               next.begin() + static_cast<std::ptrdiff_t>(end));
    if (out.size() > limit) return {};
    last = i = end;
  }
  if (out.empty()) put32(0), put32(0);  // nothing changed: one empty run
  return out;
}

void applyDelta(std::vector<uint8_t>& bytes, const std::vector<uint8_t>& delta) {
  size_t at = 0;
  for (size_t k = 0; k + 8 <= delta.size();) {
    uint32_t gap = 0, length = 0;
    std::memcpy(&gap, delta.data() + k, 4);
    std::memcpy(&length, delta.data() + k + 4, 4);
    k += 8;
    at += gap;
    std::memcpy(bytes.data() + at, delta.data() + k, length);
    k += length;
    at += length;
  }
}

}  // namespace

void Timeline::clear() {
  keyframes_.clear();
  last_.clear();
  steps_.clear();
  first_ = 0;
  keyframeBytes_ = 0;
  world_ = nullptr;
}

void Timeline::setSettings(const TimelineSettings& settings) {
  settings_ = settings;
  settings_.keyframeInterval = std::max(1, settings_.keyframeInterval);
  trim();
}

std::optional<uint64_t> Timeline::hashAt(int64_t step) const {
  if (steps_.empty() || step < first_ || step > lastStep()) return std::nullopt;
  return steps_[static_cast<size_t>(step - first_)].hash;
}

size_t Timeline::bytes() const {
  return keyframeBytes_ + last_.size() + steps_.size() * sizeof(StepRecord);
}

// The whole snapshot of keyframe k: the last whole one at or before it, with the deltas after it.
std::vector<uint8_t> Timeline::snapshotAt(size_t k) const {
  size_t whole = k;
  while (keyframes_[whole].delta) --whole;
  std::vector<uint8_t> bytes = keyframes_[whole].bytes;
  for (size_t j = whole + 1; j <= k; ++j) applyDelta(bytes, keyframes_[j].bytes);
  return bytes;
}

void Timeline::dropAfter(int64_t step) {
  bool dropped = false;
  while (!keyframes_.empty() && keyframes_.back().step > step) {
    keyframeBytes_ -= keyframes_.back().bytes.size();
    keyframes_.pop_back();
    dropped = true;
  }
  if (dropped && !keyframes_.empty()) last_ = snapshotAt(keyframes_.size() - 1);
  while (!steps_.empty() && lastStep() > step) steps_.pop_back();
}

void Timeline::trim() {
  // The oldest keyframe goes with the steps before the next one (only it could reach them); the
  // next one is made whole if it was a delta against it.
  while (keyframes_.size() > 1 && bytes() > settings_.budgetBytes) {
    if (keyframes_[1].delta) {
      std::vector<uint8_t> whole = snapshotAt(1);
      keyframeBytes_ += whole.size() - keyframes_[1].bytes.size();
      keyframes_[1].bytes = std::move(whole);
      keyframes_[1].delta = false;
    }
    keyframeBytes_ -= keyframes_.front().bytes.size();
    keyframes_.pop_front();
    const int64_t next = keyframes_.front().step;
    while (first_ < next) steps_.pop_front(), ++first_;
  }
}

void Timeline::record(const World& world, Real dt) {
  const int64_t step = world.stepCount();
  const bool follows =
      !steps_.empty() && world_ == &world && step >= first_ + 1 && step <= lastStep() + 1;
  if (!follows) {
    clear();
  } else if (step <= lastStep()) {
    dropAfter(step - 1);  // stepped again from an earlier state: a new future
  }
  world_ = &world;
  const bool edited = world.editCount() != lastEdits_;
  const bool due =
      keyframes_.empty() || step - keyframes_.back().step >= settings_.keyframeInterval;
  if (steps_.empty()) first_ = step;
  steps_.push_back({dt, world.stateHash()});
  if (edited || due) {
    std::vector<uint8_t> bytes = saveSnapshot(world);
    Keyframe& k = keyframes_.emplace_back();
    k.step = step;
    k.size = bytes.size();
    // Every 16th keyframe is whole, so that a seek applies at most 15 deltas.
    size_t chain = 0;
    for (size_t j = keyframes_.size() - 1; j > 0 && keyframes_[j - 1].delta; --j) ++chain;
    if (keyframes_.size() > 1 && last_.size() == bytes.size() && chain < 15) {
      k.bytes = encodeDelta(last_, bytes);
      k.delta = !k.bytes.empty();
    }
    if (!k.delta) k.bytes = bytes;
    keyframeBytes_ += k.bytes.size();
    last_ = std::move(bytes);
  }
  lastEdits_ = world.editCount();
  trim();
}

Expected<void> Timeline::seek(World& world, int64_t step) {
  if (steps_.empty() || step < first_ || step > lastStep())
    return Expected<void>::failure(
        "Timeline::seek: step " + std::to_string(step) + " is not recorded" +
        (steps_.empty() ? std::string(" (nothing is)")
                        : " (recorded: " + std::to_string(first_) + " to " +
                              std::to_string(lastStep()) + ")"));
  // The last keyframe at or before `step` (the first keyframe is at first_).
  auto k = std::upper_bound(keyframes_.begin(), keyframes_.end(), step,
                            [](int64_t s, const Keyframe& f) { return s < f.step; });
  --k;
  const std::vector<uint8_t> bytes = snapshotAt(static_cast<size_t>(k - keyframes_.begin()));
  if (Expected<void> restored = restoreSnapshot(world, bytes); !restored) return restored;
  for (int64_t s = k->step + 1; s <= step; ++s) {
    const StepRecord& r = steps_[static_cast<size_t>(s - first_)];
    if (Expected<void> stepped = world.step(r.dt); !stepped) return stepped;
    if (world.stateHash() != r.hash) {
      char message[200];
      std::snprintf(message, sizeof message,
                    "Timeline::seek: step %lld replayed from the keyframe at step %lld has hash "
                    "%016llx, recorded %016llx (the step is not deterministic)",
                    static_cast<long long>(s), static_cast<long long>(k->step),
                    static_cast<unsigned long long>(world.stateHash()),
                    static_cast<unsigned long long>(r.hash));
      return Expected<void>::failure(message);
    }
  }
  world_ = &world;
  lastEdits_ = world.editCount();
  return ok();
}

}  // namespace tumble
