#pragma once
/// The World: bodies, contacts, joints (joint.h) and the step. It orchestrates the broad-phase
/// (aabb_tree.h), the narrow-phase (gjk.h, epa.h, manifolds), the contact solver, islands and
/// sleeping; each lives in its own file under src/.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tumble/aabb_tree.h"
#include "tumble/body.h"
#include "tumble/collide.h"
#include "tumble/contact.h"
#include "tumble/debug_draw.h"
#include "tumble/detail/body_state.h"
#include "tumble/detail/island_scratch.h"
#include "tumble/detail/narrow_scratch.h"
#include "tumble/events.h"
#include "tumble/joint.h"
#include "tumble/nonfinite.h"
#include "tumble/query.h"
#include "tumble/result.h"
#include "tumble/settings.h"
#include "tumble/stats.h"
#include "tumble/task.h"

namespace tumble {

/// The first body a ray meets.
struct RayHit {
  bool hit = false;
  BodyId body;
  Vec3 point{0.0};      ///< m, world
  Vec3 normal{0.0};     ///< unit outward surface normal at the point
  Real fraction = 0.0;  ///< in [0, 1] of the cast segment
};

/// A soft constraint pulling a body's point towards a target (mouse dragging). Spring-damper
/// tuned by frequency and damping ratio, force limited (Catto, "Soft Constraints", GDC 2011).
struct DragDef {
  Real frequency = 5.0;           ///< Hz, > 0
  Real dampingRatio = 0.7;        ///< >= 0
  Real maxForcePerMass = 1000.0;  ///< N/kg, the force cap is this times the body mass
};

/// A handle to a drag constraint. Like BodyId, a destroyed drag's slot is reused with the next
/// generation, so a kept id stops working rather than moving another drag.
struct DragId {
  int index = -1;
  uint32_t generation = 0;
  bool valid() const { return index >= 0; }
  friend bool operator==(DragId, DragId) = default;
};

/// Kinetic and gravitational potential energy (J) of the dynamic bodies.
struct Energy {
  Real kinetic = 0.0;
  Real potential = 0.0;  ///< -m g.x relative to the origin
  Real total() const { return kinetic + potential; }
};

class ContactSolver;
class JointSet;
struct DragConstraint;

/// The simulation: bodies, their contacts, joints and drags, stepped by step(dt).
///
/// Handles: every method taking a BodyId or DragId checks it (slot in range, alive, same
/// generation). A stale or foreign id goes to the assert handler (tumble/assert.h: aborts in
/// debug builds, prints in release builds) and the call does nothing; a reader returns a failed
/// Expected. No call with a stale id ever reads or writes another body.
class World {
 public:
  /// Fails when `settings` is out of range (see validate()).
  static Expected<std::unique_ptr<World>> create(const Settings& settings = {});
  /// `settings` must be valid (create() checks; this constructor asserts and uses the defaults
  /// for an invalid one).
  explicit World(const Settings& settings = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  /// The settings in force. They are validated when set, never in step().
  const Settings& settings() const { return settings_; }
  /// Replaces the settings between steps. Fails (naming the key, value and range) and changes
  /// nothing when one is out of range. A change that alters how bodies move (anything but `dt`,
  /// which the World does not read) wakes every body; setting equal values wakes nothing.
  Expected<void> setSettings(const Settings& settings);
  /// Sets one key from its text form (settings.h setSetting), as setSettings does.
  Expected<void> setSetting(std::string_view key, std::string_view value);
  /// Plugs a game's task system (tumble/task.h) in place of the World's own pool of `threads`
  /// workers; nullptr goes back to the pool. Not owned: it must outlive its use by this World.
  /// The result of a step does not depend on it. Kept when a snapshot is restored.
  void setTaskSystem(TaskSystem* tasks) { externalTasks_ = tasks; }
  /// Workers a step runs on: the plugged task system's count, else the `threads` setting (0: the
  /// hardware's threads).
  int threadCount() const;

  /// Creates a body. Fails, naming the field, on a null shape, a non-finite or zero orientation,
  /// a non-finite value, a non-positive density of a dynamic body, friction outside [0, 10],
  /// restitution outside [0, 1], a negative or non-finite rolling resistance or damping, or a
  /// non-finite gravity scale. A locked axis's initial velocity component is dropped.
  Expected<BodyId> createBody(const BodyDef& def);
  /// Removes a body with its contacts, joints and drags, and wakes what it touched or slept with
  /// (so nothing stays asleep on a support that is gone). A stale id is reported (see above).
  void destroyBody(BodyId id);
  /// True when `id` names a body of this world that has not been destroyed.
  bool isAlive(BodyId id) const;
  /// A copy of the body's state; fails (naming the id) when `id` is not alive.
  Expected<BodyView> body(BodyId id) const;
  /// The id of the body in slot `index` (indices from the broad-phase's user data or the order
  /// of bodyIds()); an invalid id when the slot is empty or out of range.
  BodyId idAt(int index) const {  // inline: the narrow phase asks it four times per pair
    if (index < 0 || index >= static_cast<int>(bodies_.size()) || !bodies_[index].alive) return {};
    return {index, bodies_[index].generation};
  }
  /// Live body ids in slot order (creation order until a slot is reused).
  std::vector<BodyId> bodyIds() const;
  int bodyCount() const { return liveBodies_; }

  /// Teleports a body (wakes it; contacts are rebuilt next step).
  void setTransform(BodyId id, const Transform& xf);
  /// Sets the velocity of a dynamic or kinematic body (wakes it); ignored for static bodies.
  void setLinearVelocity(BodyId id, const Vec3& v);
  void setAngularVelocity(BodyId id, const Vec3& w);
  /// Adds a force (N) at a world point for the next step; wakes the body. Dynamic bodies only.
  void applyForce(BodyId id, const Vec3& force, const Vec3& point);
  void applyTorque(BodyId id, const Vec3& torque);
  /// An instantaneous impulse (N s) at a world point; wakes the body. Dynamic bodies only.
  void applyLinearImpulse(BodyId id, const Vec3& impulse, const Vec3& point);
  /// Sets the velocities of a kinematic body so that the next step(dt) (with the settings in
  /// force) lands it on `target` (its shape's frame, as setTransform's): the linear velocity
  /// moves the centre of mass there, the angular velocity turns it by the shortest rotation,
  /// matched to the solver's substep rotation update so the pose is met to rounding. The
  /// velocities stay after that step (call again each step, or set them to zero). Ignored, with
  /// a report to the assert handler, for a body that is not kinematic, a non-finite target or a
  /// dt outside step()'s range.
  void moveKinematic(BodyId id, const Transform& target, Real dt);
  /// BodyDef::linearDamping and angularDamping (1/s). Fail, naming the field, unless finite and
  /// >= 0. Dynamic bodies only (ignored for others); wake the body.
  Expected<void> setDamping(BodyId id, Real linear, Real angular);
  /// BodyDef::gravityScale; fails unless finite. Dynamic bodies only; wakes the body.
  Expected<void> setGravityScale(BodyId id, Real scale);
  /// BodyDef::lockTranslation and lockRotation (world x, y, z): a newly locked axis's velocity
  /// component is set to 0. Dynamic bodies only; wakes the body.
  void setLocks(BodyId id, const bool (&translation)[3], const bool (&rotation)[3]);
  /// BodyDef::bullet. Dynamic bodies only.
  void setBullet(BodyId id, bool bullet);
  /// Wakes the body and the island it sleeps with.
  void wake(BodyId id);
  void setUserData(BodyId id, uint64_t userData);

  /// Advances the world by `dt` seconds: collision once, then settings().solver.substeps solver
  /// substeps (docs/ARCHITECTURE.md, "One step"). A game passes
  /// its frame time: a dt that changes from one step to the next neither wakes bodies nor resets
  /// warm starting. dt = 0 does nothing. Fails (changing nothing) unless dt is finite and in
  /// [1e-5, 0.1] s (clamp a long frame, or take several steps). Allocates nothing once the
  /// world's bodies and contacts have been seen once.
  Expected<void> step(Real dt);

  /// The contact manifolds of the last step, sorted by (a, b): the pairs with contact points
  /// (touching, or speculative: within reach, with a positive separation).
  const std::vector<Manifold>& manifolds() const { return manifolds_; }
  /// Every broad-phase pair of the last step whose bodies were looked at (touching or not), sorted
  /// by (a, b), with its GJK warm start and the index of its manifold.
  const std::vector<ContactPair>& contactPairs() const { return pairs_; }

  /// The contact events of the last step (events.h): pairs that began or ended touching, and hits.
  /// Kept until the next step; a step with nothing to report costs a pass over the pairs.
  const ContactEvents& contactEvents() const { return contactEvents_; }
  /// The sensor events of the last step (events.h): the overlaps that began or ended, found at the
  /// end of the step (after the solver moved the bodies).
  const SensorEvents& sensorEvents() const { return sensorEvents_; }
  /// The sorted (sensor, visitor) overlaps of the last step.
  const std::vector<SensorEvent>& sensorOverlaps() const { return sensorOverlaps_; }
  /// Replaces a body's filter (BodyFilter, shouldCollide). Pairs it now rejects end at the next
  /// step (end events), pairs it now accepts begin then; wakes the body and the bodies whose
  /// broad-phase pairs it has.
  void setFilter(BodyId id, const BodyFilter& filter);
  /// Installs the contact filter (events.h, ContactFilter), or removes it when empty. It is asked
  /// from the next step on; sleeping bodies it newly lets touch are not woken (call wake).
  void setContactFilter(ContactFilter filter);
  const StepStats& stats() const { return stats_; }
  const BroadPhase& broadPhase() const { return broadPhase_; }

  /// First body hit by the segment origin -> origin + direction (fraction in [0, 1]); every
  /// body considered (castRayClosest with the default filter).
  RayHit rayCast(const Vec3& origin, const Vec3& direction) const;

  // Queries. Each goes through the broad-phase tree and considers only the bodies `filter`
  // accepts (query.h: category and mask bits, an ignored body, a predicate). Results
  // do not depend on the tree's shape: ties and lists are ordered by body index. Answers hold for
  // the bodies' current poses, also for a body the last step moved past its fat box. Queries
  // change nothing in the world (the simulation's bits are the same with or without them), but
  // share scratch (the tree's stack, the list of such bodies): one query at a time per World.

  /// The closest body the segment origin -> origin + translation enters (ties: lower index);
  /// nothing for a zero translation. A ray starting inside a body hits it at fraction 0.
  std::optional<RayCastHit> castRayClosest(const Vec3& origin, const Vec3& translation,
                                           const QueryFilter& filter = {}) const;
  /// Some body the segment enters: the first found in the tree (fast; not the closest).
  std::optional<RayCastHit> castRayAny(const Vec3& origin, const Vec3& translation,
                                       const QueryFilter& filter = {}) const;
  /// Every body the segment enters, once each (where it enters), sorted by fraction then body
  /// index.
  std::vector<RayCastHit> castRayAll(const Vec3& origin, const Vec3& translation,
                                     const QueryFilter& filter = {}) const;

  /// Bodies whose tight box (Shape::bounds at their pose, not the broad-phase's fat box)
  /// overlaps `box` (touching counts), sorted by index.
  std::vector<BodyId> overlapAabb(const Aabb& box, const QueryFilter& filter = {}) const;
  /// Bodies that `shape` posed by `xf` overlaps or touches: GJK on the cores, the radii
  /// subtracted, against each convex body, each compound child and each mesh or height-field
  /// triangle (two-sided here) near it. Sorted by index. `shape` must be convex (hull, sphere,
  /// capsule, cylinder, rounded hull); any other gives an empty list.
  std::vector<BodyId> overlapShape(const Shape& shape, const Transform& xf,
                                   const QueryFilter& filter = {}) const;
  /// Bodies within `radius` (m, >= 0) of `center` (overlapShape with a sphere), sorted by index.
  std::vector<BodyId> overlapSphere(const Vec3& center, Real radius,
                                    const QueryFilter& filter = {}) const;
  /// The first body the convex `shape`, posed by `xf` and moved by `translation` (m, world; no
  /// rotation), touches: castCores (shape_cast.h, conservative advancement on GJK distance)
  /// against each convex body, compound child and mesh or height-field triangle (two-sided)
  /// near the sweep. Ties: lower body index, then lower child. A body overlapping the shape at
  /// the start is hit at fraction 0. Nothing for a non-convex shape or a miss.
  std::optional<ShapeCastHit> castShape(const Shape& shape, const Transform& xf,
                                        const Vec3& translation,
                                        const QueryFilter& filter = {}) const;

  /// Starts dragging the dynamic body `body` by its point under `worldPoint`. Fails when the
  /// body is not alive or not dynamic, or `def` is out of range.
  Expected<DragId> createDrag(BodyId body, const Vec3& worldPoint, const DragDef& def = {});
  /// Moves the drag's target (m, world); wakes the body.
  void setDragTarget(DragId drag, const Vec3& target);
  void destroyDrag(DragId drag);
  /// True when `drag` names a drag that has not been destroyed (destroying its body destroys it).
  bool isAlive(DragId drag) const;
  /// Live drag ids in slot order.
  std::vector<DragId> dragIds() const;

  /// Creates a joint (tumble/joint.h). Fails, naming the field, on a body that is not alive, a
  /// body joined to itself, both bodies the static world, a zero axis, lower > upper, a
  /// non-finite value or a break force <= 0. Wakes the bodies.
  Expected<JointId> createJoint(const JointDef& def);
  /// Removes a joint and wakes its bodies. A stale id is reported (as for bodies).
  void destroyJoint(JointId id);
  /// True when `joint` names a joint that has not been destroyed (destroying one of its bodies
  /// or breaking destroys it).
  bool isAlive(JointId joint) const;
  /// A copy of the joint's state; fails (naming the id) when `id` is not alive.
  Expected<JointView> joint(JointId id) const;
  /// Live joint ids in slot order.
  std::vector<JointId> jointIds() const;
  int jointCount() const;
  /// Replace a hinge's or slider's motor, limits or spring between steps (a distance joint's
  /// spring too); wake the bodies. A part switched off gives up its accumulated impulse (none
  /// is carried into later steps). Fail, naming the field, on an out-of-range value or a joint
  /// kind without that part.
  Expected<void> setJointMotor(JointId id, const JointMotor& motor);
  Expected<void> setJointLimits(JointId id, const JointLimits& limits);
  Expected<void> setJointSpring(JointId id, const JointSpring& spring);
  /// Joints removed by the last step because their reaction force exceeded their break force
  /// (their ids are no longer alive).
  const std::vector<JointId>& brokenJoints() const { return brokenJoints_; }

  /// Kinetic plus potential energy of the dynamic bodies (J).
  Energy energy() const;

  /// Cross-check disagreements are appended to this JSON Lines file (collide format); empty: none.
  void setCrossCheckLog(std::string path) { crosscheckLog_ = std::move(path); }

  /// Reports bodies, boxes, contacts and islands to `draw`.
  void debugDraw(DebugDraw& draw, const DebugDrawFlags& flags = {}) const;

  /// FNV-1a hash of every live body's centre, rotation and velocities (the bits of the doubles):
  /// equal hashes mean bit-identical states (determinism tests, golden runs).
  uint64_t stateHash() const;

  /// Steps taken so far (dt = 0 steps are not counted).
  int64_t stepCount() const { return stepCount_; }

  /// Calls that changed (or may have changed) the world other than step(): every public
  /// non-const method but step, setCrossCheckLog and the queries counts one, whether or not its
  /// id was alive (setSettings only when a value differs). A recorder (tumble/timeline.h) compares
  /// it between steps to know whether the steps since its last keyframe can be replayed from it.
  /// Not saved in snapshots; restoring one counts as an edit.
  uint64_t editCount() const { return edits_; }

  /// Bodies removed because their state became non-finite (policy in nonfinite.h), oldest first.
  const std::vector<NonFiniteEvent>& nonFiniteEvents() const { return nonFinite_; }

 private:
  friend struct WorldInternals;  // engine-internal access for tests (dynamics/world_internals.h)
  friend struct SnapshotCodec;   // snapshot.h: reads and writes every member
  // Restoring a snapshot builds a fresh World and moves it in whole (world_snapshot.cpp).
  World& operator=(World&&) noexcept;
  bool checkBody(BodyId id, const char* call) const;
  bool checkDrag(DragId id, const char* call) const;
  BodyView viewOf(int index) const;
  bool accepts(const QueryFilter& filter, int index) const;
  // The piece `child` (body_cores.h's index) of a body accepts() passed: false for a sensor
  // child or a child whose own filter the query's bits reject.
  bool acceptsPiece(const QueryFilter& filter, const Body& b, int child) const;
  void refreshStale() const;
  bool rayBody(int index, const RayInput& ray, const QueryFilter& filter, RayCastHit& hit) const;
  std::vector<BodyId> overlapCore(const SupportShape& core, const Transform& xf, Real radius,
                                  const Aabb& box, const QueryFilter& filter) const;
  // The plugged task system, else the pool of settings_.threads workers (made when first
  // needed and again when the setting changes); null when the step runs on one thread.
  TaskSystem* taskSystem();
  void updateBroadPhase(Real h, const Settings& s);
  void updateContacts(Real h, const Settings& s);
  // The narrow phase's passes (world_narrow.cpp): what a pair needs, and its manifolds.
  void classifyPair(NarrowJob& job, Real h, const Settings& s) const;
  void collidePair(const NarrowJob& job, const Settings& s, std::vector<ChildContact>& scratch,
                   NarrowSummary& summary, std::vector<Manifold>& children,
                   std::vector<Manifold>* convex) const;
  void mergeSerial(Real h, const Settings& s, NarrowPhaseCounters& counters);
  void collideJobs(TaskSystem* tasks, Real h, const Settings& s);
  void mergeJobs(TaskSystem* tasks, Real h, const Settings& s, NarrowPhaseCounters& counters);
  void fetchPairBody(int b) const;
  void measureJob(NarrowJob& job, size_t k) const;
  const Manifold* jobManifolds(const NarrowJob& job, size_t k) const;
  void updateSleep(Real dt, const Settings& s);
  void countStep();
  void sweepBullets();
  Aabb bodyAabb(const Body& b) const;
  void wakeIsland(int island);
  void wakeBody(int index);
  void reindexPairs();
  // Joint hooks (world_joints.cpp).
  void destroyJointsOf(int body);
  void wakeJointed();
  void breakJoints();
  bool jointFiltered(int a, int b) const;
  bool anyJoint() const;
  // Events and filtering (world_events.cpp).
  // The bodies' own filters reject the pair (neither a compound whose children carry filters or
  // sensors: their pieces decide, in filterPairs). Asked by the broad phase's pair callback and
  // by filterPairs.
  bool bodyFiltersReject(const Body& a, const Body& b) const;
  void filterPairs(std::vector<std::pair<int, int>>& keys);
  void settleTouch(ContactPair& p, bool was, const std::vector<Manifold>& manifolds);
  static bool touches(const Manifold* first, int count, bool was);
  void touchEvent(BodyId a, BodyId b, bool was, bool touching, const Manifold* first, int count);
  void pairGone(const ContactPair& old);
  void findHitCandidates();
  void reportHits();
  void updateSensors();
  void beginEvents();
  void endEvents();
  void eventsOnDestroy(BodyId id);
  // Adds sign to the counts of live bodies with a filter, a sensor flag, a hit speed or the
  // bullet flag (a step skips each feature's work while its count is 0).
  void countFlags(const Body& b, int sign);
  void drawJoints(DebugDraw& draw) const;

  Settings settings_;
  TaskSystem* externalTasks_ = nullptr;
  std::unique_ptr<ThreadPool> pool_;
  std::vector<Body> bodies_;
  std::vector<Aabb> boxes_;  // per body: tight box grown by half the speculative margin and reach
  // per body: its reach this step (body_ops.h) where the broad phase grew its box, -1 for the
  // bodies it did not move (the narrow phase computes theirs)
  std::vector<Real> reach_;
  std::vector<uint8_t> escaped_;  // with threads, per body: its box left its fat box this step
  std::vector<int> freeSlots_;    ///< slots of destroyed bodies, reused last-freed first
  int liveBodies_ = 0;
  BroadPhase broadPhase_;
  std::vector<ContactPair> pairs_;   ///< every pair looked at last step, sorted by (a, b)
  std::vector<Manifold> manifolds_;  ///< the pairs with points, sorted by (a, b)
  // Scratch kept between steps so a step allocates nothing once the heap has grown.
  std::vector<ContactPair> nextPairs_;
  std::vector<Manifold> nextManifolds_;
  NarrowScratch narrow_;  ///< the narrow phase's jobs and results
  std::vector<std::pair<int, int>> pairKeys_;
  std::vector<char> keysOrdered_;  ///< per chunk of pairKeys_: in order (updateContacts)
  std::unique_ptr<ContactSolver> solver_;
  std::vector<DragConstraint*> activeDrags_;
  std::vector<char> keepAwake_;
  struct StepTally {  // countStep's per chunk
    int bodies, awakeBodies, manifolds, contacts;
    Real maxPenetration;
  };
  std::vector<StepTally> stepTally_;
  std::vector<char> awakeChunks_;  // updateContacts: per chunk of bodies, whether one is awake
  // Pose of each body at the last narrow-phase and how far any of its points moved since (m):
  // a separated pair whose last distance minus both motions still exceeds the speculative
  // distance cannot touch, and skips GJK (conservative advancement's bound, Mirtich 1996).
  std::vector<Vec3> lastCenter_;
  std::vector<Quat> lastRotation_;
  std::vector<Real> motion_;
  std::vector<std::unique_ptr<DragConstraint>> drags_;  // null: a free slot
  std::vector<uint32_t> dragGenerations_;
  std::vector<int> islandOf_;  // awake island of each body after the last step, -1 for none
  IslandScratch islandScratch_;
  StepStats stats_;
  int64_t stepCount_ = 0;
  uint64_t edits_ = 0;  // editCount()
  // edits_ when the last step's end found every body finite (or removed what was not): while it
  // is unchanged no call has touched a body since, and the next step's first check is skipped.
  uint64_t finiteAt_ = ~uint64_t{0};
  uint64_t crosscheckCounter_ = 0;
  int64_t crosscheckChecked_ = 0;
  int64_t crosscheckDisagreed_ = 0;
  std::string crosscheckLog_;
  std::vector<NonFiniteEvent> nonFinite_;
  int bullets_ = 0;                // live dynamic bodies with BodyDef::bullet
  std::vector<Vec3> bulletStart_;  // per body slot: centre at the step's start (bullets only)
  std::unique_ptr<JointSet> joints_;
  std::vector<JointId> brokenJoints_;
  std::vector<int> brokenScratch_;
  std::vector<std::pair<int, int>> jointLinks_;  // per step: jointed pairs of bodies (islands)
  ContactEvents contactEvents_;
  SensorEvents sensorEvents_;
  // Events of World calls between steps (destroyBody), or of bodies removed during a step: they
  // are reported with the events of the step that follows or runs.
  ContactEvents pendingContact_;
  SensorEvents pendingSensor_;
  ContactFilter contactFilter_;
  // Live bodies with a filter other than the default, sensors, finite hit speeds: at zero, the
  // step skips that work (the defaults cost nothing and change no bits).
  int filteredBodies_ = 0;
  int sensorBodies_ = 0;
  int hitBodies_ = 0;
  int kinematicBodies_ = 0;  // live kinematic bodies (at zero, no contact keeps a body awake)
  std::vector<SensorEvent> sensorOverlaps_;  // sorted by (sensor, visitor)
  std::vector<SensorEvent> sensorScratch_;
  std::vector<int> sensorCandidates_;
  std::vector<std::pair<int, ContactHitEvent>> hitCandidates_;  // (manifold, its fastest point)
  // The broad phase runs at the start of a step, so a body the solver then moves past its fat
  // box (a large force, a hard hit) is out of the tree's reach until the next step. Queries test
  // those bodies directly: the list is rebuilt by the first query after anything moved (a step,
  // setTransform, a body created or destroyed; queryEpoch_ counts those), and is usually empty.
  uint64_t queryEpoch_ = 0;
  mutable uint64_t staleEpoch_ = ~uint64_t{0};
  mutable std::vector<int> stale_;     // bodies whose tight box is not inside their fat box
  mutable std::vector<char> isStale_;  // per body slot
};

}  // namespace tumble
