#include "chain_bvh.h"

#include <algorithm>
#include <limits>

#include "tumble/segment.h"

namespace tumble::chain_detail {
namespace {

constexpr int kLeafSize = 4;

Box segmentBox(const Vec3& p, const Vec3& q) {
  return Box{glm::min(p, q), glm::max(p, q)};
}

Box merge(const Box& a, const Box& b) {
  return Box{glm::min(a.lo, b.lo), glm::max(a.hi, b.hi)};
}

}  // namespace

Real boxDistance(const Box& a, const Box& b) {
  Real d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const Real g = std::max(a.lo[k] - b.hi[k], b.lo[k] - a.hi[k]);
    if (g > 0.0) d2 += g * g;
  }
  return std::sqrt(d2);
}

SegmentBvh::SegmentBvh(const std::vector<Vec3>& points) : points_(points) {
  const int n = static_cast<int>(points.size()) - 1;
  if (n <= 0) return;
  order_.resize(n);
  boxes_.resize(n);
  for (int i = 0; i < n; ++i) {
    order_[i] = i;
    boxes_[i] = segmentBox(points[i], points[i + 1]);
  }
  nodes_.reserve(2 * (n / kLeafSize + 1));
  build(0, n);
}

int SegmentBvh::build(int first, int count) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{});
  Box box = boxes_[order_[first]];
  for (int k = 1; k < count; ++k) box = merge(box, boxes_[order_[first + k]]);
  nodes_[index].box = box;
  if (count <= kLeafSize) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  const Vec3 ext = box.hi - box.lo;
  const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
  const int half = count / 2;
  // Median split on box centres; ties broken by index so the tree is deterministic.
  std::nth_element(order_.begin() + first, order_.begin() + first + half,
                   order_.begin() + first + count, [&](int a, int b) {
                     const Real ca = boxes_[a].lo[axis] + boxes_[a].hi[axis];
                     const Real cb = boxes_[b].lo[axis] + boxes_[b].hi[axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const int left = build(first, half);
  const int right = build(first + half, count - half);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void SegmentBvh::leafPairs(const Node& na, const Node& nb, bool same, Real limit,
                           std::vector<SegmentPair>& out) const {
  for (int x = 0; x < na.count; ++x) {
    const int i = order_[na.first + x];
    for (int y = same ? x + 1 : 0; y < nb.count; ++y) {
      const int j = order_[nb.first + y];
      if (i - j < 2 && j - i < 2) continue;
      if (boxDistance(boxes_[i], boxes_[j]) >= limit) continue;
      const Real d = segmentDistance(points_[i], points_[i + 1], points_[j], points_[j + 1]);
      if (d < limit) out.push_back(SegmentPair{std::min(i, j), std::max(i, j), d});
    }
  }
}

void SegmentBvh::collect(int a, int b, Real limit, std::vector<SegmentPair>& out) const {
  const Node& na = nodes_[a];
  const Node& nb = nodes_[b];
  if (a != b && boxDistance(na.box, nb.box) >= limit) return;
  const bool leafA = na.left < 0;
  const bool leafB = nb.left < 0;
  if (a == b) {
    if (leafA) return leafPairs(na, na, true, limit, out);
    collect(na.left, na.left, limit, out);
    collect(na.left, na.right, limit, out);
    collect(na.right, na.right, limit, out);
    return;
  }
  if (leafA && leafB) return leafPairs(na, nb, false, limit, out);
  // Descend the larger node (or the internal one).
  if (leafB ||
      (!leafA && glm::length(na.box.hi - na.box.lo) >= glm::length(nb.box.hi - nb.box.lo))) {
    collect(na.left, b, limit, out);
    collect(na.right, b, limit, out);
  } else {
    collect(a, nb.left, limit, out);
    collect(a, nb.right, limit, out);
  }
}

std::vector<SegmentPair> SegmentBvh::pairsCloserThan(Real limit, Real radius) const {
  std::vector<SegmentPair> out;
  if (nodes_.empty() || !(limit > 0.0)) return out;
  collect(0, 0, limit, out);
  for (auto& p : out) p.gap = p.gap - 2.0 * radius;
  std::sort(out.begin(), out.end(), [](const SegmentPair& x, const SegmentPair& y) {
    return x.i < y.i || (x.i == y.i && x.j < y.j);
  });
  return out;
}

void SegmentBvh::nearest(int a, int b, Real& best, int& bi, int& bj) const {
  const Node& na = nodes_[a];
  const Node& nb = nodes_[b];
  if (a != b && boxDistance(na.box, nb.box) >= best) return;
  const bool leafA = na.left < 0;
  const bool leafB = nb.left < 0;
  if (leafA && leafB) {
    const bool same = a == b;
    for (int x = 0; x < na.count; ++x) {
      const int i = order_[na.first + x];
      for (int y = same ? x + 1 : 0; y < nb.count; ++y) {
        const int j = order_[nb.first + y];
        if (i - j < 2 && j - i < 2) continue;
        if (boxDistance(boxes_[i], boxes_[j]) > best) continue;
        const Real d = segmentDistance(points_[i], points_[i + 1], points_[j], points_[j + 1]);
        const int lo = std::min(i, j), hi = std::max(i, j);
        // Ties go to the smaller (i, j) so the answer does not depend on the traversal.
        if (d < best || (d == best && (lo < bi || (lo == bi && hi < bj)))) {
          best = d;
          bi = lo;
          bj = hi;
        }
      }
    }
    return;
  }
  if (a == b) {
    nearest(na.left, na.left, best, bi, bj);
    nearest(na.right, na.right, best, bi, bj);
    nearest(na.left, na.right, best, bi, bj);
    return;
  }
  if (leafB ||
      (!leafA && glm::length(na.box.hi - na.box.lo) >= glm::length(nb.box.hi - nb.box.lo))) {
    const Real dl = boxDistance(nodes_[na.left].box, nb.box);
    const Real dr = boxDistance(nodes_[na.right].box, nb.box);
    const int first = dl <= dr ? na.left : na.right;
    const int second = dl <= dr ? na.right : na.left;
    nearest(first, b, best, bi, bj);
    nearest(second, b, best, bi, bj);
  } else {
    const Real dl = boxDistance(na.box, nodes_[nb.left].box);
    const Real dr = boxDistance(na.box, nodes_[nb.right].box);
    const int first = dl <= dr ? nb.left : nb.right;
    const int second = dl <= dr ? nb.right : nb.left;
    nearest(a, first, best, bi, bj);
    nearest(a, second, best, bi, bj);
  }
}

std::optional<SegmentPair> SegmentBvh::closestPair(Real radius) const {
  if (nodes_.empty()) return std::nullopt;
  Real best = std::numeric_limits<Real>::max();
  int bi = -1, bj = -1;
  nearest(0, 0, best, bi, bj);
  if (bi < 0) return std::nullopt;
  return SegmentPair{bi, bj, best - 2.0 * radius};
}

std::vector<std::pair<int, int>> boxPairs(const std::vector<Box>& a, const std::vector<Box>& b,
                                          Real margin) {
  struct Entry {
    Real lo;
    int set;
    int index;
  };
  std::vector<Entry> entries;
  entries.reserve(a.size() + b.size());
  for (int k = 0; k < static_cast<int>(a.size()); ++k) entries.push_back({a[k].lo[0], 0, k});
  for (int k = 0; k < static_cast<int>(b.size()); ++k) entries.push_back({b[k].lo[0], 1, k});
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return x.lo < y.lo ||
           (x.lo == y.lo && (x.set < y.set || (x.set == y.set && x.index < y.index)));
  });
  std::vector<std::pair<int, int>> out;
  std::vector<int> active[2];
  const std::vector<Box>* sets[2] = {&a, &b};
  for (const Entry& e : entries) {
    const Box& box = (*sets[e.set])[e.index];
    std::vector<int>& other = active[1 - e.set];
    const std::vector<Box>& otherBoxes = *sets[1 - e.set];
    size_t keep = 0;
    for (size_t k = 0; k < other.size(); ++k) {
      const Box& ob = otherBoxes[other[k]];
      if (ob.hi[0] + margin < e.lo) continue;  // ended before this one starts: drop it
      other[keep++] = other[k];
      if (ob.lo[1] - box.hi[1] > margin || box.lo[1] - ob.hi[1] > margin) continue;
      if (ob.lo[2] - box.hi[2] > margin || box.lo[2] - ob.hi[2] > margin) continue;
      if (e.set == 0)
        out.emplace_back(e.index, other[k]);
      else
        out.emplace_back(other[k], e.index);
    }
    other.resize(keep);
    active[e.set].push_back(e.index);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tumble::chain_detail
