#pragma once
/// A dynamic AABB tree (bounding volume hierarchy) over fat boxes, for the broad-phase and for ray
/// casts. Leaves hold a user index; internal nodes hold the union of their children. Deterministic:
/// the same calls build the same tree.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "tumble/aabb.h"
#include "tumble/task.h"

namespace tumble {

/// A pair of proxy ids with first < second, ordered lexicographically.
struct ProxyPair {
  int first = 0;
  int second = 0;
  friend bool operator==(const ProxyPair&, const ProxyPair&) = default;
  friend auto operator<=>(const ProxyPair&, const ProxyPair&) = default;
};

/// A ray from `origin` along `direction` (not necessarily unit) for t in [0, maxFraction].
struct RayInput {
  Vec3 origin{0.0};
  Vec3 direction{0.0, 0.0, 1.0};
  Real maxFraction = 1.0;
};

class AabbTree {
 public:
  static constexpr int kNull = -1;

  /// Adds a leaf for `aabb` grown by `margin` (metres, >= 0) and returns its proxy id (>= 0).
  /// Ids of destroyed proxies are reused, lowest-first is not promised.
  int createProxy(const Aabb& aabb, Real margin, int userData);

  /// Removes a leaf. Precondition: `proxy` is a live proxy id.
  void destroyProxy(int proxy);

  /// Updates a leaf for a new tight box. When the tight box still lies inside the stored fat box
  /// nothing changes and false is returned; otherwise the leaf is reinserted with a fat box of
  /// `aabb` grown by `margin` and stretched by `ahead` (the motion expected before the next
  /// reinsertion, on the side it points to), and true is returned.
  bool moveProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead = Vec3(0.0));

  /// Replaces the fat box unconditionally (e.g. after a margin change), as moveProxy does when the
  /// tight box left it. Returns true.
  bool resetProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead = Vec3(0.0));

  const Aabb& fatAabb(int proxy) const { return nodes_[proxy].aabb; }
  int userData(int proxy) const { return nodes_[proxy].userData; }
  bool isLeaf(int node) const { return nodes_[node].child1 == kNull; }

  /// Calls `visit(proxy)` for every leaf whose fat box overlaps `aabb`; `visit` returns false to
  /// stop the query early.
  template <class Visit>
  void query(const Aabb& aabb, Visit&& visit) const {
    query(aabb, visit, stack_);
  }
  /// The same with the caller's scratch stack: queries on several threads at once, each with its
  /// own stack, are safe while nothing modifies the tree.
  template <class Visit>
  void query(const Aabb& aabb, Visit&& visit, std::vector<int>& stack) const;

  /// Calls `visit(const RayInput&, proxy)` for every leaf whose fat box the ray (clipped to the
  /// current max fraction) crosses. `visit` returns the new max fraction: 0 ends the cast, a value
  /// in (0, current) clips the ray, the current value goes on unchanged.
  template <class Visit>
  void rayCast(const RayInput& input, Visit&& visit) const;

  /// Every pair of leaves whose fat boxes overlap, each pair once with first < second, sorted.
  /// O(n log n) descent of the tree against itself.
  std::vector<ProxyPair> allOverlappingPairs() const;

  int root() const { return root_; }
  int proxyCount() const { return leafCount_; }
  /// Height of the tree (0 for a single leaf, -1 when empty).
  int height() const { return root_ == kNull ? -1 : nodes_[root_].height; }
  /// Sum of the internal nodes' surface areas divided by the root's (lower is better).
  Real areaRatio() const;
  /// Checks parent links, heights, and that every internal box encloses its children.
  /// Returns an empty string when sound, else what failed.
  const char* validate() const;

  /// Visits every node (internal and leaf) with its depth, for debug drawing.
  template <class Visit>
  void forEachNode(Visit&& visit) const;

 private:
  friend struct SnapshotCodec;  // snapshot.h: the tree is saved node for node
  struct Node {
    Aabb aabb;
    int parent = kNull;  ///< also the next free node when on the free list
    int child1 = kNull;
    int child2 = kNull;
    int height = 0;  ///< 0 for leaves, -1 when free
    int userData = -1;
  };

  int allocateNode();
  void freeNode(int node);
  void insertLeaf(int leaf);
  void removeLeaf(int leaf);
  int findBestSibling(const Aabb& box) const;
  void rotate(int node);
  const char* validateNode(int node) const;

  std::vector<Node> nodes_;
  int root_ = kNull;
  int freeList_ = kNull;
  int leafCount_ = 0;
  mutable std::vector<int> stack_;  // scratch for queries; the tree is not thread-safe
};

template <class Visit>
void AabbTree::query(const Aabb& aabb, Visit&& visit, std::vector<int>& stack) const {
  if (root_ == kNull) return;
  // The stack's storage used directly, grown by hand: push_back is a call wherever the compiler
  // does not inline it (in World::updateBroadPhase it stopped doing so after an unrelated change,
  // 0.75% of a heap's landing steps), and the depth rarely exceeds 64.
  if (stack.size() < 64) stack.resize(64);
  int* top = stack.data();
  int* end = top + stack.size();
  *top++ = root_;
  while (top != stack.data()) {
    const int id = *--top;
    const Node& n = nodes_[id];
    if (!n.aabb.overlaps(aabb)) continue;
    if (n.child1 == kNull) {
      if (!visit(id)) return;
    } else {
      if (end - top < 2) {
        const std::ptrdiff_t used = top - stack.data();
        stack.resize(2 * stack.size());
        top = stack.data() + used;
        end = stack.data() + stack.size();
      }
      *top++ = n.child2;
      *top++ = n.child1;
    }
  }
}

template <class Visit>
void AabbTree::rayCast(const RayInput& input, Visit&& visit) const {
  if (root_ == kNull) return;
  RayInput ray = input;
  // Slab test (Kay and Kajiya 1986); a zero direction component is handled by the comparisons.
  auto hits = [&](const Aabb& b) {
    Real tmin = 0.0, tmax = ray.maxFraction;
    for (int k = 0; k < 3; ++k) {
      const Real o = ray.origin[k], d = ray.direction[k];
      if (d == 0.0) {
        if (o < b.lower[k] || o > b.upper[k]) return false;
        continue;
      }
      Real t1 = (b.lower[k] - o) / d, t2 = (b.upper[k] - o) / d;
      if (t1 > t2) std::swap(t1, t2);
      tmin = std::max(tmin, t1);
      tmax = std::min(tmax, t2);
      if (tmin > tmax) return false;
    }
    return true;
  };
  std::vector<int> stack{root_};
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    const Node& n = nodes_[id];
    if (!hits(n.aabb)) continue;
    if (n.child1 == kNull) {
      const Real f = visit(static_cast<const RayInput&>(ray), id);
      if (f <= 0.0) return;
      if (f < ray.maxFraction) ray.maxFraction = f;
    } else {
      stack.push_back(n.child2);
      stack.push_back(n.child1);
    }
  }
}

template <class Visit>
void AabbTree::forEachNode(Visit&& visit) const {
  if (root_ == kNull) return;
  std::vector<std::pair<int, int>> stack{{root_, 0}};
  while (!stack.empty()) {
    const auto [id, depth] = stack.back();
    stack.pop_back();
    const Node& n = nodes_[id];
    visit(n.aabb, depth, n.child1 == kNull);
    if (n.child1 != kNull) {
      stack.push_back({n.child2, depth + 1});
      stack.push_back({n.child1, depth + 1});
    }
  }
}

/// The broad-phase: an AABB tree plus the persistent set of overlapping proxy pairs. Only proxies
/// whose tight box left their fat box are queried each update; pairs whose fat boxes separated are
/// dropped. The result is always exactly the set of leaf pairs with overlapping fat boxes.
class BroadPhase {
 public:
  /// Adds a proxy (see AabbTree::createProxy); it is paired at the next updatePairs().
  int createProxy(const Aabb& aabb, Real margin, int userData);
  void destroyProxy(int proxy);
  /// Moves a proxy (AabbTree::moveProxy); returns true when its fat box changed.
  bool moveProxy(int proxy, const Aabb& aabb, Real margin, const Vec3& ahead = Vec3(0.0));
  /// Replaces a proxy's fat box and marks it moved.
  void resetProxy(int proxy, const Aabb& aabb, Real margin);
  /// Marks a proxy moved, its fat box kept: the next updatePairs() queries it again (after
  /// something `canPair` reads changed, such as a filter).
  void requery(int proxy) { markMoved(proxy); }

  /// Brings the pair set up to date and returns it sorted by (first, second) proxy id.
  /// `canPair(proxyA, proxyB)` filters pairs (e.g. static-static); it must be symmetric, and
  /// safe to call from several threads at once when `tasks` is given: the moved proxies then
  /// query the tree in parallel (the pairs are the same at any thread count: they are sorted).
  template <class CanPair>
  const std::vector<ProxyPair>& updatePairs(CanPair&& canPair, TaskSystem* tasks = nullptr);

  const std::vector<ProxyPair>& pairs() const { return pairs_; }
  const AabbTree& tree() const { return tree_; }

 private:
  friend struct SnapshotCodec;
  AabbTree tree_;
  std::vector<int> moved_;
  std::vector<uint8_t> isMoved_;  // per proxy id
  std::vector<ProxyPair> pairs_;
  std::vector<ProxyPair> scratch_;
  std::vector<ProxyPair> merged_;
  std::vector<uint8_t> keeps_;  // per pair, with threads: its fat boxes still overlap
  // With threads: the pairs each worker found, per worker and range of keys (worker * ranges +
  // range); each range's lists; the ranges' first keys but the first's.
  struct RangeLists {
    std::vector<ProxyPair> kept, found, out;
    size_t at = 0;  // where `out` goes in the new list
  };
  std::vector<std::vector<ProxyPair>> found_;
  std::vector<RangeLists> ranged_;
  std::vector<ProxyPair> bounds_;
  std::vector<std::vector<int>> stacks_;  // per worker, the query's stack

  void markMoved(int proxy);
  /// Sorts scratch_ (the new pairs) and merges it into pairs_ (one thread).
  void mergeNewPairs();
};

template <class CanPair>
const std::vector<ProxyPair>& BroadPhase::updatePairs(CanPair&& canPair, TaskSystem* tasks) {
  const bool threads = tasks && tasks->workerCount() > 1;
  // An old pair of two proxies that did not move keeps its fat boxes, so they still overlap; only
  // a pair with a moved proxy is tested (the same pairs kept, without reading the two nodes).
  auto overlapping = [&](const ProxyPair& p) {
    const size_t known = isMoved_.size();
    const bool moved = static_cast<size_t>(p.first) >= known || isMoved_[p.first] ||
                       static_cast<size_t>(p.second) >= known || isMoved_[p.second];
    return !moved || tree_.fatAabb(p.first).overlaps(tree_.fatAabb(p.second));
  };
  // New pairs can only involve moved proxies: each moved proxy queries the tree. A pair of two
  // moved proxies is reported once, by the lower id.
  auto find = [&](int m, std::vector<int>& stack, auto&& out) {
    tree_.query(
        tree_.fatAabb(m),
        [&](int other) {
          if (other == m || (isMoved_[other] && other < m)) return true;
          if (canPair(m, other)) out(m < other ? ProxyPair{m, other} : ProxyPair{other, m});
          return true;
        },
        stack);
  };
  const int moved = static_cast<int>(moved_.size());
  constexpr int kGrain = 64;  // moved proxies per chunk: a query costs about a microsecond
  if (threads && moved > kGrain) {
    // With threads every pass is parallel: the key space is cut into ranges at quantiles of the
    // old pairs, each worker files the pairs it finds by range, and each range is then merged on
    // its own (its old pairs that still overlap, and every worker's finds sorted, their union)
    // and copied to its place. The result is the sorted set of kept and found pairs whatever the
    // ranges and whoever found what: the serial path's list.
    const int workers = tasks->workerCount();
    const int ranges = std::clamp(static_cast<int>(pairs_.size() / 512), 1, 4 * workers);
    bounds_.clear();
    for (int r = 1; r < ranges; ++r)
      bounds_.push_back(pairs_[pairs_.size() * static_cast<size_t>(r) / ranges]);
    const size_t cells = static_cast<size_t>(workers) * static_cast<size_t>(ranges);
    if (found_.size() < cells) found_.resize(cells);
    if (stacks_.size() < static_cast<size_t>(workers)) stacks_.resize(workers);
    for (size_t c = 0; c < cells; ++c) found_[c].clear();
    parallelFor(tasks, moved, kGrain, [&](int begin, int end, int worker) {
      std::vector<ProxyPair>* mine = &found_[static_cast<size_t>(worker) * ranges];
      for (int i = begin; i < end; ++i)
        find(moved_[i], stacks_[static_cast<size_t>(worker)], [&](const ProxyPair& p) {
          const auto r = std::upper_bound(bounds_.begin(), bounds_.end(), p) - bounds_.begin();
          mine[r].push_back(p);
        });
    });
    if (ranged_.size() < static_cast<size_t>(ranges)) ranged_.resize(ranges);
    parallelFor(tasks, ranges, 1, [&](int begin, int end, int) {
      for (int r = begin; r < end; ++r) {
        RangeLists& lists = ranged_[static_cast<size_t>(r)];
        lists.kept.clear();
        const size_t lo = pairs_.size() * static_cast<size_t>(r) / ranges;
        const size_t hi = pairs_.size() * static_cast<size_t>(r + 1) / ranges;
        for (size_t i = lo; i < hi; ++i)
          if (overlapping(pairs_[i])) lists.kept.push_back(pairs_[i]);
        lists.found.clear();
        for (int w = 0; w < workers; ++w) {
          const std::vector<ProxyPair>& f = found_[static_cast<size_t>(w) * ranges + r];
          lists.found.insert(lists.found.end(), f.begin(), f.end());
        }
        std::sort(lists.found.begin(), lists.found.end());
        lists.out.clear();
        std::set_union(lists.kept.begin(), lists.kept.end(), lists.found.begin(), lists.found.end(),
                       std::back_inserter(lists.out));
        lists.out.erase(std::unique(lists.out.begin(), lists.out.end()), lists.out.end());
      }
    });
    size_t total = 0;
    for (int r = 0; r < ranges; ++r) {
      ranged_[static_cast<size_t>(r)].at = total;
      total += ranged_[static_cast<size_t>(r)].out.size();
    }
    merged_.resize(total);
    parallelFor(tasks, ranges, 1, [&](int begin, int end, int) {
      for (int r = begin; r < end; ++r) {
        const RangeLists& lists = ranged_[static_cast<size_t>(r)];
        std::copy(lists.out.begin(), lists.out.end(),
                  merged_.begin() + static_cast<std::ptrdiff_t>(lists.at));
      }
    });
    pairs_.swap(merged_);
  } else {
    // Keep the old pairs whose fat boxes still overlap (with threads: each pair's verdict in its
    // own slot, in parallel; the kept pairs then copied in order).
    constexpr int kPairGrain = 1024;
    size_t keep = 0;
    if (threads && pairs_.size() > 2 * static_cast<size_t>(kPairGrain)) {
      keeps_.resize(pairs_.size());
      parallelFor(tasks, static_cast<int>(pairs_.size()), kPairGrain, [&](int begin, int end, int) {
        for (int i = begin; i < end; ++i) keeps_[i] = overlapping(pairs_[i]) ? 1 : 0;
      });
      for (size_t i = 0; i < pairs_.size(); ++i)
        if (keeps_[i]) pairs_[keep++] = pairs_[i];
    } else {
      for (const ProxyPair& p : pairs_)
        if (overlapping(p)) pairs_[keep++] = p;
    }
    pairs_.resize(keep);
    scratch_.clear();
    if (stacks_.empty()) stacks_.resize(1);
    for (const int m : moved_)
      find(m, stacks_[0], [&](const ProxyPair& p) { scratch_.push_back(p); });
    mergeNewPairs();
  }
  for (const int m : moved_) isMoved_[m] = 0;
  moved_.clear();
  return pairs_;
}

}  // namespace tumble
