// Issue 15's joint benchmarks, printed, never asserted:
//  - ragdolls: assets/scenes/ragdolls.json (20 ten-body ragdolls thrown down 10 stairs), and
//  - bridge: assets/scenes/bridge.json (40 planks on hinges, 20 boxes dropped on it),
//    each 600 steps of 1/60 s in Tumble and in Bullet 3.24 side by side. Bullet gets the same
//    bodies (boxes, spheres and capsules as btBoxShape, btSphereShape, btCapsuleShape with
//    Tumble's masses and frictions) and joints: swing-twist as btConeTwistConstraint (the twist
//    axis x of both frames; Bullet's twist span is symmetric: the larger of |lower|, |upper|),
//    hinge as btHingeConstraint (limits; a motor at speed 0 as Bullet's angular motor with the
//    same torque), ball as btPoint2PointConstraint; jointed bodies do not collide. Bullet runs
//    the benches' 10 iterations (bullet_world.h), Tumble its defaults (4 substeps).
//  - car: assets/scenes/car.json with its wheels' motors at 6 rad/s, Tumble alone, 600 steps
//    (its spinning wheels must not rebuild the exact groups' rows: joint_solver.cpp, kShortArm).
//  - joint_grid: Box3D's joint benchmark scene (assets/scenes/joint_grid.json), Tumble alone,
//    100 steps (the mean over all of them, and over steps 2 to 100 as Box3D's benchmark app
//    times them), beside Box3D's published 15.9 ms per step (Ryzen 7950X, one thread); whether
//    the grid stays connected (the widest anchor gap).
// Thread CPU time per step: mean and worst, and the ratios Tumble / Bullet; the widest anchor gap
// of any joint at any step in each engine (a quality beside the cost); the dynamic bodies of each
// engine that ended under the ground (a translation gone wrong would show there); each engine's
// dynamic bodies awake after the last step and the step after which all of them slept (-1: never; a
// sleeping island costs nothing, so this tells a cheaper solver from an earlier sleep). An argument
// runs the benches whose names hold it; `--bullet-iterations N` gives Bullet's solver N iterations
// instead of the benches' 10 (the cost of a tighter Bullet: its widest gap beside its time);
// `--rounds N` runs ragdolls and bridge N times, Tumble and Bullet alternately: a line per round,
// one of the medians of the rounds' figures (`~`), and two of the runs' step-by-step medians (`=`:
// step i's time the median of the rounds' step i; its worst is the worst step's cost without the
// hiccups of the shared machine, which a single run's worst, one sample, mostly measures; the
// second line leaves the first step, once per world, out). Each line gives the step of each
// engine's worst.
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "bullet_world.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;

constexpr Real kDt = 1.0 / 60.0;
constexpr int kSteps = 600;
constexpr int kGridSteps = 100;
constexpr Real kCarSpeed = 6.0;  // rad/s, the car test's driving speed
constexpr Real kBox3dGridMs = 15.9;
int bulletIterations = 10;  // --bullet-iterations (bullet_world.h's 10 by default)

struct Result {
  std::vector<Real> stepMs;
  Real widestGap = 0.0;  // m, any joint's anchors, any step
  int below = 0;         // dynamic bodies under the ground (y < -0.5 m) at the end: a sanity check
  int awake = 0;         // dynamic bodies awake after the last step
  int allAsleep = -1;    // the first step after which every dynamic body slept, -1: never
  Real mean() const {
    Real m = 0.0;
    for (Real x : stepMs) m += x / static_cast<Real>(stepMs.size());
    return m;
  }
  Real worst() const { return *std::max_element(stepMs.begin(), stepMs.end()); }
  /// The step (from 1) that took worst().
  int worstStep() const {
    return 1 + static_cast<int>(std::max_element(stepMs.begin(), stepMs.end()) - stepMs.begin());
  }
  /// Steps 2 to N only, as Box3D's benchmark app times them (its first step is not timed).
  Real meanAfterFirst() const {
    Real m = 0.0;
    for (size_t i = 1; i < stepMs.size(); ++i)
      m += stepMs[i] / static_cast<Real>(stepMs.size() - 1);
    return m;
  }
};

std::unique_ptr<tumble::World> buildTumble(const std::string& name) {
  const std::string file = std::string(TUMBLE_SOURCE_DIR) + "/assets/scenes/" + name + ".json";
  auto scene = tumble::loadScene(file);
  if (!scene) {
    std::fprintf(stderr, "bench_joints: %s\n", scene.error().c_str());
    std::exit(2);
  }
  auto world = tumble::buildWorld(*scene);
  if (!world) {
    std::fprintf(stderr, "bench_joints: %s: %s\n", file.c_str(), world.error().c_str());
    std::exit(2);
  }
  return std::move(*world);
}

// `motorSpeed` (rad/s), when not 0, switches on every joint motor with a torque at that speed
// (the car's wheels).
Result runTumble(const std::string& name, int steps, Real motorSpeed = 0.0) {
  auto world = buildTumble(name);
  if (motorSpeed != 0.0)
    for (tumble::JointId id : world->jointIds()) {
      tumble::JointMotor m = (*world->joint(id)).motor;
      if (m.maxEffort == 0.0) continue;
      m.enabled = true;
      m.speed = motorSpeed;
      if (!world->setJointMotor(id, m)) std::exit(2);
    }
  Result r;
  for (int i = 0; i < steps; ++i) {
    const Real c0 = tumble::bench::threadMs();
    (void)world->step(kDt);
    r.stepMs.push_back(tumble::bench::threadMs() - c0);
    for (tumble::JointId id : world->jointIds()) {
      const tumble::JointView v = *world->joint(id);
      r.widestGap = std::max(r.widestGap, glm::length(v.anchorA - v.anchorB));
    }
    r.awake = 0;
    for (tumble::BodyId id : world->bodyIds())
      r.awake += (*world->body(id)).isDynamic() && (*world->body(id)).awake;
    if (r.awake > 0) r.allAsleep = -1;
    if (r.awake == 0 && r.allAsleep < 0) r.allAsleep = i + 1;
  }
  for (tumble::BodyId id : world->bodyIds())
    r.below += (*world->body(id)).isDynamic() && (*world->body(id)).centerOfMass.y < -0.5;
  return r;
}

btVector3 bt(const Vec3& v) {
  return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z));
}

btQuaternion bt(const tumble::Quat& q) {
  return btQuaternion(btScalar(q.x), btScalar(q.y), btScalar(q.z), btScalar(q.w));
}

// A world frame whose x axis is `axis` (unit), at `origin`.
btTransform frameAlong(const Vec3& axis, const Vec3& origin) {
  const Vec3 y = std::abs(axis.y) < 0.9 ? glm::normalize(glm::cross(Vec3(0, 1, 0), axis))
                                        : glm::normalize(glm::cross(Vec3(1, 0, 0), axis));
  const Vec3 z = glm::cross(axis, y);
  const btMatrix3x3 basis(btScalar(axis.x), btScalar(y.x), btScalar(z.x), btScalar(axis.y),
                          btScalar(y.y), btScalar(z.y), btScalar(axis.z), btScalar(y.z),
                          btScalar(z.z));
  return btTransform(basis, bt(origin));
}

// The Tumble scene's bodies and joints as Bullet objects (the built Tumble world gives the
// masses and poses; the scene gives the joints' kinds and limits).
struct BulletScene {
  tumble::bench::BulletWorld bullet;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> states;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::vector<std::unique_ptr<btTypedConstraint>> joints;
  btRigidBody* fixed = nullptr;  // the static world of joints with a = -1 or b = -1
  // Each joint's anchor in its two bodies' centre-of-mass frames, for the widest anchor gap.
  struct Anchor {
    btRigidBody* a;
    btRigidBody* b;
    btVector3 inA, inB;
  };
  std::vector<Anchor> anchors;
};

void buildBullet(const std::string& name, BulletScene& out) {
  auto world = buildTumble(name);
  const std::string file = std::string(TUMBLE_SOURCE_DIR) + "/assets/scenes/" + name + ".json";
  const tumble::Scene scene = *tumble::loadScene(file);
  std::vector<btRigidBody*> rb;
  for (tumble::BodyId id : world->bodyIds()) {
    const tumble::BodyView b = *world->body(id);
    std::unique_ptr<btCollisionShape> shape;
    if (const tumble::RoundCore* round = b.shape.round()) {
      if (round->count == 1) {
        shape = std::make_unique<btSphereShape>(btScalar(round->radius));
      } else {
        shape = std::make_unique<btCapsuleShape>(
            btScalar(round->radius), btScalar(glm::length(round->points[1] - round->points[0])));
      }
    } else if (b.shape.hull() && b.shape.hull()->vertices().size() == 8) {
      const tumble::Aabb box = b.shape.bounds(tumble::Transform{});
      shape = std::make_unique<btBoxShape>(bt(0.5 * (box.upper - box.lower)));
    } else {
      std::fprintf(stderr, "bench_joints: %s: body %d is not a box, sphere or capsule\n",
                   name.c_str(), id.index);
      std::exit(2);
    }
    const btScalar mass = b.isDynamic() ? btScalar(b.mass) : btScalar(0);
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    out.states.push_back(
        std::make_unique<btDefaultMotionState>(btTransform(bt(b.rotation), bt(b.centerOfMass))));
    btRigidBody::btRigidBodyConstructionInfo info(mass, out.states.back().get(), shape.get(),
                                                  inertia);
    info.m_friction = btScalar(b.friction);
    out.bodies.push_back(std::make_unique<btRigidBody>(info));
    out.bodies.back()->setLinearVelocity(bt(b.linearVelocity));
    out.bodies.back()->setAngularVelocity(bt(b.angularVelocity));
    out.bullet.world.addRigidBody(out.bodies.back().get());
    out.shapes.push_back(std::move(shape));
    rb.push_back(out.bodies.back().get());
  }
  out.states.push_back(std::make_unique<btDefaultMotionState>());
  out.fixed = new btRigidBody(0, out.states.back().get(), nullptr);
  out.bodies.emplace_back(out.fixed);
  auto body = [&](int i) -> btRigidBody& { return i >= 0 ? *rb[i] : *out.fixed; };
  for (const tumble::SceneJoint& sj : scene.joints) {
    btRigidBody& A = body(sj.a);
    btRigidBody& B = body(sj.b);
    const btTransform toA = A.getCenterOfMassTransform().inverse();
    const btTransform toB = B.getCenterOfMassTransform().inverse();
    std::unique_ptr<btTypedConstraint> c;
    auto anchorAt = [&](const Vec3& p) {
      out.anchors.push_back({&A, &B, toA * bt(p), toB * bt(p)});
    };
    if (const auto* d = std::get_if<tumble::SwingTwistJointDef>(&sj.def)) {
      anchorAt(d->anchor);
      const btTransform f = frameAlong(glm::normalize(d->axis), d->anchor);
      auto cone = std::make_unique<btConeTwistConstraint>(A, B, toA * f, toB * f);
      cone->setLimit(btScalar(d->swing), btScalar(d->swing),
                     btScalar(std::max(std::abs(d->twistLower), std::abs(d->twistUpper))));
      c = std::move(cone);
    } else if (const auto* h = std::get_if<tumble::HingeJointDef>(&sj.def)) {
      anchorAt(h->anchor);
      const btVector3 axis = bt(glm::normalize(h->axis));
      auto hinge =
          std::make_unique<btHingeConstraint>(A, B, toA * bt(h->anchor), toB * bt(h->anchor),
                                              toA.getBasis() * axis, toB.getBasis() * axis);
      if (h->limits.enabled) hinge->setLimit(btScalar(h->limits.lower), btScalar(h->limits.upper));
      if (h->motor.enabled)
        hinge->enableAngularMotor(true, btScalar(h->motor.speed),
                                  btScalar(h->motor.maxEffort * kDt));
      c = std::move(hinge);
    } else if (const auto* ball = std::get_if<tumble::BallJointDef>(&sj.def)) {
      anchorAt(ball->anchor);
      c = std::make_unique<btPoint2PointConstraint>(A, B, toA * bt(ball->anchor),
                                                    toB * bt(ball->anchor));
    } else {
      std::fprintf(stderr, "bench_joints: %s: a joint kind the bench does not translate\n",
                   name.c_str());
      std::exit(2);
    }
    out.bullet.world.addConstraint(c.get(), true);
    out.joints.push_back(std::move(c));
  }
}

Result runBullet(const std::string& name, int steps) {
  BulletScene s;
  buildBullet(name, s);
  s.bullet.world.getSolverInfo().m_numIterations = bulletIterations;
  Result r;
  for (int i = 0; i < steps; ++i) {
    const Real c0 = tumble::bench::threadMs();
    s.bullet.world.stepSimulation(btScalar(kDt), 0, btScalar(kDt));
    r.stepMs.push_back(tumble::bench::threadMs() - c0);
    for (const BulletScene::Anchor& an : s.anchors) {
      const btVector3 gap =
          an.a->getCenterOfMassTransform() * an.inA - an.b->getCenterOfMassTransform() * an.inB;
      r.widestGap = std::max(r.widestGap, Real(gap.length()));
    }
    r.awake = 0;
    for (auto& b : s.bodies)
      r.awake += b->getInvMass() > 0 && b->getActivationState() != ISLAND_SLEEPING;
    if (r.awake > 0) r.allAsleep = -1;
    if (r.awake == 0 && r.allAsleep < 0) r.allAsleep = i + 1;
  }
  for (auto& b : s.bodies)
    r.below += b->getInvMass() > 0 && b->getCenterOfMassPosition().y() < -0.5;
  for (auto& c : s.joints) s.bullet.world.removeConstraint(c.get());
  for (auto& b : s.bodies)
    if (b.get() != s.fixed) s.bullet.world.removeRigidBody(b.get());
  return r;
}

Real median(std::vector<Real> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Step i's time the median of the runs' step i.
Result stepMedians(const std::vector<Result>& runs) {
  Result r;
  for (size_t i = 0; i < runs.front().stepMs.size(); ++i) {
    std::vector<Real> v;
    for (const Result& run : runs) v.push_back(run.stepMs[i]);
    r.stepMs.push_back(median(v));
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  int rounds = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--bullet-iterations" || arg == "--rounds") {
      const long most = arg == "--rounds" ? 100 : 10000;
      char* end = nullptr;
      const long n = i + 1 < argc ? std::strtol(argv[i + 1], &end, 10) : 0;
      if (i + 1 >= argc || *end != '\0' || n < 1 || n > most) {
        std::fprintf(stderr, "bench_joints: %s: expected an integer 1 to %ld\n", arg.c_str(), most);
        return 2;
      }
      (arg == "--rounds" ? rounds : bulletIterations) = static_cast<int>(n);
      ++i;
    } else {
      only = arg;
    }
  }
  std::printf(
      "ms per step, thread CPU time, %d steps of 1/60 s (t: Tumble, b: Bullet, %d iterations)\n",
      kSteps, bulletIterations);
  std::printf("%-10s %7s %7s %8s %8s %7s %8s %17s %8s %9s %13s %11s\n", "scene", "t mean", "b mean",
              "t worst", "b worst", "mean r", "worst r", "widest gap t/b", "fell t/b", "awake t/b",
              "all asleep t/b", "worst at t/b");
  for (const char* name : {"ragdolls", "bridge"}) {
    if (std::string(name).find(only) == std::string::npos) continue;
    std::vector<Real> tm, bm, tw, bw, mr, wr;
    std::vector<Result> ts, bs;
    for (int round = 0; round < rounds; ++round) {
      const Result t = runTumble(name, kSteps);
      const Result b = runBullet(name, kSteps);
      std::printf(
          "%-10s %7.3f %7.3f %8.3f %8.3f %7.2f %8.2f %6.1f/%-6.1f mm %4d/%d %5d/%-3d %6d/%-6d "
          "%5d/%d\n",
          name, t.mean(), b.mean(), t.worst(), b.worst(), t.mean() / b.mean(),
          t.worst() / b.worst(), 1000.0 * t.widestGap, 1000.0 * b.widestGap, t.below, b.below,
          t.awake, b.awake, t.allAsleep, b.allAsleep, t.worstStep(), b.worstStep());
      std::fflush(stdout);
      tm.push_back(t.mean());
      bm.push_back(b.mean());
      tw.push_back(t.worst());
      bw.push_back(b.worst());
      mr.push_back(t.mean() / b.mean());
      wr.push_back(t.worst() / b.worst());
      ts.push_back(t);
      bs.push_back(b);
    }
    if (rounds < 2) continue;
    std::printf("%-10s %7.3f %7.3f %8.3f %8.3f %7.2f %8.2f   (medians of the %d rounds' figures)\n",
                (std::string(name) + "~").c_str(), median(tm), median(bm), median(tw), median(bw),
                median(mr), median(wr), rounds);
    // Both engines step the same scene the same way every round (the same work at step i), so
    // the median of step i's times over the rounds is its cost without the hiccups, and the
    // largest such median is the worst step's.
    const Result t = stepMedians(ts), b = stepMedians(bs);
    std::printf(
        "%-10s %7.3f %7.3f %8.3f %8.3f %7.2f %8.2f   (each step's median over the rounds) "
        "worst at %d/%d\n",
        (std::string(name) + "=").c_str(), t.mean(), b.mean(), t.worst(), b.worst(),
        t.mean() / b.mean(), t.worst() / b.worst(), t.worstStep(), b.worstStep());
    // The first step builds what the later ones keep (contacts, joint groups, the solver's
    // arrays, fresh memory): once per world. The worst of the others beside it.
    Result tl = t, bl = b;
    tl.stepMs.erase(tl.stepMs.begin());
    bl.stepMs.erase(bl.stepMs.begin());
    std::printf(
        "%-10s %7s %7s %8.3f %8.3f %7s %8.2f   (the same, the first step left out) worst at "
        "%d/%d\n",
        (std::string(name) + "=").c_str(), "", "", tl.worst(), bl.worst(), "",
        tl.worst() / bl.worst(), tl.worstStep() + 1, bl.worstStep() + 1);
  }
  if (std::string("car").find(only) != std::string::npos) {
    const Result c = runTumble("car", kSteps, kCarSpeed);
    std::printf(
        "car (its wheels' motors at %.0f rad/s): Tumble mean %.3f ms, worst %.3f ms per step over "
        "%d steps; widest anchor gap %.2f mm\n",
        kCarSpeed, c.mean(), c.worst(), kSteps, 1000.0 * c.widestGap);
  }
  if (std::string("joint_grid").find(only) != std::string::npos) {
    const Result g = runTumble("joint_grid", kGridSteps);
    std::printf(
        "joint_grid: Tumble mean %.2f ms, worst %.2f ms per step over %d steps; widest "
        "anchor gap %.1f mm; Box3D publishes %.1f ms (Ryzen 7950X, one thread): ratio "
        "%.2f; steps 2 to %d (as Box3D's app times them) %.2f ms, ratio %.2f\n",
        g.mean(), g.worst(), kGridSteps, 1000.0 * g.widestGap, kBox3dGridMs,
        g.mean() / kBox3dGridMs, kGridSteps, g.meanAfterFirst(), g.meanAfterFirst() / kBox3dGridMs);
  }
  return 0;
}
