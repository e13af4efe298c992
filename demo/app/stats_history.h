#pragma once
// The last few hundred values of a measured series (frame time, phases of the step, render time),
// kept for ImGui::PlotLines.
#include <algorithm>
#include <array>
#include <cstddef>

namespace tumble::demo {

class History {
 public:
  static constexpr int kSize = 300;  ///< frames kept

  void push(float value) {
    values_[static_cast<size_t>(next_)] = value;
    next_ = (next_ + 1) % kSize;
    count_ = std::min(count_ + 1, kSize);
  }
  /// The stored values, oldest first, starting at `offset()` in data() (PlotLines' values_offset).
  const float* data() const { return values_.data(); }
  int size() const { return count_ < kSize ? count_ : kSize; }
  int offset() const { return count_ < kSize ? 0 : next_; }
  float last() const {
    return count_ == 0 ? 0.0f : values_[static_cast<size_t>((next_ + kSize - 1) % kSize)];
  }
  float mean() const {
    float sum = 0.0f;
    for (int i = 0; i < size(); ++i) sum += values_[static_cast<size_t>(i)];
    return count_ == 0 ? 0.0f : sum / static_cast<float>(size());
  }
  float median() const {
    if (count_ == 0) return 0.0f;
    std::array<float, kSize> copy = values_;
    const auto n = static_cast<std::ptrdiff_t>(size());
    std::nth_element(copy.begin(), copy.begin() + n / 2, copy.begin() + n);
    return copy[static_cast<size_t>(n / 2)];
  }
  float max() const {
    float m = 0.0f;
    for (int i = 0; i < size(); ++i) m = std::max(m, values_[static_cast<size_t>(i)]);
    return m;
  }

 private:
  std::array<float, kSize> values_{};
  int next_ = 0;
  int count_ = 0;
};

}  // namespace tumble::demo
