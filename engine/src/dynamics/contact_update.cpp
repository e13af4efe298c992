// The world's contact update: collide()'s world points become body anchors, and last step's
// manifold lends its impulses to the points that continue it (warm starting, Catto 2005).
#include "dynamics/contact_update.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/collide_internal.h"
#include "geometry/tangent_basis.h"

namespace tumble {
namespace {

constexpr Real kMatchDistance = 0.02;  // m
// Friction is carried over while the normal turns less than this (cosine, about 25 degrees).
constexpr Real kKeepFrictionCos = 0.9;
// cos(theta / 2) of the largest turn of either body under which a manifold is recycled: 10 degrees.
constexpr Real kRecycleTurnCos = 0.99619469809174553;
// A manifold whose points' separations moved unevenly since the narrow phase found them (the
// largest change minus the smallest) by more than this is found again: the body is tipping or
// rocking on the kept points, and they would let a face that is not among them sink unseen, then
// be pushed out, for ever (a 20-point hull rocked on the ground at 0.1 m/s for minutes: hull20
// heaps, seeds 3 and 20; at 1 mm another still rocked, hull20 500 seed 1). Points that move
// together (a stack settling under its load) keep the manifold.
constexpr Real kRecycleDrift = 0.0005;  // m

void count(const CollideResult& r, NarrowPhaseCounters& counters) {
  const GjkResult& g = r.gjk;
  ++counters.gjkCalls;
  counters.gjkIterations += g.iterations;
  counters.gjkIterationsMax = std::max(counters.gjkIterationsMax, g.iterations);
  if (g.status == GjkStatus::MaxIterations) ++counters.gjkCapHits;
  if (!r.overlapping) return;
  const EpaResult& e = r.epa;
  ++counters.epaCalls;
  counters.epaIterations += e.iterations;
  counters.epaIterationsMax = std::max(counters.epaIterationsMax, e.iterations);
  if (e.status == EpaStatus::MaxIterations) ++counters.epaCapHits;
}

// Warm start: carry the normal impulse of the old point with the same feature id, else of the
// nearest old point within kMatchDistance in B's frame (clipping ids flicker when faces are
// flush). The manifold's friction is re-expressed in the new tangent basis.
void carryImpulses(const Manifold& previous, Manifold& m) {
  bool used[4] = {false, false, false, false};
  bool matched[4] = {false, false, false, false};
  for (int i = 0; i < m.pointCount; ++i) {
    ContactPoint& cp = m.points[i];
    int match = -1;
    Real best = kMatchDistance * kMatchDistance;
    for (int j = 0; j < previous.pointCount; ++j) {
      if (used[j]) continue;
      if (previous.points[j].id == cp.id) {
        match = j;
        break;
      }
      const Vec3 d = previous.points[j].localB - cp.localB;
      if (glm::dot(d, d) < best) best = glm::dot(d, d), match = j;
    }
    if (match >= 0) {
      used[match] = true;
      cp.normalImpulse = previous.points[match].normalImpulse;
    }
    matched[i] = match >= 0;
  }
  // The load of old points left unmatched goes to the new points left unmatched, in equal
  // shares: the manifold keeps carrying what it carried. (When the clipped polygon changes
  // shape, the reduction may keep other corners than last step; dropping their load would let the
  // body above sink for a step, and a resting stack pulses every few steps.)
  Real lost = 0.0;
  int unmatched = 0;
  for (int j = 0; j < previous.pointCount; ++j)
    if (!used[j]) lost += previous.points[j].normalImpulse;
  for (int i = 0; i < m.pointCount; ++i) unmatched += matched[i] ? 0 : 1;
  if (lost > 0.0 && unmatched > 0)
    for (int i = 0; i < m.pointCount; ++i)
      if (!matched[i]) m.points[i].normalImpulse = lost / static_cast<Real>(unmatched);
  if (glm::dot(previous.normal, m.normal) > kKeepFrictionCos) {
    const Vec3 ft = previous.frictionImpulse[0] * previous.tangent1 +
                    previous.frictionImpulse[1] * previous.tangent2;
    m.frictionImpulse[0] = glm::dot(ft, m.tangent1);
    m.frictionImpulse[1] = glm::dot(ft, m.tangent2);
    m.twistImpulse = previous.twistImpulse;
    if (m.rollingResistance > 0.0f) {
      const Vec3 rt = Real(previous.rollingImpulse[0]) * previous.tangent1 +
                      Real(previous.rollingImpulse[1]) * previous.tangent2;
      m.rollingImpulse[0] = static_cast<float>(glm::dot(rt, m.tangent1));
      m.rollingImpulse[1] = static_cast<float>(glm::dot(rt, m.tangent2));
    }
  }
}

// The points of `m` (m.pointCount of `points`, world points on A and B) as anchors relative to
// each centre of mass, the normal and its tangents, the pose they were found at, and the impulses
// carried from `previous`.
void writePoints(const Body& a, const Body& b, const Vec3& normal, const CollidePoint* points,
                 const Manifold* previous, Manifold& m) {
  m.normal = normal;
  tangentBasis(m.normal, m.tangent1, m.tangent2);
  const Quat invA = glm::conjugate(a.rotation), invB = glm::conjugate(b.rotation);
  for (int i = 0; i < m.pointCount; ++i) {
    const CollidePoint& p = points[i];
    ContactPoint& cp = m.points[i];
    cp = ContactPoint{};
    cp.localA = invA * (p.pointA - a.center);
    cp.localB = invB * (p.pointB - b.center);
    cp.separation = p.separation;
    cp.foundSeparation = static_cast<float>(p.separation);
    cp.baseSeparation = p.separation - glm::dot(m.normal, p.pointB - p.pointA);
    cp.id = p.id;
  }
  m.found = {a.center, b.center, a.rotation, b.rotation, true};
  if (previous && previous->pointCount > 0) carryImpulses(*previous, m);
}

}  // namespace

void updateManifold(const Body& a, const Body& b, const CollideResult& r, const Manifold* previous,
                    Manifold& m, NarrowPhaseCounters& counters) {
  count(r, counters);
  m.cache = r.gjk.simplex;
  m.gjkIterations = r.gjk.iterations;
  m.epaIterations = r.overlapping ? r.epa.iterations : 0;
  m.overlapping = r.overlapping;
  m.distance = r.distance;
  m.pointCount = r.pointCount;
  if (r.pointCount == 0) {
    // No points: the normal field keeps GJK's separating direction instead (the pair's axis,
    // ContactPair::axis), 0 0 0 when there is none (overlapping, or no closest points).
    m.normal = Vec3(0.0);
    if (!r.overlapping) {
      const Vec3 d = r.gjk.pointB - r.gjk.pointA;
      const Real len = glm::length(d);
      if (len > 0.0) m.normal = d / len;
    }
    return;
  }
  writePoints(a, b, r.normal, r.points, previous, m);
}

void updateSphereManifold(const Body& a, const Body& b, Real speculative, const Manifold* previous,
                          Manifold& m, NarrowPhaseCounters& counters) {
  // What collideSpheres' CollideResult would give updateManifold: no GJK run (no simplex, no
  // iterations, no closest points: no axis), counted as one GJK call and, overlapping, one EPA.
  Vec3 normal;
  const CollidePoint p =
      detail::spherePoint(a.shape, a.transform(), b.shape, b.transform(), normal);
  ++counters.gjkCalls;
  m.cache = GjkSimplex{};
  m.gjkIterations = 0;
  m.epaIterations = 0;
  m.overlapping = p.separation < 0.0;
  if (m.overlapping) ++counters.epaCalls;
  m.distance = p.separation;
  m.pointCount = p.separation > speculative ? 0 : 1;
  if (m.pointCount == 0) {
    m.normal = Vec3(0.0);
    return;
  }
  writePoints(a, b, normal, &p, previous, m);
}

bool canRecycle(const Body& a, const Body& b, const Manifold& previous, Real tolerance) {
  // Round shapes roll: their contact point moves over the surface as they turn, which kept anchors
  // do not follow. Their pairs are cheap to collide again (closed forms or a point core). A
  // rounded hull's points move over its rounded edges as it tips, a cylinder's over its side as
  // it rolls: found again too. (Asked first: the bodies' shapes are in cache, the old manifold's
  // pose is a line of its own, which a sphere heap's pairs read for nothing.)
  if (a.shape.roundRadius() > 0.0 || b.shape.roundRadius() > 0.0) return false;
  if (a.shape.cylinder() != nullptr || b.shape.cylinder() != nullptr) return false;
  const ContactPose& f = previous.found;
  if (!f.valid || previous.pointCount == 0 || !(tolerance > 0.0)) return false;
  // Each body turned less than kRecycleTurn: the normal is kept in world axes. (Not only the
  // relative pose: two bodies carried and turned together keep their relative pose, but the
  // normal between them turns with them.)
  const Real turnA = std::abs(glm::dot(a.rotation, f.rotationA));
  const Real turnB = std::abs(glm::dot(b.rotation, f.rotationB));
  if (std::min(turnA, turnB) < kRecycleTurnCos) return false;
  // How far any point of one body moved in the other's frame since then, bounded by the centre's
  // move plus the chord of the turn at the body's radius; the smaller of the two views (a body
  // beside a 400 m ground moves little in the ground's frame).
  auto moved = [](const Vec3& c0, const Quat& q0, const Vec3& o0, const Quat& p0, const Vec3& c,
                  const Quat& q, const Vec3& o, const Quat& p, Real radius) {
    // Frame body (c0, q0) -> (c, q); other body (o0, p0) -> (o, p) with the given radius.
    const Vec3 before = glm::conjugate(q0) * (o0 - c0), after = glm::conjugate(q) * (o - c);
    const Quat r0 = glm::conjugate(q0) * p0, r = glm::conjugate(q) * p;
    const Real cosHalf = std::min<Real>(1.0, std::abs(glm::dot(r0, r)));
    return glm::length(after - before) + 2.0 * std::sqrt(1.0 - cosHalf * cosHalf) * radius;
  };
  // std::min(inA, inB) < tolerance, with B's view measured only when A's does not decide it.
  const Real inA = moved(f.centerA, f.rotationA, f.centerB, f.rotationB, a.center, a.rotation,
                         b.center, b.rotation, b.radius);
  if (inA < tolerance) return true;
  if (std::isnan(inA)) return false;  // std::min(NaN, x) is NaN
  const Real inB = moved(f.centerB, f.rotationB, f.centerA, f.rotationA, b.center, b.rotation,
                         a.center, a.rotation, a.radius);
  return inB < tolerance;
}

bool remeasure(const Body& a, const Body& b, Manifold& m) {
  Real deepest = std::numeric_limits<Real>::infinity();
  Real lo = deepest, hi = -deepest;
  for (int i = 0; i < m.pointCount; ++i) {
    ContactPoint& cp = m.points[i];
    const Vec3 pA = a.center + a.rotation * cp.localA, pB = b.center + b.rotation * cp.localB;
    cp.separation = cp.baseSeparation + glm::dot(m.normal, pB - pA);
    deepest = std::min(deepest, cp.separation);
    const Real drift = cp.separation - static_cast<Real>(cp.foundSeparation);
    lo = std::min(lo, drift);
    hi = std::max(hi, drift);
  }
  m.overlapping = deepest < 0.0;
  m.distance = deepest;
  return m.pointCount == 0 || hi - lo <= kRecycleDrift;
}

}  // namespace tumble
