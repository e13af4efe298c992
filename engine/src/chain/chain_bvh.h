#pragma once
// Bounding-volume hierarchy over the segments of a chain (internal to src/chain): the
// self-intersection query and the closest pair, instead of the page's all-pairs loop.
#include <optional>
#include <vector>

#include "tumble/chain.h"
#include "tumble/math.h"

namespace tumble::chain_detail {

/// An axis-aligned box.
struct Box {
  Vec3 lo{0.0};
  Vec3 hi{0.0};
};

/// Distance between two boxes (0 when they overlap).
Real boxDistance(const Box& a, const Box& b);

/// A static binary hierarchy of segment boxes, median split on the longest axis, small leaves.
class SegmentBvh {
 public:
  explicit SegmentBvh(const std::vector<Vec3>& points);
  /// Pairs (i < j, j - i >= 2) with distance < limit, in (i, j) order.
  std::vector<SegmentPair> pairsCloserThan(Real limit, Real radius) const;
  /// The pair with the least distance (branch and bound); none when no pair exists.
  std::optional<SegmentPair> closestPair(Real radius) const;

 private:
  struct Node {
    Box box;
    int left = -1;  // children (internal) or -1 (leaf)
    int right = -1;
    int first = 0;  // leaf: range in order_
    int count = 0;
  };
  int build(int first, int count);
  void collect(int a, int b, Real limit, std::vector<SegmentPair>& out) const;
  void nearest(int a, int b, Real& best, int& bi, int& bj) const;
  void leafPairs(const Node& na, const Node& nb, bool same, Real limit,
                 std::vector<SegmentPair>& out) const;

  const std::vector<Vec3>& points_;
  std::vector<int> order_;
  std::vector<Box> boxes_;
  std::vector<Node> nodes_;
};

/// Sweep and prune on component 0 of two sets of boxes: pairs (index in a, index in b) whose
/// boxes are within `margin` on every component. Order: sorted by (a, b).
std::vector<std::pair<int, int>> boxPairs(const std::vector<Box>& a, const std::vector<Box>& b,
                                          Real margin);

}  // namespace tumble::chain_detail
