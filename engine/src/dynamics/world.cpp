// The World orchestrates one step (docs/ARCHITECTURE.md, "One step"); the algorithms live in
// aabb_tree.cpp, collide.cpp, contact_update.cpp, contact_solver.cpp, island.cpp, drag.cpp and
// body.cpp.
#include "tumble/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>

#include "core/prefetch.h"
#include "dynamics/body_ops.h"
#include "dynamics/contact_solver.h"
#include "dynamics/contact_update.h"
#include "dynamics/drag.h"
#include "dynamics/island.h"
#include "dynamics/joint_solver.h"
#include "dynamics/world_crosscheck.h"
#include "tumble/assert.h"

namespace tumble {
namespace {

using Clock = std::chrono::steady_clock;
Real msSince(Clock::time_point t0) {
  return std::chrono::duration<Real, std::milli>(Clock::now() - t0).count();
}

// A stale or foreign handle given to World::`call`: to the assert handler; false.
bool reportStale(const char* kind, const char* call, int index, uint32_t generation) {
  char message[160];
  std::snprintf(message, sizeof message, "World::%s: %s {index %d, generation %u} is not alive",
                call, kind, index, generation);
  reportAssert("isAlive(id)", message, __FILE__, __LINE__);
  return false;
}

// Equal in every key but dt (which the World does not read). Compared through the settings
// table's text forms (exact for every kind of value), once per setSettings call.
bool settingsEqualButDt(const Settings& a, const Settings& b) {
  for (const SettingInfo& info : settingsTable())
    if (info.key != "dt" && info.key != "threads" && settingValue(a, info) != settingValue(b, info))
      return false;
  return true;
}

}  // namespace

Expected<std::unique_ptr<World>> World::create(const Settings& settings) {
  if (Expected<void> valid = validate(settings); !valid)
    return Expected<std::unique_ptr<World>>::failure(valid.error());
  return std::make_unique<World>(settings);
}

World::World(const Settings& settings)
    : solver_(std::make_unique<ContactSolver>()), joints_(std::make_unique<JointSet>()) {
  if (Expected<void> valid = validate(settings); !valid) {
    reportAssert("validate(settings)", valid.error().c_str(), __FILE__, __LINE__);
    return;  // keeps the defaults
  }
  settings_ = settings;
}
World::~World() = default;

Expected<void> World::setSettings(const Settings& settings) {
  if (Expected<void> valid = validate(settings); !valid) return valid;
  if (settingsEqualButDt(settings, settings_)) {
    if (settings.dt != settings_.dt) ++edits_;  // equal settings are no edit (the demo sets
    settings_ = settings;                       // them before every step)
    return ok();
  }
  ++edits_;
  const bool regrow = settings.broadphase.aabbMargin != settings_.broadphase.aabbMargin ||
                      settings.contact.speculativeMargin != settings_.contact.speculativeMargin;
  settings_ = settings;
  // New gravity, thresholds or iteration counts change how resting bodies behave: wake them.
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
    Body& b = bodies_[i];
    if (!b.alive) continue;
    if (b.isDynamic()) b.awake = true, b.sleepTime = 0.0, b.sleepIsland = -1, b.sleepNext = -1;
    if (regrow) {
      boxes_[i] = bodyAabb(b).fattened(0.5 * settings_.contact.speculativeMargin);
      broadPhase_.resetProxy(b.proxy, boxes_[i], settings_.broadphase.aabbMargin);
    }
  }
  ++queryEpoch_;
  return ok();
}

int World::threadCount() const {
  if (externalTasks_) return externalTasks_->workerCount();
  return settings_.threads == 0 ? hardwareThreads() : settings_.threads;
}

TaskSystem* World::taskSystem() {
  if (externalTasks_) return externalTasks_;
  const int threads = threadCount();
  if (threads <= 1) {
    pool_.reset();
    return nullptr;
  }
  if (!pool_ || pool_->workerCount() != threads) pool_ = std::make_unique<ThreadPool>(threads);
  return pool_.get();
}

Expected<void> World::setSetting(std::string_view key, std::string_view value) {
  Settings next = settings_;
  if (Expected<void> set = tumble::setSetting(next, key, value); !set) return set;
  return setSettings(next);
}

bool World::checkBody(BodyId id, const char* call) const {
  return isAlive(id) || reportStale("BodyId", call, id.index, id.generation);
}

bool World::checkDrag(DragId id, const char* call) const {
  return isAlive(id) || reportStale("DragId", call, id.index, id.generation);
}

Aabb World::bodyAabb(const Body& b) const {
  return b.shape.bounds(b.transform());
}

Expected<BodyId> World::createBody(const BodyDef& def) {
  ++edits_;
  Expected<Body> made = makeBody(def);
  if (!made) return Expected<BodyId>::failure(made.error());
  // A freed slot first (deterministic: the last one freed), so that a world with bodies added
  // and removed for hours keeps a bounded size (tumble-cli sim --churn).
  BodyId id;
  if (!freeSlots_.empty()) {
    id.index = freeSlots_.back();
    freeSlots_.pop_back();
    id.generation = bodies_[id.index].generation;
    bodies_[id.index] = std::move(*made);
    bodies_[id.index].generation = id.generation;
  } else {
    id.index = static_cast<int>(bodies_.size());
    bodies_.push_back(std::move(*made));
    boxes_.resize(bodies_.size());
  }
  Body& b = bodies_[id.index];
  const Real grow = 0.5 * settings_.contact.speculativeMargin;
  boxes_[id.index] = bodyAabb(b).fattened(grow);
  b.proxy = broadPhase_.createProxy(boxes_[id.index], settings_.broadphase.aabbMargin, id.index);
  countFlags(b, +1);
  ++liveBodies_;
  ++queryEpoch_;
  return id;
}

void World::destroyBody(BodyId id) {
  ++edits_;
  if (!checkBody(id, "destroyBody")) return;
  eventsOnDestroy(id);
  // What rested on the body must not hang in the air asleep: wake its island (everything it
  // touched, transitively, when it slept) and whatever it touches now (a static body's sleepers).
  if (bodies_[id.index].sleepIsland >= 0) wakeIsland(bodies_[id.index].sleepIsland);
  for (const ContactPair& p : pairs_)
    if (p.a == id || p.b == id) wakeBody(p.a == id ? p.b.index : p.a.index);
  Body& b = bodies_[id.index];
  broadPhase_.destroyProxy(b.proxy);
  std::erase_if(pairs_, [&](const ContactPair& p) { return p.a == id || p.b == id; });
  std::erase_if(manifolds_, [&](const Manifold& m) { return m.a == id || m.b == id; });
  reindexPairs();
  for (size_t k = 0; k < drags_.size(); ++k)
    if (drags_[k] && drags_[k]->body == id.index) drags_[k].reset(), ++dragGenerations_[k];
  destroyJointsOf(id.index);
  const uint32_t generation = b.generation + 1;
  b = Body{};
  b.generation = generation;
  freeSlots_.push_back(id.index);
  --liveBodies_;
  ++queryEpoch_;
}

bool World::isAlive(BodyId id) const {
  return id.index >= 0 && id.index < static_cast<int>(bodies_.size()) && bodies_[id.index].alive &&
         bodies_[id.index].generation == id.generation;
}

BodyView World::viewOf(int index) const {
  const Body& b = bodies_[index];
  BodyView v;
  v.id = {index, b.generation};
  v.type = b.type;
  v.shape = b.shape;
  const Transform xf = b.transform();
  v.position = xf.position;
  v.rotation = b.rotation;
  v.centerOfMass = b.center;
  v.localCenterOfMass = b.localCenter;
  v.linearVelocity = b.linearVelocity;
  v.angularVelocity = b.angularVelocity;
  v.mass = b.mass;
  v.localInertia = b.localInertia;
  v.radius = b.radius;
  v.friction = b.friction;
  v.restitution = b.restitution;
  v.rollingResistance = b.rollingResistance;
  v.linearDamping = b.linearDamping;
  v.angularDamping = b.angularDamping;
  v.gravityScale = b.gravityScale;
  for (int k = 0; k < 3; ++k) {
    v.lockTranslation[k] = b.linearFree[k] == 0.0;
    v.lockRotation[k] = b.angularFree[k] == 0.0;
  }
  v.bullet = b.bullet;
  v.awake = b.awake;
  v.userData = b.userData;
  v.filter = b.filter;
  v.isSensor = b.isSensor;
  v.hitEventSpeed = b.hitEventSpeed;
  return v;
}

Expected<BodyView> World::body(BodyId id) const {
  if (!isAlive(id)) {
    char message[120];
    std::snprintf(message, sizeof message, "BodyId {index %d, generation %u} is not alive",
                  id.index, id.generation);
    return Expected<BodyView>::failure(message);
  }
  return viewOf(id.index);
}

std::vector<BodyId> World::bodyIds() const {
  std::vector<BodyId> ids;
  for (int i = 0; i < static_cast<int>(bodies_.size()); ++i)
    if (bodies_[i].alive) ids.push_back(idAt(i));
  return ids;
}

// Points each pair at its manifolds again after manifolds were removed (both arrays are sorted).
void World::reindexPairs() {
  size_t mi = 0;
  for (ContactPair& p : pairs_) {
    p.manifold = -1;
    p.manifoldCount = 0;
    while (mi < manifolds_.size() && std::pair(manifolds_[mi].a.index, manifolds_[mi].b.index) <
                                         std::pair(p.a.index, p.b.index))
      ++mi;
    if (mi < manifolds_.size() && manifolds_[mi].a == p.a && manifolds_[mi].b == p.b)
      p.manifold = static_cast<int>(mi);
    while (mi < manifolds_.size() && manifolds_[mi].a == p.a && manifolds_[mi].b == p.b)
      ++mi, ++p.manifoldCount;
  }
}

void World::wakeIsland(int island) {
  // The list starts at the island's lowest index (updateIslands); a destroyed member has been
  // woken, and so unlinked, before its slot was cleared.
  for (int i = island; i >= 0;) {
    Body& b = bodies_[i];
    const int next = b.sleepNext;
    b.awake = true;
    b.sleepTime = 0.0;
    b.sleepIsland = -1;
    b.sleepNext = -1;
    i = next;
  }
}

void World::wake(BodyId id) {
  ++edits_;
  if (!checkBody(id, "wake")) return;
  wakeBody(id.index);
}

void World::wakeBody(int index) {
  Body& b = bodies_[index];
  if (b.type != BodyType::Dynamic || b.awake) return;
  if (b.sleepIsland >= 0) {
    wakeIsland(b.sleepIsland);
  } else {
    b.awake = true;
    b.sleepTime = 0.0;
  }
}

void World::setTransform(BodyId id, const Transform& xf) {
  ++edits_;
  if (!checkBody(id, "setTransform")) return;
  Body& b = bodies_[id.index];
  b.rotation = xf.rotation / glm::length(xf.rotation);
  b.center = xf.position + b.rotation * b.localCenter;
  boxes_[id.index] = bodyAabb(b).fattened(0.5 * settings_.contact.speculativeMargin);
  broadPhase_.resetProxy(b.proxy, boxes_[id.index], settings_.broadphase.aabbMargin);
  ++queryEpoch_;
  wakeBody(id.index);
  // Bodies resting on a moved static or kinematic body must notice.
  for (const Manifold& m : manifolds_)
    if (m.touching() && (m.a == id || m.b == id)) wakeBody(m.a == id ? m.b.index : m.a.index);
}

void World::setLinearVelocity(BodyId id, const Vec3& v) {
  ++edits_;
  if (!checkBody(id, "setLinearVelocity")) return;
  if (bodies_[id.index].type == BodyType::Static) return;
  wakeBody(id.index);
  bodies_[id.index].linearVelocity = v * bodies_[id.index].linearFree;
}

void World::setAngularVelocity(BodyId id, const Vec3& w) {
  ++edits_;
  if (!checkBody(id, "setAngularVelocity")) return;
  if (bodies_[id.index].type == BodyType::Static) return;
  wakeBody(id.index);
  bodies_[id.index].angularVelocity = w * bodies_[id.index].angularFree;
}

void World::applyForce(BodyId id, const Vec3& force, const Vec3& point) {
  ++edits_;
  if (!checkBody(id, "applyForce")) return;
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return;
  wakeBody(id.index);
  b.force += force;
  b.torque += glm::cross(point - b.center, force);
}

void World::applyTorque(BodyId id, const Vec3& torque) {
  ++edits_;
  if (!checkBody(id, "applyTorque")) return;
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return;
  wakeBody(id.index);
  b.torque += torque;
}

void World::applyLinearImpulse(BodyId id, const Vec3& impulse, const Vec3& point) {
  ++edits_;
  if (!checkBody(id, "applyLinearImpulse")) return;
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return;
  wakeBody(id.index);
  b.linearVelocity += b.invMass * impulse * b.linearFree;
  b.angularVelocity += b.invInertiaWorld() * glm::cross(point - b.center, impulse);
}

void World::moveKinematic(BodyId id, const Transform& target, Real dt) {
  ++edits_;
  if (!checkBody(id, "moveKinematic")) return;
  Body& b = bodies_[id.index];
  const Real qn = glm::length(target.rotation);
  if (b.type != BodyType::Kinematic || !isFinite(target.position) || !std::isfinite(qn) ||
      !(qn > 1e-12) || !std::isfinite(dt) || dt < 1e-5 || dt > 0.1) {
    reportAssert("moveKinematic",
                 "World::moveKinematic: expected a kinematic body, a finite target"
                 " and dt in [1e-05, 0.1] s",
                 __FILE__, __LINE__);
    return;
  }
  const Quat q1 = target.rotation / qn;
  const Vec3 c1 = target.position + q1 * b.localCenter;
  b.linearVelocity = (c1 - b.center) / dt;
  // Each of the k substeps (h = dt / k) turns q by q' = normalise((1 + h/2 (0, w)) q)
  // (rotateBy), a turn of 2 atan(h |w| / 2) about w: k of them make the whole turn phi when
  // h |w| = 2 tan(phi / (2 k)).
  Quat dq = q1 * glm::conjugate(b.rotation);
  if (dq.w < 0.0) dq = -dq;  // the shorter way round
  const Vec3 axis(dq.x, dq.y, dq.z);
  const Real s = glm::length(axis);
  const int k = settings_.solver.substeps;
  const Real h = dt / k;
  if (s > 0.0) {
    const Real phi = 2.0 * std::atan2(s, dq.w);
    b.angularVelocity = (2.0 * std::tan(phi / (2.0 * k)) / h) * (axis / s);
  } else {
    b.angularVelocity = Vec3(0.0);
  }
}

Expected<void> World::setDamping(BodyId id, Real linear, Real angular) {
  ++edits_;
  if (!checkBody(id, "setDamping")) return Expected<void>::failure("setDamping: body is not alive");
  if (!(std::isfinite(linear) && linear >= 0.0))
    return Expected<void>::failure("setDamping: linearDamping " + std::to_string(linear) +
                                   " must be finite and >= 0 (1/s)");
  if (!(std::isfinite(angular) && angular >= 0.0))
    return Expected<void>::failure("setDamping: angularDamping " + std::to_string(angular) +
                                   " must be finite and >= 0 (1/s)");
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return ok();
  b.linearDamping = linear;
  b.angularDamping = angular;
  refreshOptions(b);
  wakeBody(id.index);
  return ok();
}

Expected<void> World::setGravityScale(BodyId id, Real scale) {
  ++edits_;
  if (!checkBody(id, "setGravityScale"))
    return Expected<void>::failure("setGravityScale: body is not alive");
  if (!std::isfinite(scale))
    return Expected<void>::failure("setGravityScale: gravityScale " + std::to_string(scale) +
                                   " must be finite");
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return ok();
  b.gravityScale = scale;
  refreshOptions(b);
  wakeBody(id.index);
  return ok();
}

void World::setLocks(BodyId id, const bool (&translation)[3], const bool (&rotation)[3]) {
  ++edits_;
  if (!checkBody(id, "setLocks")) return;
  Body& b = bodies_[id.index];
  if (!b.isDynamic()) return;
  for (int k = 0; k < 3; ++k) {
    b.linearFree[k] = translation[k] ? 0.0 : 1.0;
    b.angularFree[k] = rotation[k] ? 0.0 : 1.0;
  }
  b.linearVelocity *= b.linearFree;
  b.angularVelocity *= b.angularFree;
  refreshOptions(b);
  wakeBody(id.index);
}

void World::setBullet(BodyId id, bool bullet) {
  ++edits_;
  if (!checkBody(id, "setBullet")) return;
  Body& b = bodies_[id.index];
  if (!b.isDynamic() || b.bullet == bullet) return;
  countFlags(b, -1);
  b.bullet = bullet;
  countFlags(b, +1);
}

void World::setUserData(BodyId id, uint64_t userData) {
  ++edits_;
  if (!checkBody(id, "setUserData")) return;
  bodies_[id.index].userData = userData;
}

Expected<void> World::step(Real dt) {
  if (dt == 0.0) return ok();
  ++queryEpoch_;
  if (!std::isfinite(dt) || dt < 1e-5 || dt > 0.1) {  // isfinite first: NaN < x would trap
    char message[160];
    std::snprintf(message, sizeof message,
                  "World::step: dt %g s out of range [1e-05, 0.1] (clamp a long frame or take "
                  "several steps)",
                  dt);
    return Expected<void>::failure(message);
  }
  const auto t0 = Clock::now();
  beginEvents();
  // A value set through the API since the last step (every call that may change a body counts
  // an edit): nothing to look for when there was none.
  if (edits_ != finiteAt_)
    for (int i : findNonFinite(bodies_, stepCount_, nonFinite_)) destroyBody(idAt(i));
  const Settings& s = settings_;
  stats_ = StepStats{};
  auto t = Clock::now();
  updateBroadPhase(dt, s);
  stats_.broadphaseMs = msSince(t);
  t = Clock::now();
  updateContacts(dt, s);
  stats_.narrowphaseMs = msSince(t);
  t = Clock::now();
  std::vector<DragConstraint*>& drags = activeDrags_;
  drags.clear();
  for (auto& d : drags_)
    if (d && bodies_[d->body].alive) {
      wakeBody(d->body);
      drags.push_back(d.get());
    }
  wakeJointed();
  if (hitBodies_ > 0) findHitCandidates();
  if (bullets_ > 0) {
    bulletStart_.resize(bodies_.size());
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].bullet) bulletStart_[i] = bodies_[i].center;
  }
  solver_->step(bodies_, manifolds_, drags, s, dt, joints_->count() > 0 ? joints_.get() : nullptr,
                taskSystem());
  if (hitBodies_ > 0) reportHits();
  if (bullets_ > 0) sweepBullets();
  breakJoints();
  stats_.solverMs = msSince(t);
  const ContactSolver::StageTimes& stages = solver_->stageTimes();
  stats_.solverPrepareMs = stages.prepare;
  stats_.solverWarmStartMs = stages.warmStart;
  stats_.solverSolveMs = stages.solve;
  stats_.solverRelaxMs = stages.relax;
  stats_.solverIntegrateMs = stages.integrate;
  stats_.solverStoreMs = stages.store;
  for (int i : clearForcesFindNonFinite(bodies_, stepCount_, nonFinite_, taskSystem()))
    destroyBody(idAt(i));
  finiteAt_ = edits_;
  updateSensors();
  endEvents();
  const auto ti = Clock::now();
  updateSleep(dt, s);
  stats_.islandsMs = msSince(ti);

  countStep();
  stats_.crosscheckChecked = crosscheckChecked_;
  stats_.crosscheckDisagreed = crosscheckDisagreed_;
  ++stepCount_;
  stats_.stepMs = msSince(t0);
  return ok();
}

// The step's counts over bodies and manifolds, in fixed chunks (in parallel with threads), summed
// in chunk order: integer sums, and a maximum that skips what std::max skips (a NaN), so the
// result is the serial loop's at any thread count.
void World::countStep() {
  constexpr int kGrain = 512;
  TaskSystem* tasks = taskSystem();
  const int bodyCount = static_cast<int>(bodies_.size());
  const int manifoldCount = static_cast<int>(manifolds_.size());
  const int chunks = (std::max(bodyCount, manifoldCount) + kGrain - 1) / kGrain;
  stepTally_.assign(static_cast<size_t>(chunks), StepTally{0, 0, 0, 0, stats_.maxPenetration});
  parallelFor(tasks, chunks, 1, [&](int begin, int end, int) {
    for (int c = begin; c < end; ++c) {
      StepTally& t = stepTally_[static_cast<size_t>(c)];
      for (int i = c * kGrain; i < std::min(bodyCount, (c + 1) * kGrain); ++i) {
        const Body& b = bodies_[i];
        if (!b.alive) continue;
        ++t.bodies;
        if (b.isDynamic() && b.awake) ++t.awakeBodies;
      }
      const int last = std::min(manifoldCount, (c + 1) * kGrain);
      for (int i = c * kGrain; i < last; ++i) {
        // 656 bytes apart: the point count's line fetched a few ahead (the points follow it).
        if (i + 8 < last)
          detail::prefetch(reinterpret_cast<const char*>(&manifolds_[i + 8]) +
                           offsetof(Manifold, pointCount));
        const Manifold& m = manifolds_[i];
        if (!m.touching()) continue;
        ++t.manifolds;
        t.contacts += m.pointCount;
        for (int k = 0; k < m.pointCount; ++k)
          t.maxPenetration = std::max(t.maxPenetration, -m.points[k].separation);
      }
    }
  });
  for (const StepTally& t : stepTally_) {
    stats_.bodies += t.bodies;
    stats_.awakeBodies += t.awakeBodies;
    stats_.manifolds += t.manifolds;
    stats_.contacts += t.contacts;
    stats_.maxPenetration = std::max(stats_.maxPenetration, t.maxPenetration);
  }
}

// A reinserted fat box is stretched by this many steps of the body's motion (Box2D v2.4's AABB
// multiplier): a falling body then leaves its fat box, and is reinserted and queried again, every
// few steps instead of every step. Only the broad phase's work changes: the narrow phase reads
// the tight boxes.
constexpr Real kPredictSteps = 3;

void World::updateBroadPhase(Real h, const Settings& s) {
  // The moving bodies' boxes, each into its own slot (in parallel when there are threads); then
  // the tree takes the moved ones one by one, in body order (a tree update is not thread-safe).
  auto moving = [](const Body& b) { return b.alive && b.type != BodyType::Static && b.awake; };
  // Each moving body's reach is kept for its pairs' speculative distance (classifyPair): its
  // velocity and awake flag do not change before the narrow phase reads it.
  auto grow = [&](int i) {
    const Body& b = bodies_[i];
    const Real r = reach(b, h);
    reach_[static_cast<size_t>(i)] = r;
    boxes_[i] = bodyAabb(b).fattened(0.5 * s.contact.speculativeMargin + r);
  };
  TaskSystem* tasks = taskSystem();
  const int n = static_cast<int>(bodies_.size());
  reach_.resize(static_cast<size_t>(n));
  // A heap of distinct hulls has each body's vertices somewhere else in memory, behind two
  // pointers (the shape's hull, the hull's vertex list): the box of a hull20 heap's body waited
  // on them for most of its time. The hull of the body kAhead bodies on and the vertices of the
  // one kAhead / 2 on are fetched before they are needed (for moving bodies only: a heap at rest
  // would fetch them all for nothing).
  constexpr int kAhead = 8;
  auto fetch = [&](int i, int end) {
    if (i + kAhead < end && moving(bodies_[i + kAhead]))
      if (const ConvexHull* hull = bodies_[i + kAhead].shape.coreHull()) detail::prefetch(hull);
    if (i + kAhead / 2 < end && moving(bodies_[i + kAhead / 2]))
      if (const ConvexHull* hull = bodies_[i + kAhead / 2].shape.coreHull()) {
        const char* v = reinterpret_cast<const char*>(hull->vertices().data());
        const size_t bytes = hull->vertices().size() * sizeof(Vec3);
        for (size_t at = 0; at < bytes; at += 64) detail::prefetch(v + at);
      }
  };
  if (tasks) {
    // With threads, each body's box and whether it left its fat box (the tree is only read), in
    // parallel; then the tree takes the bodies that left theirs, in body order.
    escaped_.resize(static_cast<size_t>(n));
    const AabbTree& tree = broadPhase_.tree();
    parallelFor(tasks, n, 256, [&](int begin, int end, int) {
      for (int i = begin; i < end; ++i) {
        fetch(i, end);
        const Body& b = bodies_[i];
        const bool move = moving(b);
        if (move)
          grow(i);
        else
          reach_[static_cast<size_t>(i)] = -1.0;
        escaped_[static_cast<size_t>(i)] = move && !tree.fatAabb(b.proxy).contains(boxes_[i]);
      }
    });
    for (int i = 0; i < n; ++i)
      if (escaped_[static_cast<size_t>(i)]) {
        const Body& b = bodies_[i];
        broadPhase_.moveProxy(b.proxy, boxes_[i], s.broadphase.aabbMargin,
                              kPredictSteps * h * b.linearVelocity);
      }
  } else {
    for (int i = 0; i < n; ++i) {
      const Body& b = bodies_[i];
      fetch(i, n);
      if (!moving(b)) {
        reach_[static_cast<size_t>(i)] = -1.0;
        continue;
      }
      grow(i);
      broadPhase_.moveProxy(b.proxy, boxes_[i], s.broadphase.aabbMargin,
                            kPredictSteps * h * b.linearVelocity);
    }
  }
  const auto& pairs = broadPhase_.updatePairs(
      [&](int pa, int pb) {
        const Body& a = bodies_[broadPhase_.tree().userData(pa)];
        const Body& b = bodies_[broadPhase_.tree().userData(pb)];
        // Two bodies whose filters reject each other never make a pair (Box2D v3 asks in its
        // pair query too): filterPairs would drop it from every step's keys. setFilter queries
        // the body's proxy again, so a pair a new filter accepts is found at the next update.
        // (The count first: a world without filters makes no call per pair.)
        return (a.isDynamic() || b.isDynamic()) &&
               (filteredBodies_ == 0 || !bodyFiltersReject(a, b));
      },
      tasks);
  stats_.pairs = static_cast<int>(pairs.size());
}

void World::updateSleep(Real dt, const Settings& s) {
  std::vector<char>& keepAwake = keepAwake_;
  keepAwake.assign(bodies_.size(), 0);
  for (const auto& d : drags_)
    if (d) keepAwake[d->body] = 1;
  // A moving kinematic body keeps what it touches awake (with none, the manifolds are not read).
  auto moving = [](const Body& k) {
    return k.type == BodyType::Kinematic &&
           (glm::length(k.linearVelocity) > 0.0 || glm::length(k.angularVelocity) > 0.0);
  };
  for (size_t i = 0; kinematicBodies_ > 0 && i < manifolds_.size(); ++i) {
    const Manifold& m = manifolds_[i];
    if (!m.touching()) continue;
    if (moving(bodies_[m.a.index])) keepAwake[m.b.index] = 1;
    if (moving(bodies_[m.b.index])) keepAwake[m.a.index] = 1;
  }
  const IslandUpdate u = updateIslands(bodies_, manifolds_, keepAwake, s, dt, islandScratch_,
                                       jointLinks_, taskSystem());
  islandOf_.swap(islandScratch_.islandOf);
  stats_.islands = u.islands;
}

}  // namespace tumble
