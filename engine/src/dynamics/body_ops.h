#pragma once
// Internal: making bodies from definitions and integrating them (semi-implicit Euler).
#include "tumble/detail/body_state.h"
#include "tumble/result.h"

namespace tumble {

/// Validates `def` and fills mass properties from the hull and density.
Expected<Body> makeBody(const BodyDef& def);

/// v += h (g + F/m), w += h I^-1 tau (semi-implicit Euler, velocities first).
void integrateVelocity(Body& b, const Vec3& gravity, Real h);

/// x += h v, q += h/2 (0, w) q, then renormalise q.
void integratePosition(Body& b, Real h);

/// Rotates `q` by the small rotation vector `theta` (rad) and renormalises.
Quat rotateBy(const Quat& q, const Vec3& theta);

/// Radius of the shape about its centre of mass (m).
Real boundingRadius(const Body& b);

}  // namespace tumble
