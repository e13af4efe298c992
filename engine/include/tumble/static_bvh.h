#pragma once
/// A bounding volume hierarchy built once over fixed boxes (a compound's children; a mesh's
/// triangles): binary, split at the median of the longest axis of the boxes' centres, stored as
/// one array. Queries are const and keep their stack on the call's own frame, so one tree may be
/// shared by bodies and threads. The dynamic AabbTree (aabb_tree.h) is for moving proxies.

#include <span>
#include <utility>
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

  /// Calls `visit(i)` for every box i the ray origin + t direction, t in [0, maxT], crosses
  /// (clipped as it goes: `visit` returns the new maxT, at most the one it was given).
  template <class Visit>
  void rayQuery(const Vec3& origin, const Vec3& direction, Real maxT, Visit&& visit) const;

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

// Slab test: does the ray cross `box` within [0, maxT]? (invDir[k] is unused where dir[k] is 0.)
inline bool rayCrossesBox(const Aabb& box, const Vec3& origin, const Vec3& dir, const Vec3& invDir,
                          Real maxT) {
  Real t0 = 0.0, t1 = maxT;
  for (int k = 0; k < 3; ++k) {
    if (dir[k] == 0.0) {
      if (origin[k] < box.lower[k] || origin[k] > box.upper[k]) return false;
      continue;
    }
    Real a = (box.lower[k] - origin[k]) * invDir[k], b = (box.upper[k] - origin[k]) * invDir[k];
    if (a > b) std::swap(a, b);
    if (a > t0) t0 = a;
    if (b < t1) t1 = b;
    if (t0 > t1) return false;
  }
  return true;
}

template <class Visit>
void StaticBvh::rayQuery(const Vec3& origin, const Vec3& direction, Real maxT,
                         Visit&& visit) const {
  if (nodes_.empty()) return;
  Vec3 inv;
  for (int k = 0; k < 3; ++k) inv[k] = direction[k] != 0.0 ? 1.0 / direction[k] : 0.0;
  int stack[64];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (!rayCrossesBox(n.box, origin, direction, inv, maxT)) continue;
    if (n.left < 0) {
      maxT = visit(n.right);
      continue;
    }
    stack[top++] = n.right;
    stack[top++] = n.left;
  }
}

}  // namespace tumble
