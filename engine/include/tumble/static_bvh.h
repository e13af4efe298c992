#pragma once
/// A bounding volume hierarchy built once over fixed boxes (a compound's children; a mesh's
/// triangles): binary, split at the median of the longest axis of the boxes' centres, stored as
/// one array. Queries are const and keep their stack on the call's own frame, so one tree may be
/// shared by bodies and threads. The dynamic AabbTree (aabb_tree.h) is for moving proxies.

#include <span>
#include <vector>

#include "tumble/aabb.h"

namespace tumble {

class StaticBvh {
 public:
  StaticBvh() = default;
  /// Builds the tree over `boxes`; leaf i is boxes[i]. Deterministic: the same boxes give the same
  /// tree.
  explicit StaticBvh(std::span<const Aabb> boxes);

  /// Calls `visit(i)` for every box i overlapping `box`, in a fixed order (the tree's, depth
  /// first).
  template <class Visit>
  void query(const Aabb& box, Visit&& visit) const;

  /// The union of all boxes (an empty tree: a default Aabb).
  Aabb bounds() const { return nodes_.empty() ? Aabb{} : nodes_[0].box; }
  int leafCount() const { return leaves_; }
  int nodeCount() const { return static_cast<int>(nodes_.size()); }
  /// Depth of the deepest leaf (0 for a single leaf, -1 when empty).
  int height() const { return height_; }

  struct Node {
    Aabb box;
    int left = -1;   ///< child node, or -1 in a leaf
    int right = -1;  ///< child node, or the leaf's box index when left is -1
  };
  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  int build(std::vector<int>& order, int begin, int end, std::span<const Aabb> boxes, int depth);

  std::vector<Node> nodes_;
  int leaves_ = 0;
  int height_ = -1;
};

template <class Visit>
void StaticBvh::query(const Aabb& box, Visit&& visit) const {
  if (nodes_.empty()) return;
  // The median split keeps the depth near log2(n): 64 entries hold any tree below 2^60 leaves.
  int stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (!n.box.overlaps(box)) continue;
    if (n.left < 0) {
      visit(n.right);
      continue;
    }
    stack[top++] = n.right;
    stack[top++] = n.left;
  }
}

}  // namespace tumble
