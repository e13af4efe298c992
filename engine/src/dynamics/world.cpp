// The World orchestrates one step (docs/ARCHITECTURE.md, "One step"); the algorithms live in
// aabb_tree.cpp, collide.cpp, contact_update.cpp, contact_solver.cpp, island.cpp, drag.cpp and
// body.cpp.
#include "tumble/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "dynamics/body_cores.h"
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

// How far a body's surface may travel in one step (m): used to widen its box and the
// speculative distance of its pairs, so fast bodies meet thin ones (speculative CCD).
Real reach(const Body& b, Real h) {
  if (b.type == BodyType::Static || !b.awake) return 0.0;
  return h * (glm::length(b.linearVelocity) + glm::length(b.angularVelocity) * b.radius);
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

TaskSystem* World::taskSystem() {
  if (externalTasks_) return externalTasks_;
  const int threads = settings_.threads == 0 ? hardwareThreads() : settings_.threads;
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

BodyId World::idAt(int index) const {
  if (index < 0 || index >= static_cast<int>(bodies_.size()) || !bodies_[index].alive) return {};
  return {index, bodies_[index].generation};
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
  for (Body& b : bodies_) b.force = Vec3(0.0), b.torque = Vec3(0.0);

  for (int i : findNonFinite(bodies_, stepCount_, nonFinite_)) destroyBody(idAt(i));
  updateSensors();
  endEvents();
  const auto ti = Clock::now();
  updateSleep(dt, s);
  stats_.islandsMs = msSince(ti);

  for (const Body& b : bodies_) {
    if (!b.alive) continue;
    ++stats_.bodies;
    if (b.isDynamic() && b.awake) ++stats_.awakeBodies;
  }
  for (const Manifold& m : manifolds_) {
    if (!m.touching()) continue;
    ++stats_.manifolds;
    stats_.contacts += m.pointCount;
    for (int i = 0; i < m.pointCount; ++i)
      stats_.maxPenetration = std::max(stats_.maxPenetration, -m.points[i].separation);
  }
  stats_.crosscheckChecked = crosscheckChecked_;
  stats_.crosscheckDisagreed = crosscheckDisagreed_;
  ++stepCount_;
  stats_.stepMs = msSince(t0);
  return ok();
}

// A reinserted fat box is stretched by this many steps of the body's motion (Box2D v2.4's AABB
// multiplier): a falling body then leaves its fat box, and is reinserted and queried again, every
// few steps instead of every step. Only the broad phase's work changes: the narrow phase reads
// the tight boxes.
constexpr Real kPredictSteps = 3;

void World::updateBroadPhase(Real h, const Settings& s) {
  for (Body& b : bodies_) {
    if (!b.alive || b.type == BodyType::Static || !b.awake) continue;
    Aabb& box = boxes_[&b - bodies_.data()];
    box = bodyAabb(b).fattened(0.5 * s.contact.speculativeMargin + reach(b, h));
    broadPhase_.moveProxy(b.proxy, box, s.broadphase.aabbMargin,
                          kPredictSteps * h * b.linearVelocity);
  }
  const auto& pairs = broadPhase_.updatePairs([&](int pa, int pb) {
    const Body& a = bodies_[broadPhase_.tree().userData(pa)];
    const Body& b = bodies_[broadPhase_.tree().userData(pb)];
    return a.isDynamic() || b.isDynamic();
  });
  stats_.pairs = static_cast<int>(pairs.size());
}

// A pair with a compound, mesh or height field: a manifold per touching pair of children
// (collideChildren), each warm started from last step's manifold with the same key (both lists
// are in key order), and each touching child pair cross-checked on its cores. Not recycled.
void World::collideChildPairs(const Body& A, const Body& B, const ContactPair* oldPair,
                              Real speculative, const Settings& s, ContactPair& p,
                              std::vector<Manifold>& next, NarrowPhaseCounters& counters) {
  std::vector<ChildContact>& found = childContacts_;
  found.clear();
  // Compound children with their own filters or sensor flags are filtered pair by pair.
  const ChildFilters filters{A.filter, B.filter};
  const bool byChild = flaggedCompound(A) || flaggedCompound(B);
  collideChildren(A.shape, A.transform(), B.shape, B.transform(), speculative, s, found,
                  byChild ? &filters : nullptr);
  const Manifold* old =
      oldPair && oldPair->manifold >= 0 ? &manifolds_[oldPair->manifold] : nullptr;
  const int oldCount = old ? oldPair->manifoldCount : 0;
  p.cache = GjkSimplex{};
  p.overlapping = false;
  p.distance = 0.0;  // no bound: the children's distances say nothing of the others'
  p.manifold = found.empty() ? -1 : static_cast<int>(next.size());
  p.manifoldCount = static_cast<int>(found.size());
  int oj = 0;
  for (const ChildContact& c : found) {
    while (oj < oldCount && old[oj].key < c.key) ++oj;
    const Manifold* previous = oj < oldCount && old[oj].key == c.key ? &old[oj] : nullptr;
    Manifold& m = next.emplace_back();
    m.a = p.a;
    m.b = p.b;
    m.friction = std::sqrt(A.friction * B.friction);
    m.restitution = std::max(A.restitution, B.restitution);
    m.key = c.key;
    m.rollingResistance = static_cast<float>(rollingResistance(
        A, static_cast<uint32_t>(c.key >> 32), B, static_cast<uint32_t>(c.key & 0xffffffffu)));
    m.radiusA = static_cast<float>(c.radiusA);
    m.radiusB = static_cast<float>(c.radiusB);
    updateManifold(A, B, c.result, previous, m, counters);
    p.overlapping = p.overlapping || m.overlapping;
    if (s.crosscheck != CrossCheckMode::Off)
      crossCheckChildren(A, B, c.key, p.a.index, p.b.index, s, crosscheckCounter_++, crosscheckLog_,
                         crosscheckChecked_, crosscheckDisagreed_, stats_.lpPivots);
  }
}

void World::updateContacts(Real h, const Settings& s) {
  std::vector<std::pair<int, int>>& keys = pairKeys_;
  keys.clear();
  for (const ProxyPair& p : broadPhase_.pairs()) {
    const int a = broadPhase_.tree().userData(p.first), b = broadPhase_.tree().userData(p.second);
    keys.emplace_back(std::min(a, b), std::max(a, b));
  }
  // Proxy ids follow body indices until slots are reused: usually sorted already.
  if (!std::is_sorted(keys.begin(), keys.end())) std::sort(keys.begin(), keys.end());
  filterPairs(keys);
  const size_t n = bodies_.size();
  const size_t known = std::min(lastCenter_.size(), n);
  lastCenter_.resize(n);
  lastRotation_.resize(n);
  motion_.assign(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    const Body& b = bodies_[i];
    if (i >= known) {
      motion_[i] = 1e300;  // new body: no bound yet
    } else {
      // A point at distance <= radius from the centre moves at most |dc| + 2 r sin(theta / 2),
      // and |dot(q, q')| = cos(theta / 2) for unit quaternions.
      const Real c = std::min(1.0, std::abs(glm::dot(b.rotation, lastRotation_[i])));
      motion_[i] = glm::length(b.center - lastCenter_[i]) +
                   2.0 * b.radius * std::sqrt(std::max(0.0, 1.0 - c * c));
    }
    lastCenter_[i] = b.center;
    lastRotation_[i] = b.rotation;
  }
  // Nothing awake and the same pairs as last step: every pair would be kept as it was.
  bool anyAwake = false;
  for (const Body& b : bodies_) anyAwake = anyAwake || (b.alive && b.isDynamic() && b.awake);
  if (!anyAwake && keys.size() == pairs_.size()) {
    bool same = true;
    for (size_t k = 0; same && k < keys.size(); ++k)
      same = pairs_[k].a.index == keys[k].first && pairs_[k].b.index == keys[k].second;
    if (same) return;
  }
  // Two arrays are merged from the sorted pairs and last step's: a small ContactPair for every
  // pair, and a Manifold only for pairs with points.
  std::vector<ContactPair>& nextPairs = nextPairs_;
  std::vector<Manifold>& next = nextManifolds_;
  nextPairs.clear();
  next.clear();
  // Grow ahead of need: a reallocation copies every entry at once (megabytes in a heap, and fresh
  // pages to fault in), which would land on the frame where the pair count jumps.
  if (nextPairs.capacity() < keys.size())
    nextPairs.reserve(std::max(2 * keys.size(), 12 * bodies_.size()));
  if (next.capacity() < keys.size() / 2) next.reserve(std::max(keys.size(), 6 * bodies_.size()));
  NarrowPhaseCounters counters;
  size_t oi = 0;
  // The pair whose begin or end is still to be decided, once its manifolds are made (events
  // settle each pair while they are in cache: docs/ARCHITECTURE.md, "Events and filtering").
  int open = -1;
  bool openWas = false;
  for (const auto& [ia, ib] : keys) {
    if (open >= 0) settleTouch(nextPairs[open], openWas, next), open = -1;
    while (oi < pairs_.size() &&
           std::pair(pairs_[oi].a.index, pairs_[oi].b.index) < std::pair(ia, ib))
      pairGone(pairs_[oi++]);
    const ContactPair* oldPair = nullptr;
    if (oi < pairs_.size() && pairs_[oi].a.index == ia && pairs_[oi].b.index == ib)
      oldPair = &pairs_[oi++];
    const Manifold* old =
        oldPair && oldPair->manifold >= 0 ? &manifolds_[oldPair->manifold] : nullptr;
    const Body& A = bodies_[ia];
    const Body& B = bodies_[ib];
    const bool activeA = A.isDynamic() && A.awake, activeB = B.isDynamic() && B.awake;
    if (!activeA && !activeB) {
      // Asleep: keep the pair and its contact as they were.
      if (oldPair) {
        ContactPair& kept = nextPairs.emplace_back(*oldPair);
        if (old) {
          kept.manifold = static_cast<int>(next.size());
          next.insert(next.end(), old, old + oldPair->manifoldCount);
        }
      }
      continue;
    }
    ContactPair& p = nextPairs.emplace_back();
    p.a = idAt(ia);
    p.b = idAt(ib);
    open = static_cast<int>(nextPairs.size()) - 1;
    openWas = oldPair && oldPair->touching;
    if (oldPair) p.cache = oldPair->cache;
    if (!boxes_[ia].overlaps(boxes_[ib])) {
      // Farther apart than the speculative distance: no contact, no GJK (the fat boxes of the
      // broad-phase overlap, the grown tight boxes do not).
      continue;
    }
    const Real speculative = s.contact.speculativeMargin + reach(A, h) + reach(B, h);
    if (oldPair && !old && !oldPair->overlapping && oldPair->distance > 0.0) {
      // Last distance (or bound) minus how far both bodies moved: still beyond reach, no GJK.
      const Real bound = oldPair->distance - motion_[ia] - motion_[ib];
      if (bound > speculative) {
        p.distance = bound;
        continue;
      }
    }
    if (!A.shape.isConvex() || !B.shape.isConvex()) {
      collideChildPairs(A, B, oldPair, speculative, s, p, next, counters);
      if (p.manifoldCount > 0) {
        if (A.isDynamic() && !A.awake) wakeBody(ia);
        if (B.isDynamic() && !B.awake) wakeBody(ib);
      }
      continue;
    }
    // Built in place (a manifold is 656 bytes): a recycled one as a copy of last step's, a new
    // one from a fresh entry.
    bool recycled = old && canRecycle(A, B, *old, s.contact.recycleDistance);
    Manifold& m = recycled ? next.emplace_back(*old) : next.emplace_back();
    if (recycled && !remeasure(A, B, m)) {
      recycled = false;  // tipping or rocking on the kept points: find them again
      m = Manifold{};
    }
    m.a = p.a;
    m.b = p.b;
    m.friction = std::sqrt(A.friction * B.friction);
    m.restitution = std::max(A.restitution, B.restitution);
    m.rollingResistance = static_cast<float>(rollingResistance(A, 0, B, 0));
    m.radiusA = static_cast<float>(A.shape.roundRadius());
    m.radiusB = static_cast<float>(B.shape.roundRadius());
    if (recycled) {
      ++stats_.recycled;
    } else {
      const GjkSimplex* warm = oldPair && oldPair->cache.count > 0 ? &oldPair->cache : nullptr;
      const CollideResult r =
          collide(A.shape, A.transform(), B.shape, B.transform(), speculative, s, warm);
      updateManifold(A, B, r, old, m, counters);
      m.radiusA += static_cast<float>(r.sideRadiusA);
      m.radiusB += static_cast<float>(r.sideRadiusB);
    }
    // The cross-check runs its own GJK and LP on the pair as it is now, recycled or not.
    if (s.crosscheck != CrossCheckMode::Off)
      crossCheckPair(A, B, ia, ib, s, crosscheckCounter_++, crosscheckLog_, crosscheckChecked_,
                     crosscheckDisagreed_, stats_.lpPivots);
    p.cache = m.cache;
    p.overlapping = m.overlapping;
    p.distance = m.distance;
    if (!m.touching()) {
      next.pop_back();
      continue;
    }
    p.manifold = static_cast<int>(next.size()) - 1;
    p.manifoldCount = 1;
    if (A.isDynamic() && !A.awake) wakeBody(ia);
    if (B.isDynamic() && !B.awake) wakeBody(ib);
  }
  if (open >= 0) settleTouch(nextPairs[open], openWas, next);
  for (; oi < pairs_.size(); ++oi) pairGone(pairs_[oi]);
  pairs_.swap(nextPairs);
  manifolds_.swap(next);
  stats_.gjkCalls += counters.gjkCalls;
  stats_.gjkIterationsMax = std::max(stats_.gjkIterationsMax, counters.gjkIterationsMax);
  stats_.gjkIterationsMean =
      counters.gjkCalls ? static_cast<Real>(counters.gjkIterations) / counters.gjkCalls : 0.0;
  stats_.epaCalls += counters.epaCalls;
  stats_.epaIterationsMax = std::max(stats_.epaIterationsMax, counters.epaIterationsMax);
  stats_.epaIterationsMean =
      counters.epaCalls ? static_cast<Real>(counters.epaIterations) / counters.epaCalls : 0.0;
  stats_.gjkMaxIterationsHit += counters.gjkCapHits;
  stats_.epaMaxIterationsHit += counters.epaCapHits;
}

void World::updateSleep(Real dt, const Settings& s) {
  std::vector<char>& keepAwake = keepAwake_;
  keepAwake.assign(bodies_.size(), 0);
  for (const auto& d : drags_)
    if (d) keepAwake[d->body] = 1;
  for (const Manifold& m : manifolds_) {
    if (!m.touching()) continue;
    const Body& A = bodies_[m.a.index];
    const Body& B = bodies_[m.b.index];
    auto moving = [](const Body& k) {
      return k.type == BodyType::Kinematic &&
             (glm::length(k.linearVelocity) > 0.0 || glm::length(k.angularVelocity) > 0.0);
    };
    if (moving(A)) keepAwake[m.b.index] = 1;
    if (moving(B)) keepAwake[m.a.index] = 1;
  }
  const IslandUpdate u =
      updateIslands(bodies_, manifolds_, keepAwake, s, dt, islandScratch_, jointLinks_);
  islandOf_.swap(islandScratch_.islandOf);
  stats_.islands = u.islands;
}

}  // namespace tumble
