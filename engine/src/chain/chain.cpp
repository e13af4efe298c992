// The foldable chain: validation, folds and length changes by conservative advancement
// (chain_sweep.h), appends, and the queries over the segment hierarchy (chain_bvh.h).
#include "tumble/chain.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "chain_bvh.h"
#include "chain_sweep.h"
#include "tumble/segment.h"

namespace tumble {
namespace {

using chain_detail::Box;
using chain_detail::SweepPair;

std::string fmt(Real x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string pairMessage(const SegmentPair& p, Real radius) {
  return "segments " + std::to_string(p.i) + " and " + std::to_string(p.j) +
         " intersect (distance " + fmt(p.gap + 2.0 * radius) + " < 2r = " + fmt(2.0 * radius) + ")";
}

std::optional<std::string> checkSettings(const Settings::Chain& s) {
  if (!(s.tolerance >= 1e-6 && s.tolerance <= 0.5))
    return "chain.tolerance = " + fmt(s.tolerance) + " is outside [1e-06, 0.5]";
  if (s.maxSubsteps < 10 || s.maxSubsteps > 10000000)
    return "chain.max_substeps = " + std::to_string(s.maxSubsteps) + " is outside [10, 10000000]";
  return std::nullopt;
}

// Rotation of points joint+1..n-1 about the line (centre, axis) by sign * lambda.
struct FoldMotion {
  const std::vector<Vec3>& points;
  int firstMoving;  // first moving segment (= the joint)
  Vec3 centre;
  Vec3 axis;  // unit, already multiplied by the sign of the angle
  Vec3 rotate(const Vec3& p, Real angle) const {
    // Rodrigues: v cos + (k x v) sin + k (k . v)(1 - cos), right-handed.
    const Vec3 v = p - centre;
    const Real c = std::cos(angle), s = std::sin(angle);
    return centre + v * c + glm::cross(axis, v) * s + axis * (glm::dot(axis, v) * (1.0 - c));
  }
  void segment(int k, Real lambda, Vec3& p0, Vec3& p1) const {
    if (k < firstMoving) {
      p0 = points[k];
      p1 = points[k + 1];
    } else {
      p0 = k == firstMoving ? points[k] : rotate(points[k], lambda);
      p1 = rotate(points[k + 1], lambda);
    }
  }
  Vec3 velocity(int k, Real u, Real lambda) const {
    if (k < firstMoving) return Vec3(0.0);
    Vec3 p0, p1;
    segment(k, lambda, p0, p1);
    return glm::cross(axis, p0 + u * (p1 - p0) - centre);
  }
};

// Segment k stretched by sign * lambda along its unit direction d; points k+1.. translate.
struct StretchMotion {
  const std::vector<Vec3>& points;
  int stretched;
  Vec3 step;  // sign * d
  void segment(int k, Real lambda, Vec3& p0, Vec3& p1) const {
    p0 = k > stretched ? points[k] + lambda * step : points[k];
    p1 = k >= stretched ? points[k + 1] + lambda * step : points[k + 1];
  }
  Vec3 velocity(int k, Real u, Real /*lambda*/) const {
    if (k < stretched) return Vec3(0.0);
    return k == stretched ? u * step : step;
  }
};

std::optional<Real> finalMinGap(const std::vector<Vec3>& points, Real radius) {
  const auto best = chainClosestPair(points, radius);
  if (!best) return std::nullopt;
  return best->gap;
}

}  // namespace

const char* toString(ChainMotionStatus status) {
  switch (status) {
    case ChainMotionStatus::Completed:
      return "completed";
    case ChainMotionStatus::Blocked:
      return "blocked";
    case ChainMotionStatus::MaxSubsteps:
      return "max_substeps";
  }
  return "unknown";
}

std::vector<SegmentPair> chainPairsWithin(const std::vector<Vec3>& points, Real radius,
                                          Real margin) {
  chain_detail::SegmentBvh bvh(points);
  return bvh.pairsCloserThan(2.0 * radius + margin, radius);
}

std::vector<SegmentPair> chainPairsWithinAllPairs(const std::vector<Vec3>& points, Real radius,
                                                  Real margin) {
  std::vector<SegmentPair> out;
  const int n = static_cast<int>(points.size()) - 1;
  for (int i = 0; i < n; ++i)
    for (int j = i + 2; j < n; ++j) {
      const Real d = segmentDistance(points[i], points[i + 1], points[j], points[j + 1]);
      if (d - 2.0 * radius < margin) out.push_back(SegmentPair{i, j, d - 2.0 * radius});
    }
  return out;
}

std::vector<bool> chainContactFlags(const std::vector<Vec3>& points, Real radius, Real margin) {
  std::vector<bool> flags(points.size() > 1 ? points.size() - 1 : 0, false);
  for (const auto& p : chainPairsWithin(points, radius, margin)) flags[p.i] = flags[p.j] = true;
  return flags;
}

std::optional<SegmentPair> chainClosestPair(const std::vector<Vec3>& points, Real radius) {
  chain_detail::SegmentBvh bvh(points);
  return bvh.closestPair(radius);
}

// The checks of validateChain; a value is the message.
static std::optional<std::string> chainProblem(const std::vector<Vec3>& points, Real radius,
                                               const Settings::Chain& settings) {
  if (auto e = checkSettings(settings)) return e;
  if (points.size() < 2)
    return "a chain needs at least 2 points, got " + std::to_string(points.size());
  if (!(std::isfinite(radius) && radius > 0.0))
    return "radius = " + fmt(radius) + ": expected a finite number > 0";
  for (size_t k = 0; k < points.size(); ++k)
    if (!isFinite(points[k])) return "point " + std::to_string(k) + " is not finite";
  for (size_t k = 0; k + 1 < points.size(); ++k)
    if (points[k] == points[k + 1])
      return "segment " + std::to_string(k) + " has zero length (points " + std::to_string(k) +
             " and " + std::to_string(k + 1) + " coincide)";
  const auto bad = chainPairsWithin(points, radius, -settings.tolerance * radius);
  if (!bad.empty()) return pairMessage(bad.front(), radius);
  return std::nullopt;
}

Expected<void> validateChain(const std::vector<Vec3>& points, Real radius,
                             const Settings::Chain& settings) {
  if (std::optional<std::string> problem = chainProblem(points, radius, settings))
    return Expected<void>::failure(std::move(*problem));
  return ok();
}

Expected<Chain> Chain::create(std::vector<Vec3> points, Real radius,
                              const Settings::Chain& settings) {
  if (auto e = chainProblem(points, radius, settings)) return Expected<Chain>::failure(*e);
  return Chain(std::move(points), radius);
}

Expected<FoldResult> Chain::fold(int joint, const Vec3& axis, Real angle,
                                 const Settings::Chain& settings) {
  using R = Expected<FoldResult>;
  if (auto e = checkSettings(settings)) return R::failure(*e);
  const int n = static_cast<int>(points_.size());
  if (joint < 1 || joint > n - 2)
    return R::failure("joint " + std::to_string(joint) + " is out of range: expected 1.." +
                      std::to_string(n - 2) + " for a chain of " + std::to_string(n) + " points");
  if (!isFinite(axis)) return R::failure("axis is not finite");
  const Real len = glm::length(axis);
  if (!(len > 0.0) || !std::isfinite(len)) return R::failure("axis has zero length");
  if (!std::isfinite(angle)) return R::failure("angle is not finite");

  FoldResult result;
  result.requested = angle;
  const Real sign = angle < 0.0 ? -1.0 : 1.0;
  const Vec3 unit = axis / len;
  const Vec3 centre = points_[joint];
  FoldMotion motion{points_, joint, centre, unit * sign};

  // Broad-phase for the whole fold, valid at every angle: distances cannot be shorter than the
  // separation of the segments' cylindrical coordinates about the axis (radial distance rho and
  // axial height h), which a rotation about the axis leaves unchanged.
  const Real t = settings.tolerance * radius_;
  auto cylBox = [&](int k) {
    const Vec3 a = points_[k] - centre, b = points_[k + 1] - centre;
    const Real ha = glm::dot(unit, a), hb = glm::dot(unit, b);
    const Vec3 qa = a - unit * ha, qb = b - unit * hb;  // perpendicular parts, linear in u
    const Vec3 dq = qb - qa;
    const Real dd = glm::dot(dq, dq);
    const Real u = dd > 0.0 ? std::clamp(-glm::dot(qa, dq) / dd, 0.0, 1.0) : 0.0;
    const Real rhoMin = glm::length(qa + u * dq);
    const Real rhoMax = std::max(glm::length(qa), glm::length(qb));
    return Box{Vec3(rhoMin, std::min(ha, hb), 0.0), Vec3(rhoMax, std::max(ha, hb), 0.0)};
  };
  std::vector<Box> moving, still;
  for (int k = joint; k <= n - 2; ++k) moving.push_back(cylBox(k));
  for (int k = 0; k < joint; ++k) still.push_back(cylBox(k));
  std::vector<SweepPair> pairs;
  for (const auto& [m, s] : chain_detail::boxPairs(moving, still, 2.0 * radius_ + t)) {
    const int a = joint + m, b = s;
    if (a - b < 2) continue;
    pairs.push_back(SweepPair{a, b, std::max(moving[m].hi[0], 1e-300)});
  }
  result.candidatePairs = static_cast<int>(pairs.size());

  const auto outcome = chain_detail::advance(motion, pairs, std::abs(angle), radius_,
                                             settings.tolerance, settings.maxSubsteps);
  result.applied = sign * outcome.applied;
  if (outcome.applied >= std::abs(angle)) result.applied = angle;
  result.status = outcome.status;
  result.blocked = std::abs(result.applied) < std::abs(angle);
  result.contact = outcome.contact;
  result.substeps = outcome.substeps;
  if (result.applied != 0.0)
    for (int k = joint + 1; k < n; ++k) points_[k] = motion.rotate(points_[k], outcome.applied);
  result.minGap = finalMinGap(points_, radius_);
  return result;
}

Expected<FoldResult> Chain::setSegmentLength(int segment, Real length,
                                             const Settings::Chain& settings) {
  using R = Expected<FoldResult>;
  if (auto e = checkSettings(settings)) return R::failure(*e);
  const int n = static_cast<int>(points_.size());
  if (segment < 0 || segment > n - 2)
    return R::failure("segment " + std::to_string(segment) + " is out of range: expected 0.." +
                      std::to_string(n - 2));
  if (!(std::isfinite(length) && length > 0.0))
    return R::failure("length = " + fmt(length) + ": expected a finite number > 0");
  const Vec3 dir = points_[segment + 1] - points_[segment];
  const Real current = glm::length(dir);
  const Real change = length - current;
  FoldResult result;
  result.requested = change;
  const Real sign = change < 0.0 ? -1.0 : 1.0;
  StretchMotion motion{points_, segment, dir / current * sign};
  const Real total = std::abs(change);
  const Real t = settings.tolerance * radius_;

  // Broad-phase: boxes swept over the whole change (translation: union of the end boxes).
  auto box = [&](int k, Real lambda) {
    Vec3 p0, p1;
    motion.segment(k, lambda, p0, p1);
    return Box{glm::min(p0, p1), glm::max(p0, p1)};
  };
  std::vector<Box> moving, still;
  for (int k = segment; k <= n - 2; ++k) {
    const Box b0 = box(k, 0.0), b1 = box(k, total);
    moving.push_back(Box{glm::min(b0.lo, b1.lo), glm::max(b0.hi, b1.hi)});
  }
  for (int k = 0; k < segment; ++k) still.push_back(box(k, 0.0));
  std::vector<SweepPair> pairs;
  for (const auto& [m, s] : chain_detail::boxPairs(moving, still, 2.0 * radius_ + t))
    if (segment + m - s >= 2) pairs.push_back(SweepPair{segment + m, s, 1.0});
  // The stretched segment against the rigidly moving ones (both move; relative speed <= 1).
  for (int m = 2; m < static_cast<int>(moving.size()); ++m) {
    if (chain_detail::boxDistance(moving[0], moving[m]) <= 2.0 * radius_ + t)
      pairs.push_back(SweepPair{segment + m, segment, 1.0});
  }
  result.candidatePairs = static_cast<int>(pairs.size());
  const auto outcome = chain_detail::advance(motion, pairs, total, radius_, settings.tolerance,
                                             settings.maxSubsteps);
  result.applied = outcome.applied >= total ? change : sign * outcome.applied;
  result.status = outcome.status;
  result.blocked = std::abs(result.applied) < total;
  result.contact = outcome.contact;
  result.substeps = outcome.substeps;
  for (int k = segment + 1; k < n; ++k) points_[k] += result.applied * (dir / current);
  result.minGap = finalMinGap(points_, radius_);
  return result;
}

Expected<AppendResult> Chain::append(const Vec3& direction, Real length,
                                     const Settings::Chain& settings) {
  using R = Expected<AppendResult>;
  if (auto e = checkSettings(settings)) return R::failure(*e);
  if (!isFinite(direction)) return R::failure("direction is not finite");
  const Real len = glm::length(direction);
  if (!(len > 0.0)) return R::failure("direction has zero length");
  if (!(std::isfinite(length) && length > 0.0))
    return R::failure("length = " + fmt(length) + ": expected a finite number > 0");
  const int n = static_cast<int>(points_.size());
  const Vec3 a = points_[n - 1];
  const Vec3 b = a + direction * (length / len);
  if (!isFinite(b)) return R::failure("the new point is not finite");
  const int seg = n - 1;
  const Box nb{glm::min(a, b), glm::max(a, b)};
  const Real limit = 2.0 * radius_ - settings.tolerance * radius_;
  AppendResult result{seg, std::nullopt};
  for (int k = 0; k + 2 <= seg; ++k) {
    const Box kb{glm::min(points_[k], points_[k + 1]), glm::max(points_[k], points_[k + 1])};
    if (result.minGap && chain_detail::boxDistance(nb, kb) - 2.0 * radius_ >= *result.minGap)
      continue;
    const Real d = segmentDistance(points_[k], points_[k + 1], a, b);
    if (d < limit)
      return R::failure("the new segment " + std::to_string(seg) + " would intersect: " +
                        pairMessage(SegmentPair{k, seg, d - 2.0 * radius_}, radius_));
    result.minGap = std::min(result.minGap.value_or(d - 2.0 * radius_), d - 2.0 * radius_);
  }
  points_.push_back(b);
  return result;
}

Expected<int> Chain::removeLast() {
  if (points_.size() <= 2)
    return Expected<int>::failure("cannot remove the last segment: the chain has only one");
  points_.pop_back();
  return segmentCount();
}

}  // namespace tumble
