#pragma once
// Internal: the soft point constraint used for mouse dragging (Catto, "Soft Constraints", GDC
// 2011): a spring-damper expressed as a constraint with softness, stable at any stiffness.
#include "dynamics/contact_solver.h"
#include "tumble/world.h"

namespace tumble {

struct DragConstraint {
  int body = -1;
  Vec3 localAnchor{0.0};  ///< relative to the centre of mass, body axes
  Vec3 target{0.0};
  DragDef def;
  // Per-substep solver state.
  int solverBody = 0;
  Vec3 r{0.0};
  Mat3 mass{0.0};
  Vec3 bias{0.0};
  Real gamma = 0.0;
  Real maxImpulse = 0.0;
  Vec3 impulse{0.0};
};

/// Computes the effective mass and softness for substep length h.
void prepareDrag(DragConstraint& d, const Body& body, SolverBody& sb, int solverIndex, Real h);
/// One velocity iteration.
void solveDrag(DragConstraint& d, SolverBody& sb);

}  // namespace tumble
