// Dynamic AABB tree: insertion picks the sibling by the surface-area heuristic, and the ancestors
// are refit with tree rotations on the way up. Sources: Catto, "Dynamic Bounding Volume
// Hierarchies" (GDC 2019); Kopta et al. 2012, "Fast, effective BVH updates for animated scenes"
// (tree rotations); Bittner et al. 2013 (branch-and-bound insertion cost).
#include "tumble/aabb_tree.h"

#include <algorithm>
#include <cassert>

namespace tumble {

int AabbTree::allocateNode() {
  if (freeList_ == kNull) {
    nodes_.push_back(Node{});
    return static_cast<int>(nodes_.size()) - 1;
  }
  const int id = freeList_;
  freeList_ = nodes_[id].parent;
  nodes_[id] = Node{};
  return id;
}

void AabbTree::freeNode(int node) {
  nodes_[node].parent = freeList_;
  nodes_[node].height = -1;
  nodes_[node].child1 = nodes_[node].child2 = kNull;
  freeList_ = node;
}

int AabbTree::createProxy(const Aabb& aabb, Real margin, int userData) {
  const int leaf = allocateNode();
  nodes_[leaf].aabb = aabb.fattened(margin);
  nodes_[leaf].userData = userData;
  nodes_[leaf].height = 0;
  insertLeaf(leaf);
  ++leafCount_;
  return leaf;
}

void AabbTree::destroyProxy(int proxy) {
  assert(isLeaf(proxy));
  removeLeaf(proxy);
  freeNode(proxy);
  --leafCount_;
}

bool AabbTree::moveProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead) {
  if (nodes_[proxy].aabb.contains(aabb)) return false;
  return resetProxy(proxy, aabb, margin, ahead);
}

bool AabbTree::resetProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead) {
  removeLeaf(proxy);
  Aabb fat = aabb.fattened(margin);
  for (int k = 0; k < 3; ++k) (ahead[k] < 0.0 ? fat.lower[k] : fat.upper[k]) += ahead[k];
  nodes_[proxy].aabb = fat;
  insertLeaf(proxy);
  return true;
}

// Greedy descent on the surface-area heuristic: at each internal node compare the cost of pairing
// with the node itself (its new parent's area plus the growth of every ancestor) with a lower bound
// of the cost below each child, and go down the cheaper child while that bound can still win.
// Catto 2019 ("Dynamic BVH", branch and bound made greedy, as in Box2D v3); Bittner et al. 2013.
int AabbTree::findBestSibling(const Aabb& box) const {
  const Real boxArea = box.area();
  int best = root_;
  Real bestCost = merge(nodes_[root_].aabb, box).area();
  Real inherited = 0.0;  // area growth of the ancestors of `node` if the leaf goes below it
  int node = root_;
  while (nodes_[node].child1 != kNull) {
    const Node& n = nodes_[node];
    const Real direct = merge(n.aabb, box).area();
    const Real cost = direct + inherited;
    if (cost < bestCost) {
      bestCost = cost;
      best = node;
    }
    inherited += direct - n.aabb.area();
    Real lower[2];
    const int child[2] = {n.child1, n.child2};
    for (int k = 0; k < 2; ++k) {
      const Node& c = nodes_[child[k]];
      const Real d = merge(c.aabb, box).area();
      if (c.child1 == kNull) {
        lower[k] = d + inherited;  // exact: a leaf can only become the sibling itself
        if (lower[k] < bestCost) {
          bestCost = lower[k];
          best = child[k];
        }
      } else {
        // Below an internal child the leaf pays at least its own area plus the child's growth.
        lower[k] = inherited + (d - c.aabb.area()) + std::min(boxArea, d);
      }
    }
    const bool leaf1 = nodes_[n.child1].child1 == kNull, leaf2 = nodes_[n.child2].child1 == kNull;
    if (leaf1 && leaf2) break;
    if (lower[0] <= lower[1] && !leaf1 && lower[0] < bestCost) {
      node = n.child1;
    } else if (!leaf2 && lower[1] < bestCost) {
      node = n.child2;
    } else if (!leaf1 && lower[0] < bestCost) {
      node = n.child1;
    } else {
      break;
    }
  }
  return best;
}

void AabbTree::insertLeaf(int leaf) {
  if (root_ == kNull) {
    root_ = leaf;
    nodes_[leaf].parent = kNull;
    return;
  }
  const Aabb box = nodes_[leaf].aabb;
  const int sibling = findBestSibling(box);
  const int oldParent = nodes_[sibling].parent;
  const int parent = allocateNode();
  nodes_[parent].parent = oldParent;
  nodes_[parent].aabb = merge(box, nodes_[sibling].aabb);
  nodes_[parent].height = nodes_[sibling].height + 1;
  nodes_[parent].child1 = sibling;
  nodes_[parent].child2 = leaf;
  nodes_[sibling].parent = parent;
  nodes_[leaf].parent = parent;
  if (oldParent == kNull) {
    root_ = parent;
  } else if (nodes_[oldParent].child1 == sibling) {
    nodes_[oldParent].child1 = parent;
  } else {
    nodes_[oldParent].child2 = parent;
  }
  // Refit the ancestors, rotating where a rotation lowers the area.
  for (int i = nodes_[leaf].parent; i != kNull; i = nodes_[i].parent) {
    Node& n = nodes_[i];
    n.aabb = merge(nodes_[n.child1].aabb, nodes_[n.child2].aabb);
    n.height = 1 + std::max(nodes_[n.child1].height, nodes_[n.child2].height);
    rotate(i);
  }
}

void AabbTree::removeLeaf(int leaf) {
  if (leaf == root_) {
    root_ = kNull;
    return;
  }
  const int parent = nodes_[leaf].parent;
  const int grand = nodes_[parent].parent;
  const int sibling = nodes_[parent].child1 == leaf ? nodes_[parent].child2 : nodes_[parent].child1;
  if (grand == kNull) {
    root_ = sibling;
    nodes_[sibling].parent = kNull;
    freeNode(parent);
    return;
  }
  if (nodes_[grand].child1 == parent) {
    nodes_[grand].child1 = sibling;
  } else {
    nodes_[grand].child2 = sibling;
  }
  nodes_[sibling].parent = grand;
  freeNode(parent);
  // Refit the ancestors (their boxes can only shrink), up to the first that keeps its box and
  // height: those above it are unchanged too. No rotations here (as Box2D v3's removal): a moved
  // leaf is inserted again at once, and the insertion's rotations cover its whole path; the
  // removal's were half of the sphere heap's rotations for no measurable gain in the tree.
  for (int i = grand; i != kNull; i = nodes_[i].parent) {
    Node& n = nodes_[i];
    const Aabb box = merge(nodes_[n.child1].aabb, nodes_[n.child2].aabb);
    const int height = 1 + std::max(nodes_[n.child1].height, nodes_[n.child2].height);
    if (box.lower == n.aabb.lower && box.upper == n.aabb.upper && height == n.height) break;
    n.aabb = box;
    n.height = height;
  }
}

// Tree rotation at node A with children B and C: swap one child with a grandchild on the other
// side when that shrinks the area of the internal node that changes (Catto 2019, "rotations").
// Candidates: B<->F, B<->G (C's children), C<->D, C<->E (B's children).
void AabbTree::rotate(int a) {
  Node& na = nodes_[a];
  const int b = na.child1, c = na.child2;
  if (nodes_[b].height < 1 && nodes_[c].height < 1) return;
  enum Kind { None, BF, BG, CD, CE } kind = None;
  Real bestGain = 0.0;
  if (nodes_[c].height > 0) {
    const int f = nodes_[c].child1, g = nodes_[c].child2;
    const Real areaC = nodes_[c].aabb.area();
    const Real costBF = merge(nodes_[b].aabb, nodes_[g].aabb).area();  // C becomes {B, G}
    const Real costBG = merge(nodes_[b].aabb, nodes_[f].aabb).area();  // C becomes {F, B}
    if (areaC - costBF > bestGain) bestGain = areaC - costBF, kind = BF;
    if (areaC - costBG > bestGain) bestGain = areaC - costBG, kind = BG;
  }
  if (nodes_[b].height > 0) {
    const int d = nodes_[b].child1, e = nodes_[b].child2;
    const Real areaB = nodes_[b].aabb.area();
    const Real costCD = merge(nodes_[c].aabb, nodes_[e].aabb).area();  // B becomes {C, E}
    const Real costCE = merge(nodes_[c].aabb, nodes_[d].aabb).area();  // B becomes {D, C}
    if (areaB - costCD > bestGain) bestGain = areaB - costCD, kind = CD;
    if (areaB - costCE > bestGain) bestGain = areaB - costCE, kind = CE;
  }
  if (kind == None) return;
  // Swap child `x` of A with child slot `slot` (1 or 2) of the other child `y`.
  auto swapInto = [&](int x, int y, int slot, bool xIsChild1) {
    Node& ny = nodes_[y];
    const int z = slot == 1 ? ny.child1 : ny.child2;
    if (xIsChild1) {
      nodes_[a].child1 = z;
    } else {
      nodes_[a].child2 = z;
    }
    nodes_[z].parent = a;
    if (slot == 1) {
      ny.child1 = x;
    } else {
      ny.child2 = x;
    }
    nodes_[x].parent = y;
    ny.aabb = merge(nodes_[ny.child1].aabb, nodes_[ny.child2].aabb);
    ny.height = 1 + std::max(nodes_[ny.child1].height, nodes_[ny.child2].height);
    nodes_[a].height =
        1 + std::max(nodes_[nodes_[a].child1].height, nodes_[nodes_[a].child2].height);
  };
  switch (kind) {
    case BF:
      swapInto(b, c, 1, true);
      break;  // B takes F's place under C; F under A
    case BG:
      swapInto(b, c, 2, true);
      break;
    case CD:
      swapInto(c, b, 1, false);
      break;
    case CE:
      swapInto(c, b, 2, false);
      break;
    case None:
      break;
  }
}

std::vector<ProxyPair> AabbTree::allOverlappingPairs() const {
  std::vector<ProxyPair> out;
  for (int i = 0; i < static_cast<int>(nodes_.size()); ++i) {
    if (nodes_[i].height != 0) continue;
    query(nodes_[i].aabb, [&](int j) {
      if (j > i) out.push_back({i, j});
      return true;
    });
  }
  std::sort(out.begin(), out.end());
  return out;
}

Real AabbTree::areaRatio() const {
  if (root_ == kNull) return 0.0;
  const Real rootArea = nodes_[root_].aabb.area();
  if (!(rootArea > 0.0)) return 0.0;
  Real total = 0.0;
  for (const Node& n : nodes_)
    if (n.height > 0) total += n.aabb.area();
  return total / rootArea;
}

const char* AabbTree::validate() const {
  if (root_ == kNull) return leafCount_ == 0 ? "" : "empty root with leaves";
  if (nodes_[root_].parent != kNull) return "root has a parent";
  return validateNode(root_);
}

const char* AabbTree::validateNode(int id) const {
  const Node& n = nodes_[id];
  if (n.child1 == kNull) return n.height == 0 ? "" : "leaf height not 0";
  const Node& c1 = nodes_[n.child1];
  const Node& c2 = nodes_[n.child2];
  if (c1.parent != id || c2.parent != id) return "child's parent link is wrong";
  if (n.height != 1 + std::max(c1.height, c2.height)) return "height is wrong";
  if (!n.aabb.contains(c1.aabb) || !n.aabb.contains(c2.aabb)) return "box does not enclose child";
  if (const char* e = validateNode(n.child1); *e) return e;
  return validateNode(n.child2);
}

int BroadPhase::createProxy(const Aabb& aabb, Real margin, int userData) {
  const int id = tree_.createProxy(aabb, margin, userData);
  markMoved(id);
  return id;
}

void BroadPhase::destroyProxy(int proxy) {
  tree_.destroyProxy(proxy);
  std::erase_if(pairs_, [&](const ProxyPair& p) { return p.first == proxy || p.second == proxy; });
  if (proxy < static_cast<int>(isMoved_.size()) && isMoved_[proxy]) {
    isMoved_[proxy] = 0;
    std::erase(moved_, proxy);
  }
}

bool BroadPhase::moveProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead) {
  if (!tree_.moveProxy(proxy, aabb, margin, ahead)) return false;
  markMoved(proxy);
  return true;
}

void BroadPhase::resetProxy(int proxy, const Aabb& aabb, Real margin) {
  tree_.resetProxy(proxy, aabb, margin);
  markMoved(proxy);
}

void BroadPhase::markMoved(int proxy) {
  if (proxy >= static_cast<int>(isMoved_.size())) isMoved_.resize(proxy + 1, 0);
  if (isMoved_[proxy]) return;
  isMoved_[proxy] = 1;
  moved_.push_back(proxy);
}

void BroadPhase::mergeNewPairs() {
  if (scratch_.empty()) return;
  std::sort(scratch_.begin(), scratch_.end());
  merged_.clear();
  merged_.reserve(pairs_.size() + scratch_.size());
  std::set_union(pairs_.begin(), pairs_.end(), scratch_.begin(), scratch_.end(),
                 std::back_inserter(merged_));
  merged_.erase(std::unique(merged_.begin(), merged_.end()), merged_.end());
  pairs_.swap(merged_);
}

}  // namespace tumble
