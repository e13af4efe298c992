// Box3D on issue 15's joint scenes beside Tumble, in one process, one thread: a Tumble scene file
// (default bridge) loaded by Tumble, its bodies and joints built again through Box3D's public API
// (boxes as b3MakeBoxHull, spheres and capsules as Box3D's own; Tumble's masses, frictions,
// poses and velocities; a hinge as b3RevoluteJointDef with the frame's z along the axis and its
// limits and motor; a ball as b3SphericalJointDef; a swing-twist as b3SphericalJointDef with the
// cone and the twist limit about z, its friction as the joint's motor at zero velocity), Box3D's
// world defaults otherwise (soft joints and contacts, sleeping on), the scene's gravity, 1/60 s
// with SUBSTEPS substeps (default 4, Tumble's default) and its joints' constraint stiffness
// HERTZ (default Box3D's 60 Hz; Box3D caps it at a quarter of the substep rate). Tumble and Box3D
// run alternately, ROUNDS rounds (default 3) of STEPS steps (default 600): thread CPU time per
// step, mean, median and worst of the steps (and each step's median over the rounds, whose worst
// is the worst step's cost without the machine's hiccups, as in bench_joints), the widest anchor
// gap of any joint at any step, the bodies awake at the end, the step after which all slept (-1:
// never) and the lowest dynamic body's centre (a body off the bridge or through the ground shows
// there). Printed, never asserted.
//
// Not part of Tumble's build: it needs a Box3D checkout built by tests/bench/box3d/compare.sh
// (BOX3D/build-tumble) and Tumble's release build. From the repository root, one line:
//   g++ -O2 -std=c++20 -DTUMBLE_SOLVER_FLOAT -DGLM_FORCE_CTOR_INIT -DGLM_ENABLE_EXPERIMENTAL
//     -I engine/include -I BOX3D/include tests/bench/box3d/joints.cpp
//     build/release/engine/libtumble.a BOX3D/build-tumble/src/libbox3d.a -lqhull_r
//     -ltinyobjloader -lpthread -o /tmp/b3joints
// then `taskset -c 1 /tmp/b3joints assets/scenes/bridge.json [STEPS [SUBSTEPS [ROUNDS [HERTZ]]]]`.
// Read, never copied: nothing of Box3D enters Tumble's build.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <variant>
#include <vector>

#include "box3d/box3d.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;

double threadMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

struct Result {
  std::vector<double> ms;
  double gap = 0.0;
  int awake = 0;
  int allAsleep = -1;    // the first step after which every dynamic body slept, -1: never
  double lowest = 1e30;  // m, the lowest dynamic body's centre at the end (a sanity check)
  double mean() const {
    double m = 0.0;
    for (double x : ms) m += x / static_cast<double>(ms.size());
    return m;
  }
  // After step `step`, `awake` dynamic bodies are awake.
  void count(int step, int awakeNow) {
    awake = awakeNow;
    if (awake > 0) allAsleep = -1;
    if (awake == 0 && allAsleep < 0) allAsleep = step;
  }
  double median() const {
    std::vector<double> s = ms;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
  // The worst step from step `from` (0: the first) and its number (from 1).
  double worst(int from = 0) const { return *std::max_element(ms.begin() + from, ms.end()); }
  int worstStep(int from = 0) const {
    return static_cast<int>(std::max_element(ms.begin() + from, ms.end()) - ms.begin()) + 1;
  }
};

// Each step's median over the rounds (step i is the same work in every round, so the largest such
// median is the worst step's cost without the shared machine's hiccups, as bench_joints says).
Result stepMedians(const std::vector<Result>& runs) {
  Result m;
  m.ms.resize(runs.front().ms.size());
  std::vector<double> at(runs.size());
  for (size_t i = 0; i < m.ms.size(); ++i) {
    for (size_t k = 0; k < runs.size(); ++k) at[k] = runs[k].ms[i];
    std::sort(at.begin(), at.end());
    m.ms[i] = at[at.size() / 2];
  }
  return m;
}

b3Vec3 v3(const Vec3& v) {
  return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
}
b3Quat q3(const tumble::Quat& q) {
  return {{static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z)},
          static_cast<float>(q.w)};
}

// The rotation of a world frame whose z axis is `axis` (unit).
tumble::Quat frameAlongZ(const Vec3& axis) {
  const Vec3 x = std::abs(axis.y) < 0.9 ? glm::normalize(glm::cross(Vec3(0, 1, 0), axis))
                                        : glm::normalize(glm::cross(Vec3(1, 0, 0), axis));
  const Vec3 y = glm::cross(axis, x);
  return glm::quat_cast(tumble::Mat3(x, y, axis));
}

std::unique_ptr<tumble::World> loadTumble(const char* file) {
  auto scene = tumble::loadScene(file);
  if (!scene) {
    std::fprintf(stderr, "joints: %s\n", scene.error().c_str());
    std::exit(2);
  }
  auto world = tumble::buildWorld(*scene);
  if (!world) {
    std::fprintf(stderr, "joints: %s\n", world.error().c_str());
    std::exit(2);
  }
  return std::move(*world);
}

Result runTumble(const char* file, int steps) {
  auto world = loadTumble(file);
  Result r;
  for (int i = 0; i < steps; ++i) {
    const double t0 = threadMs();
    (void)world->step(1.0 / 60.0);
    r.ms.push_back(threadMs() - t0);
    for (tumble::JointId id : world->jointIds()) {
      const tumble::JointView v = *world->joint(id);
      r.gap = std::max(r.gap, static_cast<double>(glm::length(v.anchorA - v.anchorB)));
    }
    int awake = 0;
    for (tumble::BodyId id : world->bodyIds()) {
      const tumble::BodyView b = *world->body(id);
      awake += b.isDynamic() && b.awake;
      if (i + 1 == steps && b.isDynamic())
        r.lowest = std::min(r.lowest, static_cast<double>(b.centerOfMass.y));
    }
    r.count(i + 1, awake);
  }
  return r;
}

struct Anchor {
  b3BodyId a, b;
  b3Vec3 inA, inB;
};

Result runBox3d(const char* file, int steps, int substeps, float hertz) {
  auto world = loadTumble(file);
  const tumble::Scene scene = *tumble::loadScene(file);
  b3WorldDef def = b3DefaultWorldDef();
  def.workerCount = 1;
  def.gravity = v3(world->settings().gravity);
  b3WorldId wid = b3CreateWorld(&def);
  std::vector<b3BodyId> ids;
  std::vector<tumble::Transform> poses;  // Tumble's centre-of-mass frames
  for (tumble::BodyId id : world->bodyIds()) {
    const tumble::BodyView b = *world->body(id);
    b3BodyDef bd = b3DefaultBodyDef();
    bd.type = b.isDynamic() ? b3_dynamicBody : b3_staticBody;
    bd.position = {static_cast<float>(b.centerOfMass.x), static_cast<float>(b.centerOfMass.y),
                   static_cast<float>(b.centerOfMass.z)};
    bd.rotation = q3(b.rotation);
    bd.linearVelocity = v3(b.linearVelocity);
    bd.angularVelocity = v3(b.angularVelocity);
    b3BodyId bid = b3CreateBody(wid, &bd);
    b3ShapeDef sd = b3DefaultShapeDef();
    sd.baseMaterial.friction = static_cast<float>(b.friction);
    sd.density = 1.0f;
    b3ShapeId sid;
    const Vec3 off = -b.localCenterOfMass;  // the shape's origin in the centre-of-mass frame
    if (const tumble::RoundCore* round = b.shape.round()) {
      if (round->count == 1) {
        b3Sphere s{v3(round->points[0] + off), static_cast<float>(round->radius)};
        sid = b3CreateSphereShape(bid, &sd, &s);
      } else {
        b3Capsule c{v3(round->points[0] + off), v3(round->points[1] + off),
                    static_cast<float>(round->radius)};
        sid = b3CreateCapsuleShape(bid, &sd, &c);
      }
    } else if (b.shape.hull() && b.shape.hull()->vertices().size() == 8) {
      const tumble::Aabb box = b.shape.bounds(tumble::Transform{});
      const Vec3 h = 0.5 * (box.upper - box.lower), c = 0.5 * (box.upper + box.lower) + off;
      b3BoxHull hull = b3MakeOffsetBoxHull(static_cast<float>(h.x), static_cast<float>(h.y),
                                           static_cast<float>(h.z), v3(c));
      sid = b3CreateHullShape(bid, &sd, &hull.base);
    } else {
      std::fprintf(stderr, "joints: body %d is not a box, sphere or capsule\n", id.index);
      std::exit(2);
    }
    if (b.isDynamic()) {
      const float m = b3Body_GetMass(bid);
      b3Shape_SetDensity(sid, static_cast<float>(b.mass) / m, true);
    }
    ids.push_back(bid);
    poses.push_back({b.centerOfMass, b.rotation});
  }
  b3BodyDef gd = b3DefaultBodyDef();
  const b3BodyId ground = b3CreateBody(wid, &gd);  // the static world of a = -1 or b = -1
  auto body = [&](int i) { return i >= 0 ? ids[static_cast<size_t>(i)] : ground; };
  auto pose = [&](int i) { return i >= 0 ? poses[static_cast<size_t>(i)] : tumble::Transform{}; };
  std::vector<Anchor> anchors;
  for (const tumble::SceneJoint& sj : scene.joints) {
    const tumble::Transform ta = pose(sj.a), tb = pose(sj.b);
    // The bodies and frames of a Box3D joint definition (its other fields as defaulted).
    auto base = [&](b3JointDef& jd, const Vec3& anchor, const Vec3& axis) {
      jd.constraintHertz = hertz;
      jd.bodyIdA = body(sj.a);
      jd.bodyIdB = body(sj.b);
      const tumble::Quat f = frameAlongZ(glm::normalize(axis));
      jd.localFrameA = {v3(glm::conjugate(ta.rotation) * (anchor - ta.position)),
                        q3(glm::conjugate(ta.rotation) * f)};
      jd.localFrameB = {v3(glm::conjugate(tb.rotation) * (anchor - tb.position)),
                        q3(glm::conjugate(tb.rotation) * f)};
      anchors.push_back({jd.bodyIdA, jd.bodyIdB, jd.localFrameA.p, jd.localFrameB.p});
    };
    if (const auto* h = std::get_if<tumble::HingeJointDef>(&sj.def)) {
      b3RevoluteJointDef d = b3DefaultRevoluteJointDef();
      base(d.base, h->anchor, h->axis);
      d.enableLimit = h->limits.enabled;
      d.lowerAngle = static_cast<float>(h->limits.lower);
      d.upperAngle = static_cast<float>(h->limits.upper);
      d.enableMotor = h->motor.enabled;
      d.motorSpeed = static_cast<float>(h->motor.speed);
      d.maxMotorTorque = static_cast<float>(h->motor.maxEffort);
      b3CreateRevoluteJoint(wid, &d);
    } else if (const auto* s = std::get_if<tumble::SwingTwistJointDef>(&sj.def)) {
      b3SphericalJointDef d = b3DefaultSphericalJointDef();
      base(d.base, s->anchor, s->axis);
      d.enableConeLimit = true;
      d.coneAngle = static_cast<float>(s->swing);
      d.enableTwistLimit = true;
      d.lowerTwistAngle = static_cast<float>(s->twistLower);
      d.upperTwistAngle = static_cast<float>(s->twistUpper);
      // Tumble's swing-twist friction as Box3D's spherical motor at rest with that much torque.
      d.enableMotor = s->friction > 0.0;
      d.maxMotorTorque = static_cast<float>(s->friction);
      d.motorVelocity = {0.0f, 0.0f, 0.0f};
      b3CreateSphericalJoint(wid, &d);
    } else if (const auto* ball = std::get_if<tumble::BallJointDef>(&sj.def)) {
      b3SphericalJointDef d = b3DefaultSphericalJointDef();
      base(d.base, ball->anchor, Vec3(0, 0, 1));
      b3CreateSphericalJoint(wid, &d);
    } else {
      std::fprintf(stderr, "joints: a joint kind this driver does not translate\n");
      std::exit(2);
    }
  }
  Result r;
  for (int i = 0; i < steps; ++i) {
    const double t0 = threadMs();
    b3World_Step(wid, 1.0f / 60.0f, substeps);
    r.ms.push_back(threadMs() - t0);
    for (const Anchor& an : anchors) {
      const b3Pos pa = b3Body_GetWorldPoint(an.a, an.inA), pb = b3Body_GetWorldPoint(an.b, an.inB);
      const double dx = pa.x - pb.x, dy = pa.y - pb.y, dz = pa.z - pb.z;
      r.gap = std::max(r.gap, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
    int awake = 0;
    for (b3BodyId id : ids) {
      if (b3Body_GetType(id) != b3_dynamicBody) continue;
      awake += b3Body_IsAwake(id);
      if (i + 1 == steps)
        r.lowest = std::min(r.lowest, static_cast<double>(b3Body_GetPosition(id).y));
    }
    r.count(i + 1, awake);
  }
  b3DestroyWorld(wid);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  const char* file = argc > 1 ? argv[1] : "assets/scenes/bridge.json";
  const int steps = argc > 2 ? std::atoi(argv[2]) : 600;
  const int substeps = argc > 3 ? std::atoi(argv[3]) : 4;
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 3;
  const float hertz = argc > 5 ? std::strtof(argv[5], nullptr) : 60.0f;
  if (steps < 1 || substeps < 1 || rounds < 1 || !(hertz > 0.0f)) {
    std::fprintf(stderr, "usage: joints [SCENE.json [STEPS [SUBSTEPS [ROUNDS [HERTZ]]]]]\n");
    return 2;
  }
  std::printf(
      "%s, %d steps of 1/60 s, Box3D %d substeps and joints of %g Hz, Tumble its scene's "
      "settings; thread CPU ms per step\n",
      file, steps, substeps, static_cast<double>(hertz));
  std::printf("%5s %9s %9s %9s %9s %8s %8s %7s %7s %7s %13s %10s %13s %13s %13s\n", "round",
              "t mean", "b3 mean", "t median", "b3 median", "t worst", "b3 worst", "mean r",
              "med r", "worst r", "gap t/b3 mm", "awake t/b3", "asleep t/b3", "lowest t/b3 m",
              "worst at t/b3");
  std::vector<Result> ts, bs;
  for (int k = 1; k <= rounds; ++k) {
    ts.push_back(runTumble(file, steps));
    bs.push_back(runBox3d(file, steps, substeps, hertz));
    const Result& t = ts.back();
    const Result& b = bs.back();
    std::printf(
        "%5d %9.4f %9.4f %9.4f %9.4f %8.4f %8.4f %7.2f %7.2f %7.2f %6.1f/%-6.1f %5d/%-4d "
        "%6d/%-6d %6.3f/%-6.3f %6d/%d\n",
        k, t.mean(), b.mean(), t.median(), b.median(), t.worst(), b.worst(), t.mean() / b.mean(),
        t.median() / b.median(), t.worst() / b.worst(), 1e3 * t.gap, 1e3 * b.gap, t.awake, b.awake,
        t.allAsleep, b.allAsleep, t.lowest, b.lowest, t.worstStep(), b.worstStep());
    std::fflush(stdout);
  }
  // The worst step as each step's median over the rounds, with and without the first step (its
  // cold caches and fresh arrays: once per world).
  const Result t = stepMedians(ts), b = stepMedians(bs);
  for (int from = 0; from < 2 && from < steps - 1; ++from)
    std::printf(
        "each step's median over the %d rounds%s: worst t %.4f at step %d, b3 %.4f at step %d, "
        "ratio %.2f\n",
        rounds, from ? ", the first step left out" : "", t.worst(from), t.worstStep(from),
        b.worst(from), b.worstStep(from), t.worst(from) / b.worst(from));
  return 0;
}
