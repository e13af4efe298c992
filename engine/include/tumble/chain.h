#pragma once
/// The foldable polygonal chain that can never pass through itself (issue 5).
///
/// Points p0..p(n-1), segments i = [p(i), p(i+1)], each a capsule of radius r. Segments i and j
/// with |i - j| >= 2 must stay at distance >= 2r; adjacent segments share a joint and are exempt.
/// The gap of a pair is its distance minus 2r. With T = chain.tolerance * r (Settings::Chain), a
/// chain intersects itself when some gap is < -T, and is in contact where a gap is <= T.
/// Every edit that moves points (fold, setSegmentLength) runs continuously and stops at the first
/// contact, guaranteed by conservative advancement: no configuration along the motion has a gap
/// < -T, and a motion that stops early ends in contact.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"
#include "tumble/settings.h"

namespace tumble {

/// Two segments (i < j, j - i >= 2) and their gap (distance - 2r, metres).
struct SegmentPair {
  int i = 0;
  int j = 0;
  Real gap = 0.0;
};

/// How a continuous edit ended.
enum class ChainMotionStatus {
  Completed,    ///< the whole requested motion was applied
  Blocked,      ///< stopped at the first contact (a gap <= T that was closing)
  MaxSubsteps,  ///< chain.max_substeps advancement steps were spent first; stopped there, safe
};

/// "completed", "blocked" or "max_substeps".
const char* toString(ChainMotionStatus status);

/// The outcome of a fold (or of a continuous length change: angles are then lengths in metres).
struct FoldResult {
  Real requested = 0.0;  ///< requested angle, radians (length change: metres)
  Real applied = 0.0;    ///< applied angle: same sign as requested, |applied| <= |requested|
  bool blocked = false;  ///< |applied| < |requested|
  ChainMotionStatus status = ChainMotionStatus::Completed;
  /// Least gap over all pairs |i-j| >= 2 after the edit (metres); none when the chain has
  /// fewer than 3 segments.
  std::optional<Real> minGap;
  std::optional<SegmentPair> contact;  ///< the pair that stopped the motion, when Blocked
  int substeps = 0;        ///< advancement steps (distance evaluations of candidate pairs)
  int candidatePairs = 0;  ///< pairs kept by the broad-phase for this motion
};

/// The outcome of a rigid placement edit (append).
struct AppendResult {
  int segment = 0;  ///< index of the new segment
  /// Least gap of the new segment against segments 0..n-3 (metres); none when there are none.
  std::optional<Real> minGap;
};

/// A chain of capsules; always valid (no gap < -T for the settings it was checked with). Pass the
/// same Settings::Chain to every edit: a pair already below a smaller -T blocks a motion at once.
class Chain {
 public:
  /// Validates and builds a chain: at least 2 points, finite coordinates, radius > 0 and finite,
  /// no zero-length segment, no intersecting pair (the error names the first pair in (i, j)
  /// order with its distance). `tolerance` is chain.tolerance.
  static Expected<Chain> create(std::vector<Vec3> points, Real radius,
                                const Settings::Chain& settings = {});

  const std::vector<Vec3>& points() const { return points_; }
  Real radius() const { return radius_; }
  int segmentCount() const { return static_cast<int>(points_.size()) - 1; }

  /// Turns points joint+1..n-1 rigidly about the line through points[joint] with direction
  /// `axis` (any length > 0, right-handed), continuously from 0 to `angle` radians, stopping at
  /// the first contact. Errors: joint outside [1, n-2], zero or non-finite axis, non-finite angle.
  Expected<FoldResult> fold(int joint, const Vec3& axis, Real angle,
                            const Settings::Chain& settings = {});

  /// Changes the length of segment k continuously to `length` (> 0 metres), moving points
  /// k+1..n-1 rigidly along the segment's direction, stopping at the first contact. The result's
  /// angles are lengths: requested/applied are the length changes in metres.
  Expected<FoldResult> setSegmentLength(int segment, Real length,
                                        const Settings::Chain& settings = {});

  /// Appends a segment at the free end: p(n) = p(n-1) + length * normalize(direction).
  /// Refused (chain unchanged) with the offending pair when it would intersect, or when the
  /// direction is zero/non-finite or the length not > 0.
  Expected<AppendResult> append(const Vec3& direction, Real length,
                                const Settings::Chain& settings = {});

  /// Removes the last segment; refused when only one segment is left.
  Expected<int> removeLast();

 private:
  Chain(std::vector<Vec3> points, Real radius) : points_(std::move(points)), radius_(radius) {}
  std::vector<Vec3> points_;
  Real radius_ = 0.0;
};

/// Pairs (i, j), j - i >= 2, with gap < margin, sorted by (i, j); through a bounding-volume
/// hierarchy over the segments (not the all-pairs loop). Points must be finite.
std::vector<SegmentPair> chainPairsWithin(const std::vector<Vec3>& points, Real radius,
                                          Real margin);

/// The same answer by the page's all-pairs loop, O(n^2); for tests and benchmarks.
std::vector<SegmentPair> chainPairsWithinAllPairs(const std::vector<Vec3>& points, Real radius,
                                                  Real margin);

/// The page's contact flags: c[i] is true iff segment i has a gap < margin with some segment j,
/// |i - j| >= 2 (through the broad-phase).
std::vector<bool> chainContactFlags(const std::vector<Vec3>& points, Real radius, Real margin);

/// The pair with the least gap over all pairs |i - j| >= 2 (branch and bound over the
/// hierarchy); none when the chain has fewer than 3 segments.
std::optional<SegmentPair> chainClosestPair(const std::vector<Vec3>& points, Real radius);

/// Checks a chain given as points: the first problem found (too few points, non-finite
/// coordinate, radius not > 0, zero-length segment, or the first intersecting pair in (i, j)
/// order, gap < -chain.tolerance * r): fails with a message naming it.
Expected<void> validateChain(const std::vector<Vec3>& points, Real radius,
                             const Settings::Chain& settings = {});

}  // namespace tumble
