// The static BVH: a top-down build, the boxes' centres split at the median of their longest
// extent (nth_element with a total order: the same boxes give the same tree).
#include "tumble/static_bvh.h"

#include <algorithm>

namespace tumble {

StaticBvh::StaticBvh(std::span<const Aabb> boxes) : leaves_(static_cast<int>(boxes.size())) {
  if (boxes.empty()) return;
  std::vector<int> order(boxes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  nodes_.reserve(2 * boxes.size());
  height_ = 0;
  build(order, 0, static_cast<int>(order.size()), boxes, 0);
}

int StaticBvh::build(std::vector<int>& order, int begin, int end, std::span<const Aabb> boxes,
                     int depth) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.emplace_back();
  height_ = std::max(height_, depth);
  if (end - begin == 1) {
    nodes_[index].box = boxes[order[begin]];
    nodes_[index].right = order[begin];
    return index;
  }
  Aabb centres{boxes[order[begin]].center(), boxes[order[begin]].center()};
  for (int i = begin + 1; i < end; ++i) {
    const Vec3 c = boxes[order[i]].center();
    centres.lower = glm::min(centres.lower, c);
    centres.upper = glm::max(centres.upper, c);
  }
  const Vec3 size = centres.upper - centres.lower;
  const int axis = size.x >= size.y && size.x >= size.z ? 0 : (size.y >= size.z ? 1 : 2);
  const int mid = begin + (end - begin) / 2;
  std::nth_element(order.begin() + begin, order.begin() + mid, order.begin() + end,
                   [&](int a, int b) {
                     const Real ca = boxes[a].center()[axis], cb = boxes[b].center()[axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const int left = build(order, begin, mid, boxes, depth + 1);
  const int right = build(order, mid, end, boxes, depth + 1);
  nodes_[index].left = left;
  nodes_[index].right = right;
  nodes_[index].box = merge(nodes_[left].box, nodes_[right].box);
  return index;
}

}  // namespace tumble
