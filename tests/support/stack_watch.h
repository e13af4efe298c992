#pragma once
// Quality checks for stacks of 1 m boxes (issue 13: Box3D's large_pyramid and many_pyramids),
// shared by tests/bench/bench_pyramid and the unit tests: how far any box moved sideways from where
// it started, whether two boxes ever passed through each other, and how far the top sank.
//
// Pass-through is read from the centres: two 1 m cubes that do not interpenetrate have centres at
// least 1 m apart (whatever their orientations, a cube holds its inscribed ball of radius 0.5), so
// a pair closer than 0.9 m overlaps deeply, far past any contact slop: a box pushed into or through
// its neighbour. The closest pair is found with a uniform grid hash, O(n) per step.
#include <limits>
#include <span>
#include <vector>

#include "tumble/world.h"

namespace tumble::test {

/// The closest pair of `centres` among the pairs closer than `radius`, and how many pairs are
/// closer than `below` (<= radius). Points that are not finite are left out.
struct ClosePairs {
  Real minDistance = std::numeric_limits<Real>::infinity();  ///< infinity when no pair is closer
  int a = -1, b = -1;  ///< indices of the closest pair (a < b), -1 when none
  int below = 0;       ///< pairs closer than `below`
};
ClosePairs closePairs(std::span<const Vec3> centres, Real radius, Real below);

/// What a StackWatch saw, over every step it observed.
struct StackReport {
  int dynamicBodies = 0;
  int steps = 0;  ///< observe() calls
  int lost = 0;   ///< watched bodies no longer alive (removed for a non-finite state)
  /// Largest horizontal (x, z) distance of a box from its start, at the last step and over all.
  Real sideways = 0.0, maxSideways = 0.0;
  BodyId sidewaysBody;         ///< the box farthest sideways at the last step
  int firstSidewaysStep = -1;  ///< first step with a box beyond the sideways limit, -1 never
  /// Closest pair of box centres over all steps: distance, step and the two bodies.
  Real minDistance = std::numeric_limits<Real>::infinity();
  int minStep = -1;
  BodyId minA, minB;
  int pairsBelowMax = 0;    ///< most pairs closer than the pass-through distance in one step
  int firstBelowStep = -1;  ///< first step with such a pair, -1 never
  Real topDrop = 0.0;  ///< largest drop of the boxes that started highest, at the last step (m)
};

/// Follows a World's dynamic bodies from their positions when made. Call observe() after every
/// step.
class StackWatch {
 public:
  /// `passThrough`: centre distance under which a pair counts as passed through (0.9 m for 1 m
  /// cubes); `sidewaysLimit`: the drift whose first crossing is recorded (0.1 m, issue 13).
  explicit StackWatch(const World& world, Real passThrough = 0.9, Real sidewaysLimit = 0.1);

  void observe(const World& world);
  const StackReport& report() const { return report_; }

 private:
  Real passThrough_, sidewaysLimit_;
  std::vector<BodyId> ids_;
  std::vector<Vec3> start_, now_;
  std::vector<int> tops_;
  StackReport report_;
};

}  // namespace tumble::test
