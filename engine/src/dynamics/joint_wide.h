#pragma once
// Internal: the ball joints that stay soft rows (outside the exact groups: joint_grid's loops, a
// rope's heavy end) solved four at a time. They are coloured in a constraint graph (no two joints
// of one colour share a moving body) and packed four to a row in structure-of-arrays form, in the
// contact rows' lane type (wide.h: float by default, TUMBLE_SOLVER_FLOAT; the solver bodies'
// state stays double and is rounded into the lanes as it is gathered). The point row is Box3D's
// spherical joint, soft per Catto (GDC 2011): the same law as the one-at-a-time rows, in another
// order (colour by colour).
#include <cstdint>
#include <vector>

#include "dynamics/constraint_graph.h"
#include "dynamics/contact_solver.h"
#include "dynamics/wide.h"

namespace tumble {

struct Joint;

class WideBallJoints {
 public:
  /// One value of four joints (wide.h's lanes, vectors and symmetric matrices).
  using Lanes = wide::Wide;
  using V = wide::Vec;
  using S = wide::Sym;
  /// Four ball joints, one per lane; lanes past `lanes` are empty (the immovable body 0).
  struct Row {
    int a[4] = {}, b[4] = {};  ///< solver bodies
    int joint[4] = {};         ///< index into the joints, -1 in an empty lane
    int lanes = 0;
    uint8_t writeA = 0, writeB = 0;  ///< per lane (bit l): body a (b) moves and is written back
    Lanes invMassA{}, invMassB{};
    S invIA{}, invIB{};
    V rA{}, rB{}, d{};  ///< at the current pose: anchors, b's anchor minus a's
    S mass{};           ///< K^-1 at the current pose (0 where K is singular)
    V impulse{};        ///< N s per substep, accumulated
  };

  /// A row's anchors from the centres and centre b - centre a at the step's start: read only
  /// where the pose is computed, so kept apart from the rows every pass streams through.
  struct Start {
    V rA0{}, rB0{}, center{};
  };

  /// Colours `members` (indices into `joints`, ball joints with their solver state prepared)
  /// over the solver bodies below `bodyCount` (`dynamic[k]`: body k moves) and packs them with
  /// their bodies' masses (`sb`) and their impulses.
  void build(const std::vector<Joint>& joints, const std::vector<int>& members,
             const std::vector<char>& dynamic, int bodyCount, const std::vector<SolverBody>& sb);
  bool empty() const { return rowCount_ == 0; }
  /// The bodies moved: the next pass computes each row's anchors, gap and K^-1 again.
  void posesMoved() { posesStale_ = true; }
  void warmStart(std::vector<SolverBody>& sb);
  /// One pass: the overflow rows, then the colours in order (`backwards`: the reverse order).
  void solve(std::vector<SolverBody>& sb, bool useBias, const Softness& soft, bool backwards);
  /// Writes the accumulated impulses back to the joints.
  void store(std::vector<Joint>& joints) const;

 private:
  ConstraintGraph graph_;
  std::vector<int> pairs_;
  std::vector<Row> rows_;      ///< the step's are the first rowCount_ (kept between steps)
  std::vector<Start> starts_;  ///< per row
  int rowCount_ = 0;
  bool posesStale_ = true;
};

}  // namespace tumble
