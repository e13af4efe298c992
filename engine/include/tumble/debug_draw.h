#pragma once
/// What the World shows to a renderer: it calls these with world-space geometry. The engine never
/// draws; the demo implements this interface with GL (like Box2D's b2DebugDraw).

#include "tumble/aabb.h"
#include "tumble/body.h"

namespace tumble {

/// Colours as linear RGB in [0, 1].
struct Color {
  float r = 1.0f, g = 1.0f, b = 1.0f;
};

/// Which items World::debugDraw reports.
struct DebugDrawFlags {
  bool bodies = true;      ///< drawBody for every body
  bool aabbs = false;      ///< fat boxes of the broad-phase leaves
  bool treeNodes = false;  ///< internal nodes of the AABB tree, with depth
  bool contacts = true;    ///< points, normals and impulses
  bool islands = false;    ///< one box around each awake island
  bool joints = true;      ///< each joint: centres to anchors, the anchors' gap, its axis
};

class DebugDraw {
 public:
  virtual ~DebugDraw() = default;
  /// A body (its view holds the transform and whether it is awake) and its island (-1 when
  /// none).
  virtual void drawBody(const BodyView& body, int island) = 0;
  virtual void drawAabb(const Aabb& box, int depth, const Color& color) = 0;
  /// A contact point, its unit normal (from A to B) and the normal impulse (N s).
  virtual void drawContact(const Vec3& point, const Vec3& normal, Real normalImpulse,
                           Real separation) = 0;
  virtual void drawSegment(const Vec3& a, const Vec3& b, const Color& color) = 0;
};

}  // namespace tumble
