#pragma once
// Internal: the World's joints and their solver rows. Joints are solved in double on the solver
// bodies' double state (as the drag is), inside the contact solver's substep loop: prepared once
// per step, warm started each substep, solved before the contacts in each iteration with a soft
// position correction, and relaxed without it (Box2D v3's soft step, joint.c and solver.c); the
// equality rows of acyclic groups, and of the joints closing loops in them (Closure), are solved
// exactly after the contacts (joint_tree.h). Ball joints outside the groups are coloured and
// solved four to a row (joint_wide.h).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/contact_solver.h"
#include "dynamics/joint_tree.h"
#include "dynamics/joint_wide.h"
#include "tumble/detail/body_state.h"
#include "tumble/joint.h"
#include "tumble/result.h"
#include "tumble/settings.h"

namespace tumble {

// A scalar bound (limit) or drive (motor, spring) row's accumulated impulse, per substep.
struct AxialImpulses {
  Real spring = 0.0, motor = 0.0, lower = 0.0, upper = 0.0;
  Real sum() const { return spring + motor + lower - upper; }
};

// A scalar row: Cdot = vA.A.v + wA.A.w + vB.B.v + wB.B.w.
struct JointRow {
  Vec3 vA{0.0}, wA{0.0}, vB{0.0}, wB{0.0};
};

// A swing-twist's limit rows at the current pose (joint_solver.cpp), with their masses.
struct SwingTwistRows {
  JointRow cone, twist;
  Real coneC = 0.0;  // swing limit minus the swing angle (>= 0 wanted)
  Real twistAngle = 0.0;
  Real coneMass = 0.0, twistMass = 0.0;  // 1 / (J M^-1 J^T) of each row
  Mat3 frictionMass{0.0};                // (IA^-1 + IB^-1)^-1, with friction only
  bool hasCone = false;
  bool hasTwist = false;
};

// A joint's geometry at the bodies' current poses (joint_solver.cpp), from their motion since the
// step began. The poses move only when the solver integrates positions (once per substep), so it
// is computed once per pose for every pass that follows (warm start, solve, relax).
struct JointPose {
  Vec3 rA{0.0}, rB{0.0}, d{0.0};  // anchors from the centres; b's anchor minus a's
  Mat3 K{0.0};                    // the point rows' J M^-1 J^T (iterative ball-like rows only)
  Quat fA{1.0, 0.0, 0.0, 0.0};    // joint frames in world axes (not for a ball joint)
  Quat fB{1.0, 0.0, 0.0, 0.0};
  Real twist = 0.0;      // hinge, swing-twist: b's frame about the axis from a's, rad
  Real swing = 0.0;      // swing-twist: the angle between the two axes, rad
  Real axialMass = 0.0;  // hinge: 1 / (J M^-1 J^T) of the rotation about the axis
};

struct Joint {
  // Laid out by who reads it. The first five cache lines hold what a step reads of every joint
  // (prepare, the packing, finish: joint_grid walks 19,701 of them three times a step): kind,
  // solver bodies, impulses, anchors, the step's solver state and the reaction. The first line
  // holds what every pass over a ball-like joint reads: its kind, solver bodies, slot and point
  // impulse. (Ball joints outside the exact groups, joint_grid's 19,701, are solved four to a
  // row instead: joint_wide.h.)
  JointType type = JointType::Ball;
  bool alive = false;
  bool tree = false;   // this step: equality rows solved exactly in an acyclic group (joint_tree.h)
  int sa = 0, sb = 0;  // this step's solver bodies (0: immovable)
  int slot = 0;        // index in the step's active joints (JointSet::poses_)
  int a = -1, b = -1;  // body indices; -1 the static world
  uint32_t generation = 0;
  Vec3 linearImpulse{0.0};  // point (or slider perpendicular) rows, world, per substep
  Real h = 0.0;             // substep of the accumulated impulses
  Vec3 localAnchorA{0.0}, localAnchorB{0.0};  // from the centre of mass, body axes (world: world)
  Real breakForce = 0.0;
  bool collideConnected = false;

  // Solver state of the step.
  Vec3 rA{0.0}, rB{0.0};        // anchors from the centres, world axes, step start
  Vec3 deltaCenter{0.0};        // centre b - centre a at the step start
  Vec3 angularImpulse{0.0};     // locked rotation rows, world, per substep
  Vec3 reactionForce{0.0};      // N, last step
  Vec3 reactionTorque{0.0};     // N m, last step
  Quat qA{1.0, 0.0, 0.0, 0.0};  // joint frames in world axes at the step start
  Quat qB{1.0, 0.0, 0.0, 0.0};
  AxialImpulses axial;  // hinge, slider, distance (rigid in `spring` when a rod)
  AxialImpulses twist;  // swing-twist: lower/upper twist, cone in `spring`

  // The definition's other fields.
  Quat frameA{1.0, 0.0, 0.0, 0.0};  // joint frame (x: the axis) in body a's axes
  Quat frameB{1.0, 0.0, 0.0, 0.0};
  JointMotor motor;
  JointLimits limits;
  JointSpring spring;
  Real minLength = 0.0, maxLength = 0.0, restLength = 0.0;  // distance
  Real swing = 0.0;                                         // swing-twist cone, rad
  Real friction = 0.0;  // swing-twist: N m of dry friction (in angularImpulse, unused otherwise)
};

/// What is wrong with `spring` on a joint of `type` ("field: what", the field under the spring's
/// own name), or "" when nothing is: JointSet::create and World::setJointSpring both ask.
std::string springError(JointType type, const JointSpring& spring);

/// The joints of a World with their slots and generations.
class JointSet {
 public:
  /// Validates `def` against `bodies` and adds the joint; errors name the field.
  Expected<JointId> create(const JointDef& def, const std::vector<Body>& bodies);
  bool isAlive(JointId id) const;
  void destroy(int index);
  JointView view(int index, const std::vector<Body>& bodies) const;
  std::vector<Joint>& joints() { return joints_; }
  const std::vector<Joint>& joints() const { return joints_; }
  int count() const { return live_; }

  /// Whether a joint keeps bodies a < b from colliding (no `collideConnected`); the list is
  /// rebuilt on first use after joints were added or removed.
  bool keepsApart(int a, int b) const;

  // Solver hooks (contact_solver.cpp). prepare fills the solver state of every joint with an
  // awake body and lists the solver bodies they touch (sorted, unique).
  void prepare(const std::vector<Body>& bodies, const std::vector<int>& bodyToSolver,
               const std::vector<SolverBody>& solverBodies, const Settings& s, Real h, bool warm);
  const std::vector<int>& solverBodies() const { return touched_; }
  /// Geometric stiffness (Andrews, Teichmann and Kry 2017): adds to `torqueArm[body]` each
  /// joint's last point force (its point impulse over the substep it was solved at) times the
  /// anchor's arm from that body's centre, N m. `torqueArm` is sized by the caller, by body index.
  void geometricStiffness(std::vector<Real>& torqueArm) const;
  /// The solver moved the bodies (integrated positions): every joint's pose is computed again
  /// before the next pass, and the exact groups check how far their bodies turned.
  void posesMoved() {
    posesStale_ = treeStale_ = true;
    wide_.posesMoved();
  }
  void warmStart(std::vector<SolverBody>& sb);
  /// One pass over the joints' iterative rows (all rows of a joint outside the exact groups).
  void solve(std::vector<SolverBody>& sb, bool useBias);
  /// Whether solve has any row this step (a bridge whose hinges are all in a group has none:
  /// the solver then leaves the pass out, with its pull and push of the bodies' states).
  bool hasPassRows() const { return !iterative_.empty() || !wideMembers_.empty(); }
  /// Whether this step has exact groups (joint_tree.h): acyclic groups of ball, hinge, fixed and
  /// swing-twist joints whose equality rows solveGroups solves exactly.
  bool hasGroups() const { return !tree_.empty(); }
  /// The groups' equality rows, solved exactly; built and factored at the step's first pass and
  /// again at the first pass after a body turned a group entry's arm or hinge axis more than
  /// 0.01 rad since (kRelaxTurn; kShortArm for arms under 1 cm: a wheel hinged at its centre
  /// spins without a rebuild), the position errors carried along the kept rows in between.
  void solveGroups(std::vector<SolverBody>& sb, bool useBias);
  /// Reaction force and torque of each active joint from its impulses; fills `broken` with the
  /// joints whose force exceeded their break force.
  void finish(std::vector<int>& broken);

 private:
  friend struct SnapshotCodec;  // snapshot.h
  std::vector<Joint> joints_;
  std::vector<int> freeSlots_;
  std::vector<int> active_;     // joints prepared this step, index order
  std::vector<int> scalar_;     // of those, the ones solved one at a time (not in wide_)
  std::vector<int> iterative_;  // of those, the ones with rows for the passes (buildTree)
  std::vector<int> idle_;       // and the others: grouped, every row solveGroups' (no pose)
  std::vector<int> touched_;
  std::vector<JointPose> poses_;             // per active joint, at the bodies' current poses
  std::vector<SwingTwistRows> swingTwists_;  // per active joint, swing-twists only
  bool posesStale_ = true, treeStale_ = true;
  bool treeBuilt_ = false;  // the groups' rows were built and factored this step
  void updatePoses(const std::vector<SolverBody>& sb);
  // Per body a, from noCollideStart_[a]: the larger bodies b a joint keeps apart from it, sorted.
  mutable std::vector<int> noCollideStart_, noCollide_;
  mutable bool filterDirty_ = false;
  int live_ = 0;
  // Acyclic groups (joint_tree.h): per entry (elimination order) what the passes read of its
  // rows as they were built, and the pass's right-hand sides (treeR_, 6 per entry).
  struct GroupEntry {
    int joint = 0, sa = 0, sb = 0;
    int m = 0;              // rows: the point's 3, then rotation rows or the partner's point
    Vec3 rA{0.0}, rB{0.0};  // the point's arms
    // A second ball joint between the same two bodies, or a second hinge about the same axis
    // (buildTree's partner_): its point is rows 3-5, with arms rA2 (on sa) and rB2 (on sb); flip:
    // its body a is the entry's sb. A hinge's entry with a partner has no tilt rows.
    int partner = -1;
    bool flip = false;
    Vec3 rA2{0.0}, rB2{0.0};
    Vec3 axes[3] = {Vec3(0.0), Vec3(0.0), Vec3(0.0)};  // rotation rows 3.. (angular parts on b)
    Real lambda[6] = {};         // the rows' accumulated impulses, per substep
    Real C[6] = {}, C0[6] = {};  // position errors now and at the build
  };
  JointTree tree_;
  std::vector<JointTree::Link> links_;
  // Per joint: the second ball joint between the same two bodies, or the second hinge about the
  // same axis between two dynamic bodies, that its group entry solves with it (buildTree; -1:
  // none). Two joints between a pair would be a loop; as one entry of their two points' six
  // rows (one redundant: the mixing bounds it) they stay in the group. Another second joint
  // between a pair is left to the passes (JointTree::setLeavePairLoops).
  std::vector<int> partner_;
  // buildTree's scratch: the ball and pairable hinge links by their lower solver body
  std::vector<int> pairHead_, pairNext_;
  std::vector<char> movable_;
  std::vector<JointTree::Link> builtLinks_;  // tree_'s, as built last (buildTree)
  std::vector<char> builtMovable_;
  std::vector<GroupEntry> group_;
  std::vector<Real> treeR_;
  // The entries' impulses are newer than the joints' linearImpulse and angularImpulse
  // (storeGroupImpulses writes them back before the warm start, a build and finish read them).
  bool groupDirty_ = false;
  void storeGroupImpulses();
  // The groups' rows are kept while the bodies turn little (solveGroups): per solver body the
  // pose they were built at (its motion since the step began) and the motion since it.
  std::vector<Vec3> builtDp_, moveSince_, turnSince_;
  std::vector<Quat> builtDq_;
  void carryErrors();
  std::vector<char> rebuildGroup_;  // per group of tree_: its rows are built again (solveGroups)
  // An entry's rows, error and impulses at the bodies' poses now (solveGroups' build).
  void buildEntry(GroupEntry& g, JointTree::Rows& rows, const std::vector<SolverBody>& sbs);
  // Joints that close loops within a group the tree keeps (the links JointTree::setOpenLoops
  // leaves out: a ring's last joint; not a further joint between a pair an entry joins, which
  // stays in the passes: findClosers) are solved with their group exactly, through the Schur
  // complement of the group's factor K = L D L^T: S = A - B^T K^-1 B, the closing rows' mass with
  // the group holding, where A = J_c W J_c^T is their own (W: the bodies' inverse masses) and
  // B = J W J_c^T the group's rows' velocity from a unit impulse along each closing row. At each
  // build a forward substitution per closing row gives L^-1 B's column (its entries on the paths
  // from the closing joint's bodies to the group's root: JointTree::forwardGroup) and
  // B^T K^-1 B = (L^-1 B)^T D^-1 (L^-1 B); S is then factored. A pass solves the group, then S for
  // the closing rows' impulses, applies them, and solves the group once more for its rows' answer
  // to them (K x = B d).
  struct Closer {
    GroupEntry g;
    JointTree::Rows rows;
    int group = 0;  // tree_'s
  };
  struct Closure {
    int group = 0, first = 0, count = 0;  // closers_[first, first + count) in tree_'s group
    int m = 0;                            // their rows in all
    std::vector<Real> S;                  // m x m, its Cholesky factor (lower) once built
    std::vector<Real> WJ;                 // per row: W J_c^T on its body a (6), on its body b (6)
  };
  std::vector<Closer> closers_;
  std::vector<Closure> closures_;
  std::vector<int> bodySlot_, bodyGroup_;  // per solver body: its place in its group, the group
  // factorClosure's and solveClosures' scratch
  std::vector<Real> closeR_, closeE_, closeY_, closeDv_, closeYd_, closePd_;
  std::vector<int> closeReached_, closeBodies_;
  std::vector<char> closeLive_;
  std::vector<const Real*> closeJ_;
  std::vector<uint64_t> pairKeys_;  // findClosers' scratch: the entries' body pairs
  void findClosers();
  void factorClosure(Closure& c, const std::vector<SolverBody>& sbs);
  template <class VelocityOf>
  void groupRowsTimes(int grp, VelocityOf&& velocityOf, std::vector<Real>& r) const;
  void solveClosures(std::vector<SolverBody>& sbs, bool useBias);
  bool movingImmovable_ = false;  // a group entry has a kinematic body (buildTree)
  // Ball joints outside the groups, four to a row (joint_wide.h); their masses and impulses are
  // packed in prepare and stored back in finish (wideLoaded_: the rows hold the impulses).
  WideBallJoints wide_;
  std::vector<int> wideMembers_;
  std::vector<char> marks_;
  bool wideLoaded_ = false;
  void buildTree(const std::vector<Body>& bodies, const std::vector<SolverBody>& sbs);
  Softness soft_, treeSoft_;
  Real invH_ = 0.0;
  bool reverse_ = false;
};

}  // namespace tumble
