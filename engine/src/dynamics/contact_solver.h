#pragma once
// Internal: the soft-step solver (Catto, "Solver2D" 2024 and Box2D v3; soft constraints, GDC 2011).
// Collision runs once per step; the solver then takes `solver.substeps` substeps, each of which
// integrates velocities, warm starts, solves the contacts with a soft (spring-damper) push-out,
// integrates positions, and relaxes (solves again without push-out, so the push-out leaves no
// velocity behind). Restitution follows the last substep.
//
// Layout. Contacts are coloured (constraint_graph.h: no two constraints of one colour share a
// moving body) and packed four to a row in structure-of-arrays form (wide.h), so one instruction
// advances four constraints, and a colour could be split across threads. Rows are generic: a
// joint will be one more row kind in the same colours. Rows gather body velocities and motion from
// an array of float body states (BodyState) and scatter the velocities back.
//
// Threads (issue 18). With a task system the step runs its loops in parallel: the bodies
// (preparation, velocity and position integration, the final velocities), the rows (packing,
// storing the impulses), and in every pass (warm start, solve, relax, restitution) the colours
// in order, each colour's rows in parallel, the overflow rows serial before the first. Each
// moving body has a home worker (layoutHomes); the solver bodies are numbered home by home and a
// worker runs its home's bodies and rows first, so a body's state stays in one core's cache
// (docs/ARCHITECTURE.md, "Contact solver", Threads). Every index writes only its own memory (a
// body, a row, a manifold; a colour's rows share no moving body, and no row writes an unmoving
// one), and no bit depends on a body's number or a constraint's row and lane, so the result is
// the serial result, bit for bit, at any thread count and any partition. Joints and drags stay
// serial between the loops.
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dynamics/constraint_graph.h"
#include "dynamics/joint_tree.h"
#include "dynamics/solver_body.h"
#include "dynamics/wide.h"
#include "tumble/contact.h"
#include "tumble/detail/body_state.h"
#include "tumble/settings.h"

namespace tumble {

struct DragConstraint;
class JointSet;
class TaskSystem;

/// A solver body's velocity and motion since the step began as the rows read them: in the rows'
/// lane type, sixteen lanes (64 bytes in float, one cache line), so a row gathers four bodies with
/// four aligned loads and one 4x4 transpose per quarter (Box2D v3's body state array). Lanes: v
/// (0-2), w (3-5), dp (6-8), dq w, x, y, z (9-12), padding.
struct alignas(16 * sizeof(wide::Lane)) BodyState {
  wide::Lane s[16];
};

/// Soft constraint coefficients for substep h (Catto, GDC 2011): a spring of `hertz` with damping
/// ratio `zeta`, written as a bias rate on the position error and scales on mass and impulse.
struct Softness {
  Real biasRate = 0.0;      ///< 1/s
  Real massScale = 1.0;     ///< in [0, 1]
  Real impulseScale = 0.0;  ///< in [0, 1]
};
Softness makeSoftness(Real hertz, Real zeta, Real h);

/// Which side of every lane of a contact row is the immovable solver body 0 (the ground, a
/// sleeping body, an empty lane), whose state is v = w = dp = +0 and dq = 1 all step (push(0),
/// never written). That side's velocity at any anchor stays +0 exactly through a row (+0 plus
/// +-0 is +0; 0 times a finite impulse is +-0), so a kernel for such a row drops its gather, its
/// arithmetic and its updates with the same bits: it computes (+0) - y where the general one
/// has (+0 + ...) - y, and x where it has x - (+0 + ...), which is x. Rows whose lanes are
/// of mixed kinds run the general kernel (None).
enum class Still : uint8_t { None, A, B };

class ContactSolver {
 public:
  ContactSolver();
  /// Advances every awake body by dt in s.solver.substeps substeps under the manifolds' contacts
  /// (those that touch an awake dynamic body) and the drags; stores the impulses back into the
  /// manifolds for the next step's warm start. With `tasks` (null: serial) the body and row loops
  /// run in parallel on it, with the same result bit for bit (see the header comment).
  void step(std::vector<Body>& bodies, std::vector<Manifold>& manifolds,
            std::vector<DragConstraint*>& drags, const Settings& s, Real dt,
            JointSet* joints = nullptr, TaskSystem* tasks = nullptr);

  /// Wall-clock ms of the last step by stage (StepStats::solverPrepareMs...).
  struct StageTimes {
    Real prepare = 0.0, warmStart = 0.0, solve = 0.0, relax = 0.0, integrate = 0.0, store = 0.0;
  };
  const StageTimes& stageTimes() const { return stageTimes_; }

  int constraintCount() const { return constraintCount_; }
  int colorCount() const { return graph_.colorCount(); }
  int overflowCount() const { return graph_.overflowCount(); }
  /// Rows of the last step that ran a Still::A or Still::B kernel.
  int stillRowCount() const { return stillRowCount_; }
  /// Off: every row runs the general kernel (for tests: the same bits either way).
  void setStillKernels(bool on) { stillKernels_ = on; }
  /// Whether rows are packed by the AVX2 build of packRow: on by default where the CPU has AVX2
  /// (x86-64 builds without -mavx2; hasAvx2Packing()). The same bits either way: it runs the same
  /// double operations four lanes to an instruction instead of two (no FMA, no reordering).
  /// Setting it on where the CPU lacks AVX2 keeps it off (for tests).
  void setAvx2Packing(bool on) { avx2Packing_ = on && hasAvx2Packing(); }
  bool avx2Packing() const { return avx2Packing_; }
  /// This build has an AVX2 packRow beside its baseline one and the CPU runs it.
  static bool hasAvx2Packing();

 private:
  // One contact point of four constraints: what every pass of every row reads.
  struct WidePoint {
    wide::Vec rA, rB;           ///< m, anchors relative to the centres at the step's start
    wide::Wide baseSeparation;  ///< m, separation minus dot(rB - rA, n) at the step's start
    wide::Wide normalMass;      ///< 1 / (J M^-1 J^T); 0 in lanes without this point
    wide::Wide normalImpulse;   ///< N s per substep, accumulated, warm started
    wide::Wide totalImpulse;    ///< N s, summed over the step (did the point carry load?)
  };
  // Four contact constraints (manifolds), one per lane; lanes past `lanes` are empty. The hot
  // part: what the warm start, solve, relax and store passes stream through for every row (1360
  // bytes; a box pyramid's rows need nothing else). What only some rows use is in the row's
  // WideCold, read where a flag here says so.
  struct WideContact {
    int a[wide::kLanes], b[wide::kLanes];  ///< solver bodies
    int manifold[wide::kLanes];            ///< -1 in an empty lane
    int lanes = 0;
    int points = 0;  ///< most points of any lane
    /// Per lane (bit l): the row writes body a (b) back. Only moving bodies are written: the
    /// immovable body 0 and kinematic bodies are read by many rows of a colour at once.
    uint8_t writeA = 0, writeB = 0;
    /// Still::A (B) when body a (b) of every lane is the immovable solver body 0 (the ground,
    /// a sleeping body, an empty lane): the row runs a kernel that neither gathers nor updates
    /// that side (see Still).
    Still still = Still::None;
    // Which parts of the row's WideCold its passes read (in the first line's padding).
    bool round = false;    ///< some lane has a radius (WideCold::radiusA, radiusB)
    bool rolling = false;  ///< some lane has rolling resistance (WideCold::rolling*)
    bool locked = false;   ///< some lane has a locked translation axis (WideCold::freeA, freeB)
    bool bounce = false;   ///< some lane's restitution is not 0 (the restitution pass runs)
    wide::Wide invMassA, invMassB;
    wide::Sym invIA, invIB;
    wide::Vec normal, t1, t2;
    wide::Vec centerA, centerB;  ///< m, the friction anchor (mean of the points) on each body
    wide::Wide tangentMass[3];   ///< inverse 2x2 tangent K: xx, xy, yy
    wide::Wide twistMass, twistArm;
    wide::Wide friction;
    wide::Wide biasRate, massScale, impulseScale;
    wide::Wide frictionImpulse[2], twistImpulse;
    WidePoint p[4];  ///< last: a row clears and reads only its first `points`
  };
  // The rare part of row r's contacts (cold_[r]): zero unless a lane uses it.
  struct WideCold {
    wide::Wide restitution;
    wide::Wide relativeVelocity[4];  ///< m/s, per point: normal speed at the step's start
    /// m, each lane's shapes' round radii (spheres, capsules; 0 for hulls). A round surface
    /// does not move as its body turns: the separation follows the core (see solve).
    wide::Wide radiusA, radiusB;
    /// Rolling resistance (Manifold::rollingResistance, m): an angular row on the relative spin
    /// about t1 and t2, its impulse clamped to the disc of radius resistance * load. Rows with no
    /// rolling lane skip it (and keep every bit of a world without rolling resistance).
    wide::Wide rollingResistance;
    wide::Wide rollingMass[3];  ///< inverse 2x2 angular K on t1, t2: xx, xy, yy
    wide::Wide rollingImpulse[2];
    /// Locked translation axes (BodyDef::lockTranslation): per lane, 1 where each body may move
    /// and 0 where not, multiplied into every linear impulse the row gives the body. Rows with
    /// no locked lane skip it (and keep every bit).
    wide::Vec freeA, freeB;
  };

  // Turns the still side's anchors of row c by the identity rotation, as the general kernel
  // does with body 0's dq every time it measures a separation (a zero lane may change sign).
  void fixAnchors(WideContact& c);
  // Calls f(std::integral_constant<Still, kind>{}) for row c's kind.
  template <class F>
  static void byStill(WideContact& c, F&& f);

  void prepareBodies(std::vector<Body>& bodies, bool jointed);
  void prepareBody(const std::vector<Body>& bodies, int si);
  void prepareContacts(const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                       const Settings& s, Real h);
  // Writes row r whole from its constraints' manifolds and solver bodies, four lanes at a time
  // (soft: between two moving bodies; hard: against an immovable or kinematic one). Runs
  // packRowAvx2 instead when avx2Packing_ is set.
  void packRow(int r, const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
               const Softness& soft, const Softness& hard);
  // packRow compiled for AVX2 (defined only where contact_solver.cpp's TUMBLE_AVX2_PACKING is
  // set): the same body, the same bits.
  void packRowAvx2(int r, const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                   const Softness& soft, const Softness& hard);
  // packRow's body, inlined into both.
  void packRowBody(int r, const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
                   const Softness& soft, const Softness& hard);
  // The double velocities in solverBodies_ stay the step's own; the rows work on states_. After
  // a push the state holds the lane-rounded velocities and motion; a pull adds what the rows
  // changed since (the state minus the rounded value pushed), so a body no row touched keeps its
  // double velocity bit for bit (free flight stays double). Every pull is followed by a push.
  // A step with no contact row (statesRead_ false: joint_grid) keeps no states: a push writes
  // nothing and a pull adds what it would have read back, the rounded value less itself.
  void pull(int i);
  void push(int i);
  // Runs `pass` over the joints on the double state of the bodies they touch (pull, pass, push).
  template <class Pass>
  void jointPass(JointSet& joints, Pass&& pass);
  void integrateVelocities(const std::vector<Body>& bodies, const Vec3& gravity, Real h);
  void integratePositions(Real h);
  template <Still still>
  void warmStart(WideContact& c);
  // How a pass finds each point's current separation. The bodies move only between a substep's
  // solve passes and its relax passes (integratePositions), so every pass from one relax pass to
  // the next substep's last solve pass sees the same separations: the relax measures and keeps
  // them, the passes after it read them back (the same bits: the same states, the same
  // operations). The step's first solve pass measures (no relax before it) and so does a first
  // solve pass with no relax pass in the substep before.
  enum class Separation { Measure, MeasureKeep, Kept };
  // useBias: the soft push-out (the solve pass); without it rigid (the relax pass). friction:
  // friction and twist too.
  template <bool useBias, bool friction, Separation separation, Still still>
  void solve(WideContact& c, bool reverse);
  // One pass of solve over every row (rowPass), each row with its Still kernel.
  template <bool useBias, bool friction, Separation separation>
  void solvePass(bool reverse);
  template <Still still>
  void restitution(WideContact& c);
  void store(std::vector<Manifold>& manifolds, Real substeps);
  // contact.exact_ratio (contact_tree.cpp): after the rows and the joints are prepared, finds the
  // loop-free groups of contacts joined to a contact with that mass ratio, factors their normal
  // rows' K and takes those rows out of the wide rows (normal mass and impulse scale 0 in their
  // lanes: the rows keep their friction, warm start and store). solveExact runs after every solve
  // and relax pass.
  void buildExact(const JointSet* joints);
  void solveExact(bool useBias);
  // Puts point k of entry e in the groups' rows (its Jacobian) or takes it out (zeros).
  void setExactRow(int e, int k, bool active);
  WideCold& coldOf(const WideContact& c) { return cold_[static_cast<size_t>(&c - rows_.data())]; }
  // Runs f(i) for i in [begin, end): in parallel on tasks_ when there are at least 2 * minGrain,
  // else serially.
  template <class F>
  void forEach(int begin, int end, int minGrain, F&& f);
  // Runs f on every row: the overflow rows one by one, then each colour's rows (in parallel).
  template <class F>
  void rowPass(F&& f);
  // With threads, a pass's colours in one parallel loop of one task per worker: the tasks take
  // blocks of a colour's rows and wait for the colour's last block before the next colour.
  struct PassBlocks {
    /// A range's claims (claimBlock): how many of its blocks this pass has taken, in the low 32
    /// bits, and the pass's generation in the high (a value of an older generation reads as 0).
    /// 128-byte lines: the cores move lines in aligned pairs.
    struct alignas(128) Cursor {
      std::atomic<uint64_t> next{0};
    };
    /// Per colour: blocks finished over the step's passes.
    struct alignas(128) Done {
      std::atomic<int> n{0};
    };
    std::unique_ptr<Cursor[]> cursor;  ///< per colour and home (rowPass)
    std::vector<Cursor> bodyCursor;    ///< per home (forEachBody)
    std::unique_ptr<Done[]> done;
    std::vector<int> first;  ///< per colour: its first block; then the total
    std::vector<int> home;   ///< per colour and worker: the home's first block in the colour
    std::vector<int> begin;  ///< per block: its first row; then the rows' end
    size_t cursorCapacity = 0;
    int colorCapacity = 0;
    uint32_t generation = 0;  ///< of the last pass
    int pass = 0;             ///< passes this step
  };
  void layoutBlocks();
  // The movers' homes (moverHome_) from their keys (homeKeys_).
  void layoutHomes(int workers);
  void balanceHomes();
  // Rows [first, end) of colour c whose home is w (with homes).
  std::pair<int, int> homeRows(int c, int w) const;
  // The generation of a new pass of claims (rowPass, forEachBody).
  uint32_t nextGeneration();
  // Runs f(i, next) for every solver body i > 0, next the body the loop visits a few after i (to
  // fetch ahead) or -1: with threads, each home's bodies on its worker.
  template <class F>
  void forEachBody(F&& f);
  // Runs f(r) for every row r: with threads, each home's rows on its worker.
  template <class F>
  void forEachRow(F&& f);
  PassBlocks blocks_;
  struct HomeKey {
    float x[3];
    int index;
  };
  int homes_ = 1;                    ///< this step's homes: the workers, or 1 (serial)
  std::vector<double> split_;        ///< per split (its middle worker): its lower side's body share
  std::vector<int64_t> homeLoad_;    ///< balanceHomes' scratch: work per home
  std::vector<int> movers_;          ///< with homes: the moving bodies, in body order
  std::vector<int> moverHome_;       ///< per mover: its home (layoutHomes)
  std::vector<HomeKey> homeKeys_;    ///< per mover: its centre and its number (layoutHomes)
  std::vector<HomeKey> homeSample_;  ///< layoutHomes' scratch: the keys its splits are made on
  std::vector<int> splitAxis_;       ///< per split: its axis, -1 for all to the lower side
  std::vector<HomeKey> splitPivot_;  ///< per split: the least key of its upper side
  std::vector<int> homeOf_;          ///< with homes: per solver body, its home worker
  std::vector<int> homeFirst_;       ///< with homes: per home, its first solver body; then the end
  std::vector<int> chunkHomes_;      ///< per chunk of movers and home: its count, then its first
  std::vector<int> solverBody_;      ///< per solver body: its body (prepareBodies' scratch)
  std::vector<int> colorHomes_;      ///< per colour and worker: the first row of that home
  std::vector<int> groupStart_;      ///< per colour: its constraints per home and point count
  std::vector<int> colorStill_;      ///< per colour: its rows of a Still kind

  std::vector<SolverBody> solverBodies_;
  std::vector<BodyState> states_;  ///< per solver body: what the rows gather and scatter
  std::vector<int> bodyToSolver_;
  std::vector<int> constraintBodies_;  ///< per candidate: solver a, solver b
  std::vector<int> constraintManifold_;
  // The constraint list's scratch: each chunk of manifolds writes its constraints from the chunk's
  // first manifold index on, and its count to chunkFound_ (then the running sum).
  struct Candidate {
    int manifold, a, b, points;
  };
  std::vector<Candidate> candidates_;
  std::vector<int> chunkFound_;
  std::vector<int> sorted_;    ///< the colours' constraints, grouped by home and point count
  std::vector<char> dynamic_;  ///< per solver body: coloured (moves under impulses)
  ConstraintGraph graph_;
  std::vector<WideContact> rows_;        ///< the step's are the first rowCount_
  std::vector<WideCold> cold_;           ///< per row: its rare part
  std::vector<wide::Wide> separations_;  ///< per row and point: kept by Separation::MeasureKeep
  int rowCount_ = 0;
  std::vector<int> colorRows_;   ///< colour c's rows are [colorRows_[c], colorRows_[c + 1])
  std::vector<int> rowMembers_;  ///< per row and lane: the constraint, -1 in an empty lane
  std::vector<int> rowPoints_;   ///< per row: its fullest lane's point count (at most 4)
  std::vector<Still> rowStill_;  ///< per row: its kind (Still)
  int stillRowCount_ = 0;
  StageTimes stageTimes_;
  bool stillKernels_ = true;
  bool avx2Packing_ = hasAvx2Packing();
  /// per constraint: its manifold's points (at most 4)
  std::vector<int8_t> constraintPoints_;
  TaskSystem* tasks_ = nullptr;  ///< this step's, null for one thread
  int constraintCount_ = 0;
  Real invH_ = 0.0;
  int substeps_ = 1;
  Real pushVelocity_ = 0.0;
  Real restitutionThreshold_ = 1.0;
  bool warmStarting_ = true;
  bool statesRead_ = true;   ///< this step has contact rows (they read states_)
  bool jointLocked_ = true;  ///< a body a joint touches has a locked linear component
  // contact.exact_ratio's groups (contact_tree.cpp).
  Real exactRatio_ = 0.0;
  /// Two dynamic bodies (inverse masses > 0) whose masses differ by exactRatio_ or more; never
  /// with exactRatio_ 0. prepare (to know whether to look for groups) and buildExact (which
  /// groups) ask the same question.
  bool ratioPair(Real invMassA, Real invMassB) const {
    return exactRatio_ > 0.0 && invMassA > 0.0 && invMassB > 0.0 &&
           std::max(invMassA, invMassB) >= exactRatio_ * std::min(invMassA, invMassB);
  }
  std::vector<char> chunkRatio_;  ///< per chunk of manifolds: it holds a pair at exactRatio_
  bool ratioFound_ = false;       ///< this step has such a pair
  /// Per body: its joints' forces times their arms, N m (geometric stiffness; empty: no joints).
  std::vector<Real> torqueArm_;
  Real addedInertia_ = 0.0;  ///< h^2 of the step's substep: I + h^2 torqueArm (prepareBody)
  JointTree exact_;
  std::vector<int> exactSlot_;        ///< per entry of exact_: its row * kLanes + lane
  Softness exactSoftness_;            ///< the groups' (contact.hertz between bodies)
  std::vector<uint8_t> exactDirty_;   ///< per group: its rows changed (factor it again)
  std::vector<Real> exactWorst_;      ///< per group: the most negative impulse of a round
  std::vector<int> exactWorstAt_;     ///< per group: its point (6 e + k), -1: none
  std::vector<uint8_t> exactLive_;    ///< per group: still in this pass's rounds
  std::vector<uint8_t> exactActive_;  ///< per entry: 6 flags, the point is in the solve
  std::vector<int> exactBodies_;      ///< the groups' solver bodies, in world body order
  std::vector<Real> exactR_;          ///< per entry: 6 values (solveExact's right side, then x)
  std::vector<int> exactParent_;      ///< buildExact's scratch: union-find over the solver bodies
  std::vector<char> exactMarked_;     ///< buildExact's scratch: per root, a ratio pair in it
  std::vector<char> exactEligible_;   ///< buildExact's scratch: per constraint, it may join
  std::vector<int> exactSlotOf_;      ///< buildExact's scratch: per constraint, its row and lane
  std::vector<JointTree::Link> exactLinks_;  ///< buildExact's scratch: the groups' contacts
  std::vector<int> exactLocal_;      ///< buildExact's scratch: per solver body, its group number
  std::vector<SolverBody> exactSb_;  ///< per group number: its solver body (0: immovable)
  std::vector<char> exactMovable_;   ///< per group number: 1 but for 0
};

}  // namespace tumble
