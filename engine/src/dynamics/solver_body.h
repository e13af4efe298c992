#pragma once
// Internal: a body's state in the solver (contact_solver.h, joint_tree.h).
#include "tumble/body.h"

namespace tumble {

/// Velocity state of one body during a step. Index 0 is the shared immovable body (static and
/// sleeping bodies, and the empty lanes of a row).
struct alignas(64) SolverBody {
  // First, the fields that every substep's integration reads and writes: in the body's first two
  // cache lines (the rest is read once per step, or by the joints and drags).
  Vec3 v{0.0};                  ///< m/s
  Vec3 w{0.0};                  ///< rad/s
  Vec3 dp{0.0};                 ///< m, translation since the step began
  Quat dq{1.0, 0.0, 0.0, 0.0};  ///< rotation since the step began
  Real invMass = 0.0;           ///< 1/kg, 0 for kinematic bodies
  int body = -1;                ///< index into the world's bodies, -1 for the immovable one
  /// Dynamic with no body options and force and torque +0 (the step's integration need not
  /// read the body: joint_grid's spheres).
  bool unforced = false;
  /// The body's centre of mass and rotation at the step's start. Its pose now is the start's
  /// moved by dp and turned by dq (poseNow): the substeps integrate only the motion, and the
  /// pose is composed where it is read (a drag, the step's end). rotateBy's update is linear in
  /// the quaternion before its normalisation, so composing with dq gives the rotation that
  /// updating the body's own would, to rounding, for one quaternion update per substep instead
  /// of two.
  Vec3 centerStart{0.0};
  Quat rotationStart{1.0, 0.0, 0.0, 0.0};
  Mat3 invI{0.0};        ///< world axes, fixed for the step
  Mat3 rotation{1.0};    ///< at the step's start
  Vec3 linearFree{1.0};  ///< per world axis: 0 where the translation is locked
};

}  // namespace tumble
