#pragma once
// Internal: graph colouring of the constraints (Box2D v3's constraint graph, rebuilt each step).
// A colour holds constraints that share no dynamic body, so the constraints of one colour can be
// solved at once: four to a SIMD row (contact_solver.cpp) or split across threads, with the same
// result in any order. Static, kinematic and sleeping bodies are not coloured (the solver never
// changes their velocity), so any number of a colour's constraints may touch the ground.
// Constraints that find no free colour go to the overflow, solved one at a time.
#include <cstdint>
#include <vector>

namespace tumble {

class ConstraintGraph {
 public:
  static constexpr int kColors = 24;

  /// Colours constraints 0..n-1 in order; constraint i joins bodies bodies[2i] and bodies[2i+1]
  /// (indices below bodyCount); dynamic[k] says whether body k is coloured. A constraint with two
  /// dynamic bodies takes the first colour free for both; one with a single dynamic body starts
  /// from colour 1, which keeps colour 0 for the body-body constraints and mixes the ground's
  /// contacts into the later colours.
  void build(const std::vector<int>& bodies, const std::vector<char>& dynamic, int bodyCount);

  int colorCount() const { return colorCount_; }  ///< colours in use (the last non-empty + 1)
  const std::vector<int>& color(int c) const { return colors_[c]; }
  const std::vector<int>& overflow() const { return overflow_; }
  int overflowCount() const { return static_cast<int>(overflow_.size()); }

 private:
  std::vector<uint32_t> used_;  ///< per body: the colours it is in (bit c for colour c)
  std::vector<int> colors_[kColors];
  std::vector<int> overflow_;
  int colorCount_ = 0;
};

}  // namespace tumble
