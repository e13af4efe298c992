#pragma once
// Internal: making bodies from definitions and integrating them (semi-implicit Euler).
#include "tumble/detail/body_state.h"
#include "tumble/result.h"

namespace tumble {

/// Validates `def` and fills mass properties from the hull and density.
Expected<Body> makeBody(const BodyDef& def);

/// Sets b.hasOptions from its damping, gravity scale and locks (after any of them changes).
void refreshOptions(Body& b);

/// Rotates `q` by the small rotation vector `theta` (rad) and renormalises. Inline: the solver
/// calls it for every awake body once a substep (on the body's turn since the step began).
inline Quat rotateBy(const Quat& q, const Vec3& theta) {
  // First-order quaternion update q' = q + 1/2 (0, theta) q, renormalised (Baraff 1997, sec. 4).
  const Quat w(0.0, theta.x, theta.y, theta.z);
  const Quat r = q + 0.5 * (w * q);
  return r / glm::length(r);
}

/// How far a body's surface may travel in one step of h seconds (m): widens its box and the
/// speculative distance of its pairs, so fast bodies meet thin ones (speculative CCD). 0 for a
/// static or sleeping body. A turn moves a sphere's surface only as far as it moves the sphere's
/// centre (none when the centre of mass is there): its arm is the centre's distance from the
/// centre of mass. Other shapes add the turn at their bounding radius. (A capsule's or rounded
/// hull's surface moves no faster than its core's points, a tighter bound that was tried: the
/// rope's whipping links, whose speeds change within the step, then pressed 12.5 mm into each other
/// instead of 5.1 mm, the margin being what caught them.)
inline Real reach(const Body& b, Real h) {
  if (b.type == BodyType::Static || !b.awake) return 0.0;
  const RoundCore* round = b.shape.round();
  const Real arm = round && round->count == 1 ? std::max(0.0, b.radius - round->radius) : b.radius;
  return h * (glm::length(b.linearVelocity) + glm::length(b.angularVelocity) * arm);
}

/// Radius of the shape about its centre of mass (m).
Real boundingRadius(const Body& b);

/// The radius a convex shape rolls on (m), which BodyDef::rollingResistance scales into a
/// length: a sphere's, capsule's or rounded hull's radius, a cylinder's radius; 0 for a hull (it
/// tips, it does not roll), for the static kinds and for a compound as a whole (its children
/// roll; see rollingResistance). The one place a new rolling kind is added.
Real rollingRadius(const Shape& convex);

/// The rolling resistance (m, Manifold::rollingResistance) of the contact between child `childA`
/// of A and child `childB` of B (ChildContact::key's halves; 0 for a convex shape): the larger of
/// each body's rollingResistance times its child's rolling radius. 0 when neither body has any.
Real rollingResistanceOf(const Body& a, uint32_t childA, const Body& b, uint32_t childB);
/// rollingResistanceOf, without a call when neither body has rolling resistance (most contacts).
inline Real rollingResistance(const Body& a, uint32_t childA, const Body& b, uint32_t childB) {
  if (a.rollingResistance == 0.0 && b.rollingResistance == 0.0) return 0.0;
  return rollingResistanceOf(a, childA, b, childB);
}

}  // namespace tumble
