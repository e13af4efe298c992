// The stack checks of stack_watch.h: a uniform grid hash for the closest centres, drift and drop.
#include "stack_watch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace tumble::test {
namespace {

using Cell = std::array<int64_t, 3>;

// A cell's bucket: the coordinates mixed by odd 64-bit constants, the high bits kept (unsigned
// arithmetic, so wrapping is defined). Different cells may share a bucket; the search compares
// cells, so that only costs time.
size_t bucketOf(const Cell& c, int shift) {
  const uint64_t h = static_cast<uint64_t>(c[0]) * 0x9E3779B97F4A7C15ull ^
                     static_cast<uint64_t>(c[1]) * 0xC2B2AE3D27D4EB4Full ^
                     static_cast<uint64_t>(c[2]) * 0x165667B19E3779F9ull;
  return static_cast<size_t>(h >> shift);
}

int64_t cellCoordinate(Real x, Real cellSize) {
  // Far-flung points are clamped into one huge cell rather than overflowing the cast.
  return static_cast<int64_t>(std::clamp(std::floor(x / cellSize), -1e15, 1e15));
}

}  // namespace

ClosePairs closePairs(std::span<const Vec3> centres, Real radius, Real below) {
  ClosePairs out;
  const size_t n = centres.size();
  if (n < 2 || !(radius > 0.0)) return out;
  int bits = 1;
  while ((size_t{1} << bits) < 2 * n) ++bits;
  const int shift = 64 - bits;
  std::vector<int> head(size_t{1} << bits, -1), next(n, -1);
  std::vector<Cell> cells(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec3& p = centres[i];
    if (!isFinite(p)) continue;
    cells[i] = {cellCoordinate(p.x, radius), cellCoordinate(p.y, radius),
                cellCoordinate(p.z, radius)};
    const size_t b = bucketOf(cells[i], shift);
    next[i] = head[b];
    head[b] = static_cast<int>(i);
  }
  // Cells as wide as `radius`: a pair closer than that lies in neighbouring cells. Each pair is
  // seen once, from its lower index.
  const Real r2 = radius * radius, below2 = below * below;
  Real best2 = r2;
  for (size_t i = 0; i < n; ++i) {
    if (!isFinite(centres[i])) continue;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const Cell c{cells[i][0] + dx, cells[i][1] + dy, cells[i][2] + dz};
          for (int j = head[bucketOf(c, shift)]; j >= 0; j = next[static_cast<size_t>(j)]) {
            const size_t uj = static_cast<size_t>(j);
            if (uj <= i || cells[uj] != c) continue;
            const Vec3 d = centres[uj] - centres[i];
            const Real d2 = glm::dot(d, d);
            if (d2 < below2) ++out.below;
            if (d2 < best2) {
              best2 = d2;
              out.a = static_cast<int>(i);
              out.b = j;
            }
          }
        }
  }
  if (out.a >= 0) out.minDistance = std::sqrt(best2);
  return out;
}

StackWatch::StackWatch(const World& world, Real passThrough, Real sidewaysLimit)
    : passThrough_(passThrough), sidewaysLimit_(sidewaysLimit) {
  Real topY = -std::numeric_limits<Real>::infinity();
  for (BodyId id : world.bodyIds()) {
    const Expected<BodyView> b = world.body(id);
    if (!b || !b->isDynamic()) continue;
    ids_.push_back(id);
    start_.push_back(b->centerOfMass);
    topY = std::max(topY, b->centerOfMass.y);
  }
  for (size_t i = 0; i < start_.size(); ++i)
    if (start_[i].y >= topY - 1e-9) tops_.push_back(static_cast<int>(i));
  now_ = start_;
  report_.dynamicBodies = static_cast<int>(ids_.size());
}

void StackWatch::observe(const World& world) {
  StackReport& r = report_;
  ++r.steps;
  r.lost = 0;
  r.sideways = 0.0;
  r.sidewaysBody = BodyId{};
  for (size_t i = 0; i < ids_.size(); ++i) {
    if (!world.isAlive(ids_[i])) {
      ++r.lost;
      now_[i] = Vec3(std::numeric_limits<Real>::quiet_NaN());  // left out of the pair search
      continue;
    }
    now_[i] = world.body(ids_[i])->centerOfMass;
    const Vec3 d = now_[i] - start_[i];
    const Real sideways = std::sqrt(d.x * d.x + d.z * d.z);
    if (sideways > r.sideways || !r.sidewaysBody.valid()) {
      r.sideways = sideways;
      r.sidewaysBody = ids_[i];
    }
  }
  r.maxSideways = std::max(r.maxSideways, r.sideways);
  if (r.firstSidewaysStep < 0 && r.sideways > sidewaysLimit_) r.firstSidewaysStep = r.steps;

  // Every touching neighbour is about 1 m away, so a search radius a little past that always
  // finds the closest pair of a stack.
  const ClosePairs close = closePairs(now_, std::max(1.25, passThrough_), passThrough_);
  if (close.a >= 0 && close.minDistance < r.minDistance) {
    r.minDistance = close.minDistance;
    r.minStep = r.steps;
    r.minA = ids_[static_cast<size_t>(close.a)];
    r.minB = ids_[static_cast<size_t>(close.b)];
  }
  r.pairsBelowMax = std::max(r.pairsBelowMax, close.below);
  if (r.firstBelowStep < 0 && close.below > 0) r.firstBelowStep = r.steps;

  // Negative when the top rose.
  r.topDrop = -std::numeric_limits<Real>::infinity();
  for (int t : tops_) {
    const size_t i = static_cast<size_t>(t);
    if (isFinite(now_[i])) r.topDrop = std::max(r.topDrop, start_[i].y - now_[i].y);
  }
  if (!isFinite(r.topDrop)) r.topDrop = 0.0;
}

}  // namespace tumble::test
