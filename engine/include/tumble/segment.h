#pragma once
/// Closest points between two line segments in 3D (the method is described in segment.cpp).

#include "tumble/math.h"

namespace tumble {

/// The closest points of segments A = [a0, a1] and B = [b0, b1].
struct SegmentClosest {
  Real distance = 0.0;  ///< |pointA - pointB| >= 0, metres
  Real s = 0.0;         ///< parameter on A in [0, 1]: pointA = a0 + s (a1 - a0)
  Real t = 0.0;         ///< parameter on B in [0, 1]: pointB = b0 + t (b1 - b0)
  Vec3 pointA{0.0};     ///< closest point on A
  Vec3 pointB{0.0};     ///< closest point on B
};

/// Closest points between segments [a0, a1] and [b0, b1]. Any input is valid: zero-length
/// segments (points), parallel and collinear overlapping segments (one of the closest pairs is
/// returned; the distance is exact). Inputs must be finite; the result is then finite.
SegmentClosest closestPointsSegmentSegment(const Vec3& a0, const Vec3& a1, const Vec3& b0,
                                           const Vec3& b1);

/// Distance between segments [a0, a1] and [b0, b1] (closestPointsSegmentSegment(...).distance).
Real segmentDistance(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1);

}  // namespace tumble
