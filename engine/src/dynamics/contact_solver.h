#pragma once
// Internal: the sequential-impulse contact solver (Catto, "Iterative Dynamics with Temporal
// Coherence", GDC 2005; "Modeling and Solving Constraints", GDC 2009).
#include <vector>

#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/settings.h"

namespace tumble {

struct DragConstraint;

/// Velocity state of one body during a solve. Index 0 is the shared immovable body.
struct SolverBody {
  Vec3 v{0.0};
  Vec3 w{0.0};
  Real invMass = 0.0;
  Mat3 invI{0.0};
  int body = -1;  ///< index into the world's bodies, -1 for the immovable one
};

class ContactSolver {
 public:
  /// Gathers the manifolds that touch at least one awake dynamic body, and the drags.
  void prepare(std::vector<Body>& bodies, std::vector<Manifold>& manifolds,
               std::vector<DragConstraint*>& drags, const Settings& s, Real h);
  void warmStart();
  void solveVelocities();
  /// Restitution above the threshold for points that carried load (Box2D v3 "relax" scheme).
  void applyRestitution();
  /// Writes velocities back to the bodies.
  void storeVelocities();
  /// One nonlinear Gauss-Seidel pass on positions; returns the deepest remaining penetration (m).
  Real solvePositions();
  /// Writes accumulated impulses back to the manifolds for next step's warm start.
  void storeImpulses();

  int constraintCount() const { return static_cast<int>(constraints_.size()); }

 private:
  // Jacobians are precomputed once per substep (angular rows r x n and their images under the
  // inverse inertia), so an iteration only takes dot products and adds scaled vectors.
  struct Point {
    Vec3 nA{0.0}, nB{0.0};  ///< rA x n, rB x n
    Vec3 iA{0.0}, iB{0.0};  ///< invI_A (rA x n), invI_B (rB x n)
    Real normalMass = 0.0;
    Real bias = 0.0;  ///< target velocity offset along the normal (speculative or Baumgarte)
    Real normalImpulse = 0.0;
    Real maxNormalImpulse = 0.0;
  };
  struct Constraint {
    int a = 0, b = 0;  ///< solver body indices
    int manifold = -1;
    int count = 0;
    Vec3 normal{0.0}, t1{0.0}, t2{0.0};
    Real friction = 0.0, restitution = 0.0;
    Point p[4];
    Real k[4][4];  ///< normal coupling J_i M^-1 J_j^T
    Real l[10];    ///< Cholesky factor of K + eps I (lower triangle, packed row by row)
    bool cholesky = false;
    // The set of pushing points the last velocity solve settled on, with the Cholesky factor of
    // its sub-matrix: the set rarely changes between iterations, so it is tried first.
    int setCount = -1;  ///< -1: no cached set; 0: all points released
    int setIndex[4];
    Real setL[10];
    // Friction at the centre of the points: a 2x2 block for the tangents and a twist.
    Vec3 fA[2], fB[2];                ///< rAc x t_i, rBc x t_i
    Vec3 fIA[2], fIB[2];              ///< their images under the inverse inertias
    Vec3 twistIA{0.0}, twistIB{0.0};  ///< invI_A n, invI_B n
    Real tangentInv[2][2];            ///< inverse of the 2x2 tangent K
    Real twistMass = 0.0;
    /// m, arm of the twist limit: the points' mean distance from their centre, at least the depth
    Real twistArm = 0.0;
    Real frictionImpulse[2] = {0.0, 0.0};
    Real twistImpulse = 0.0;
  };

  std::vector<Body>* bodies_ = nullptr;
  std::vector<Manifold>* manifolds_ = nullptr;
  std::vector<DragConstraint*>* drags_ = nullptr;
  std::vector<SolverBody> solverBodies_;
  std::vector<int> bodyToSolver_;
  std::vector<Constraint> constraints_;
  // What only the position pass and restitution read, apart so the iterations touch less memory
  // (anchors come from the manifold itself).
  struct Cold {
    Vec3 localNormal{0.0};                            ///< normal in A's body frame
    Real relativeVelocity[4] = {0.0, 0.0, 0.0, 0.0};  ///< m/s, normal speed before the solve
    // Position pass: a manifold that needed no correction stays idle until a body moves.
    bool idle = false;
    uint32_t stamp = 0;      ///< moveCount_ when it was last measured
    Real idleDeepest = 0.0;  ///< m, least separation then
  };
  std::vector<Cold> cold_;
  std::vector<uint32_t> moveStamp_;  ///< per solver body: moveCount_ after its last correction
  uint32_t moveCount_ = 0;
  Settings::Contact contact_;
  Real h_ = 0.0;
  Real restitutionThreshold_ = 1.0;
  bool warmStarting_ = true;
  bool baumgarteInVelocity_ = false;
  int solverIndex(int body);
  void solveConstraint(Constraint& c);
  /// `cache`: read and update the constraint's cached active set (the velocity pass).
  void solveBlock(Constraint& c, const Real* r, const Real* old, Real* lambda, bool cache) const;
  int sweep_ = 0;
};

}  // namespace tumble
