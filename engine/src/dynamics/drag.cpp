// Soft point constraint for dragging a body (Catto, "Soft Constraints", GDC 2011; Box2D's mouse
// joint): C = p - target, solved as a spring-damper with frequency f and damping ratio zeta.
#include "dynamics/drag.h"

#include <cmath>
#include <numbers>

namespace tumble {

void prepareDrag(DragConstraint& d, const Body& body, SolverBody& sb, int solverIndex, Real h) {
  d.solverBody = solverIndex;
  d.r = body.rotation * d.localAnchor;
  const Real m = body.mass;
  const Real omega = 2.0 * std::numbers::pi * d.def.frequency;
  const Real k = m * omega * omega;                     // N/m
  const Real c = 2.0 * m * d.def.dampingRatio * omega;  // N s/m
  const Real denom = h * (c + h * k);
  d.gamma = denom > 0.0 ? 1.0 / denom : 0.0;
  const Real beta = denom > 0.0 ? h * k / (c + h * k) : 0.0;
  const Vec3 C = body.center + d.r - d.target;
  d.bias = (beta / h) * C;
  // K = 1/m I - [r]x I^-1 [r]x + gamma I
  const Vec3 r = d.r;
  const Mat3 rx(0.0, r.z, -r.y, -r.z, 0.0, r.x, r.y, -r.x, 0.0);  // column-major skew matrix
  // The linear part is m^-1 on each free axis and 0 on a locked one (BodyDef::lockTranslation).
  Mat3 K = Mat3(sb.invMass) - rx * sb.invI * rx;
  if (sb.linearFree != Vec3(1.0))
    for (int a = 0; a < 3; ++a) K[a][a] -= sb.invMass * (1.0 - sb.linearFree[a]);
  K[0][0] += d.gamma;
  K[1][1] += d.gamma;
  K[2][2] += d.gamma;
  d.mass = std::abs(glm::determinant(K)) > 0.0 ? glm::inverse(K) : Mat3(0.0);
  d.maxImpulse = h * d.def.maxForcePerMass * m;
  d.impulse *= 0.0;  // no warm start across steps: the target moves under the user's hand
}

void solveDrag(DragConstraint& d, SolverBody& sb) {
  const Vec3 cdot = sb.v + glm::cross(sb.w, d.r);
  Vec3 lambda = d.mass * (-(cdot + d.bias + d.gamma * d.impulse));
  const Vec3 old = d.impulse;
  d.impulse += lambda;
  const Real len = glm::length(d.impulse);
  if (len > d.maxImpulse) d.impulse *= d.maxImpulse / len;
  lambda = d.impulse - old;
  sb.v += sb.invMass * lambda;
  sb.w += sb.invI * glm::cross(d.r, lambda);
}

}  // namespace tumble
