// The narrow phase of a step (docs/ARCHITECTURE.md, "The narrow phase in passes"). With
// threads, a parallel pass decides what each pair needs and runs collide() and the manifold
// update for the pairs that need them, each into its own slot; a serial pass in pair order wakes
// bodies, settles touch events, runs the cross-check, sums the counters and gives each kept pair
// its place in the new lists; a parallel pass writes the pairs and copies their manifolds there.
// On one thread one loop does it all. The result is the serial loop's, bit for bit, at any
// thread count.
#include <algorithm>
#include <bit>
#include <cmath>

#include "collision/collide_internal.h"
#include "core/huge_pages.h"
#include "core/prefetch.h"
#include "dynamics/body_cores.h"
#include "dynamics/body_ops.h"
#include "dynamics/contact_update.h"
#include "dynamics/world_crosscheck.h"
#include "tumble/support.h"
#include "tumble/world.h"

namespace tumble {
namespace {

// Pairs per chunk of the parallel pass: a pair costs 0.2-2 us (recycled to a hull pair's GJK and
// clipping), so a chunk is long against the pool's 1-2 us per loop and there are enough chunks to
// even the load.
constexpr int kPairGrain = 256;
// How many pairs ahead the narrow phase's loops fetch a body (the keys come sorted by a: b jumps
// across the bodies).
constexpr size_t kFetchAhead = 4;
// How many jobs ahead the copy pass fetches a job's result.
constexpr size_t kResultAhead = 8;
static_assert(kPairGrain ==
              64 * static_cast<int>(std::tuple_size_v<decltype(NarrowChunk::attention)>));

bool needsWork(NarrowJob::Kind k) {
  return k == NarrowJob::Kind::Convex || k == NarrowJob::Kind::Children;
}

void add(NarrowPhaseCounters& to, const NarrowPhaseCounters& c) {
  to.gjkCalls += c.gjkCalls;
  to.gjkIterations += c.gjkIterations;
  to.gjkIterationsMax = std::max(to.gjkIterationsMax, c.gjkIterationsMax);
  to.gjkCapHits += c.gjkCapHits;
  to.epaCalls += c.epaCalls;
  to.epaIterations += c.epaIterations;
  to.epaIterationsMax = std::max(to.epaIterationsMax, c.epaIterationsMax);
  to.epaCapHits += c.epaCapHits;
}

// A manifold without points holds GJK's separating direction in its normal (updateManifold): the
// pair's axis; none for a manifold with points.
PackedAxis axisOf(const Manifold& m) {
  return !m.touching() && m.normal != Vec3(0.0) ? PackedAxis::encode(m.normal) : PackedAxis{};
}

// max over the body's shape (convex) of dot(point, n), n unit in world axes.
Real extent(const Body& body, const Vec3& n) {
  const SupportShape s = body.shape.support();
  const Vec3 local = glm::conjugate(body.rotation) * n;
  Real top;
  if (s.cylinder) {
    top = glm::dot(s.cylinder->support(local), local);
  } else if (s.points.size() <= 32) {
    // Small sets (boxes, small hulls, a sphere's point, a capsule's segment): two running
    // maxima over the points.
    const Vec3* p = s.points.data();
    const size_t count = s.points.size();
    Real top0 = glm::dot(p[0], local), top1 = top0;
    size_t i = 1;
    for (; i + 1 < count; i += 2) {
      top0 = std::max(top0, glm::dot(p[i], local));
      top1 = std::max(top1, glm::dot(p[i + 1], local));
    }
    if (i < count) top0 = std::max(top0, glm::dot(p[i], local));
    top = std::max(top0, top1);
  } else {
    top = glm::dot(s.points[static_cast<size_t>(supportIndex(s, local))], local);
  }
  // The shape's origin is center - rotation * localCenter (Body::transform).
  return top - glm::dot(body.localCenter, local) + glm::dot(body.center, n) +
         body.shape.roundRadius();
}

// A Convex job's manifold as the new ContactPair keeps it (with threads: the copy pass reads it
// from the job's result).
void keepConvex(const Manifold& m, const NarrowSummary& summary, NarrowResult& r) {
  r.cache = m.cache;
  r.distance = m.distance;
  r.recycled = summary.recycled;
  r.overlapping = m.overlapping;
  r.axis = axisOf(m);
}

bool active(const Body& b) {
  return b.isDynamic() && b.awake;
}

// Whether the serial merge has anything to do for a job decided before any wake of this step (a
// job after a wake is checked again whatever this says): a pair of last step gone touching before
// it (an end event), a touch beginning or ending, the cross-check (its sequence numbers follow the
// pairs), or a wake (the job keeps points and one of its bodies is dynamic and asleep).
bool needsMerge(const NarrowJob& job, bool crosscheck) {
  if (job.goneTouching) return true;
  if (job.kind == NarrowJob::Kind::Asleep) return false;
  if (job.touching != job.was) return true;
  if (!needsWork(job.kind)) return false;
  return crosscheck ||
         (job.count > 0 && ((job.dynamicA && !job.activeA) || (job.dynamicB && !job.activeB)));
}

// Last step's manifold of an old pair a few pairs on (the old pairs mostly continue, in key
// order), every line of it: the recycling test (the found pose), the recycled copy (all of it)
// and the warm start (the points, the normal and the friction impulses) read most of them. A
// manifold is 656 bytes and a heap's are megabytes, read in order but in part, which the
// hardware's stream prefetch did not follow: the old manifold's lines were the top misses of
// writePoints and canRecycle.
void fetchOldManifold(const std::vector<Manifold>& manifolds, const ContactPair& p) {
  if (p.manifold < 0) return;
  const char* m = reinterpret_cast<const char*>(&manifolds[static_cast<size_t>(p.manifold)]);
  for (size_t at = 0; at < sizeof(Manifold); at += 64) detail::prefetch(m + at);
  detail::prefetch(m + sizeof(Manifold) - 1);
}

// For the loops over the keys, at old pair `oi`: the manifold of the old pair kFetchAhead on, and
// the old pair itself four times as far on (80 bytes each, read in order, but the manifold's
// index was the loop's top miss once the manifolds were fetched).
void fetchOldPair(const std::vector<ContactPair>& pairs, const std::vector<Manifold>& manifolds,
                  size_t oi) {
  if (oi + 4 * kFetchAhead < pairs.size()) detail::prefetch(&pairs[oi + 4 * kFetchAhead]);
  if (oi + kFetchAhead < pairs.size()) fetchOldManifold(manifolds, pairs[oi + kFetchAhead]);
}

}  // namespace

// The keys come sorted by a: b jumps across the bodies. The narrow phase's loops fetch a later
// pair's b (the lines classifyPair and collide read: type and shape, pose and velocities, flags,
// alive and generation) and its box.
void World::fetchPairBody(int b) const {
  const Body& body = bodies_[static_cast<size_t>(b)];
  detail::prefetch(&body.type);
  detail::prefetch(&body.center);
  detail::prefetch(&body.angularVelocity);
  detail::prefetch(&body.awake);
  detail::prefetch(&boxes_[static_cast<size_t>(b)]);
}

// Reads the bodies' awake flags, boxes and motions and last step's pair: nothing the parallel
// pass writes.
void World::classifyPair(NarrowJob& job, Real h, const Settings& s) const {
  const Body& A = bodies_[job.a];
  const Body& B = bodies_[job.b];
  job.aliveA = A.alive;
  job.aliveB = B.alive;
  job.generationA = A.generation;
  job.generationB = B.generation;
  job.activeA = active(A);
  job.activeB = active(B);
  job.dynamicA = A.isDynamic();
  job.dynamicB = B.isDynamic();
  if (!job.activeA && !job.activeB) {
    job.kind = NarrowJob::Kind::Asleep;
    return;
  }
  if (!boxes_[job.a].overlaps(boxes_[job.b])) {
    // Farther apart than the speculative distance: no contact, no GJK (the fat boxes of the
    // broad-phase overlap, the grown tight boxes do not).
    job.kind = NarrowJob::Kind::Apart;
    return;
  }
  // The reach the broad phase kept (updateBroadPhase), or the body's own for one it did not
  // move (asleep then, or static: 0; or woken since by a pair before this one).
  auto reachOf = [&](int i, const Body& b) {
    const Real r = reach_[static_cast<size_t>(i)];
    return r >= 0.0 ? r : reach(b, h);
  };
  job.speculative = s.contact.speculativeMargin + reachOf(job.a, A) + reachOf(job.b, B);
  const ContactPair* oldPair = job.oldPair >= 0 ? &pairs_[job.oldPair] : nullptr;
  if (oldPair && oldPair->manifold < 0 && !oldPair->overlapping && oldPair->distance > 0.0) {
    // Last distance (or bound) minus how far both bodies moved: still beyond reach, no GJK.
    const Real bound = oldPair->distance - motion_[job.a] - motion_[job.b];
    if (bound > job.speculative) {
      job.bound = bound;
      job.kind = NarrowJob::Kind::Bounded;
      return;
    }
  }
  const bool hasAxis =
      oldPair && oldPair->manifold < 0 && !oldPair->overlapping && oldPair->axis.valid();
  // Not for two spheres or capsules: their closed forms cost about what the test does.
  const bool closedForm = A.shape.round() != nullptr && B.shape.round() != nullptr;
  if ((hasAxis || !oldPair) && !closedForm && A.shape.isConvex() && B.shape.isConvex()) {
    // Last GJK's separating direction (for a new pair, the line between the centres), tried
    // again: the gap between the two shapes along it is a lower bound on their distance (the
    // separating-axis test on one axis).
    const Vec3 d = hasAxis ? oldPair->axis.decode() : B.center - A.center;
    const Real length = glm::length(d);
    const Vec3 n = length > 0.0 ? d / length : Vec3(0.0);
    const Real gap = length > 0.0 ? -extent(B, -n) - extent(A, n) : 0.0;
    if (gap > job.speculative) {
      job.bound = gap;
      job.kind = NarrowJob::Kind::Bounded;
      return;
    }
  }
  job.kind = A.shape.isConvex() && B.shape.isConvex() ? NarrowJob::Kind::Convex
                                                      : NarrowJob::Kind::Children;
}

// Runs on any worker: reads the bodies and last step's pairs and manifolds, writes only its
// arguments. Appends a Convex job's manifold (with or without points) to `convex`, a Children
// job's manifolds (one per touching pair of children) to `children`.
void World::collidePair(const NarrowJob& job, const Settings& s, std::vector<ChildContact>& scratch,
                        NarrowSummary& summary, std::vector<Manifold>& children,
                        std::vector<Manifold>* convex) const {
  const Body& A = bodies_[job.a];
  const Body& B = bodies_[job.b];
  const ContactPair* oldPair = job.oldPair >= 0 ? &pairs_[job.oldPair] : nullptr;
  const Manifold* old =
      oldPair && oldPair->manifold >= 0 ? &manifolds_[oldPair->manifold] : nullptr;
  summary = NarrowSummary{};
  const BodyId ia = idAt(job.a), ib = idAt(job.b);
  if (job.kind == NarrowJob::Kind::Children) {
    // Each warm started from last step's manifold with the same key (both lists are in key
    // order). Not recycled.
    scratch.clear();
    // Compound children with their own filters or sensor flags are filtered pair by pair.
    const ChildFilters filters{A.filter, B.filter};
    const bool byChild = flaggedCompound(A) || flaggedCompound(B);
    collideChildren(A.shape, A.transform(), B.shape, B.transform(), job.speculative, s, scratch,
                    byChild ? &filters : nullptr);
    const int oldCount = old ? oldPair->manifoldCount : 0;
    int oj = 0;
    for (const ChildContact& c : scratch) {
      while (oj < oldCount && old[oj].key < c.key) ++oj;
      const Manifold* previous = oj < oldCount && old[oj].key == c.key ? &old[oj] : nullptr;
      Manifold& m = children.emplace_back();
      m.a = ia;
      m.b = ib;
      m.friction = std::sqrt(A.friction * B.friction);
      m.restitution = std::max(A.restitution, B.restitution);
      m.key = c.key;
      m.rollingResistance = static_cast<float>(rollingResistance(
          A, static_cast<uint32_t>(c.key >> 32), B, static_cast<uint32_t>(c.key & 0xffffffffu)));
      m.radiusA = static_cast<float>(c.radiusA);
      m.radiusB = static_cast<float>(c.radiusB);
      updateManifold(A, B, c.result, previous, m, summary.counters);
      summary.overlapping = summary.overlapping || m.overlapping;
    }
    return;
  }
  // Built in place (a manifold is 656 bytes): a recycled one copied from last step's, a new one
  // value-initialised, each written once (a cleared entry overwritten by the copy was a second
  // 656-byte write per recycled pair); cleared again only after a failed recycle.
  const bool spheres = A.shape.type() == ShapeType::Sphere && B.shape.type() == ShapeType::Sphere;
  bool recycled = !spheres && old && canRecycle(A, B, *old, s.contact.recycleDistance);
  Manifold& m = recycled ? convex->emplace_back(*old) : convex->emplace_back();
  if (recycled && !remeasure(A, B, m)) {  // tipping or rocking on the kept points
    recycled = false;
    m = Manifold{};
  }
  summary.recycled = recycled;
  m.a = ia;
  m.b = ib;
  m.friction = std::sqrt(A.friction * B.friction);
  m.restitution = std::max(A.restitution, B.restitution);
  m.rollingResistance = static_cast<float>(rollingResistance(A, 0, B, 0));
  m.radiusA = static_cast<float>(A.shape.roundRadius());
  m.radiusB = static_cast<float>(B.shape.roundRadius());
  if (recycled) return;
  if (spheres) {
    updateSphereManifold(A, B, job.speculative, old, m, summary.counters);
    return;
  }
  const GjkSimplex* warm = oldPair && oldPair->cache.count > 0 ? &oldPair->cache : nullptr;
  detail::BoxBound bound;
  const CollideResult found = detail::collideBounded(A.shape, A.transform(), B.shape, B.transform(),
                                                     job.speculative, s, warm, bound);
  updateManifold(A, B, found, old, m, summary.counters);
  // Two boxes out of reach along an axis of the separating-axis test: no GJK, so no closest
  // points; the axis is the pair's (a lower bound on the distance along it, as GJK's direction
  // gives the distance itself).
  if (bound.bounded) m.normal = bound.axis;
  m.radiusA += static_cast<float>(found.sideRadiusA);
  m.radiusB += static_cast<float>(found.sideRadiusB);
}

void World::updateContacts(Real h, const Settings& s) {
  std::vector<std::pair<int, int>>& keys = pairKeys_;
  // Each pair's bodies (two lookups in the tree's nodes, anywhere in memory), in parallel with
  // threads, each key in its own slot; and whether the keys are in order, per chunk (the pair
  // after a chunk's last is the next chunk's first: each chunk also compares its first key with
  // the key before it).
  const std::vector<ProxyPair>& proxyPairs = broadPhase_.pairs();
  const int pairCount = static_cast<int>(proxyPairs.size());
  constexpr int kKeyGrain = 4096;
  keys.resize(proxyPairs.size());
  keysOrdered_.assign(static_cast<size_t>((pairCount + kKeyGrain - 1) / kKeyGrain), 1);
  parallelFor(taskSystem(), pairCount, kKeyGrain, [&](int begin, int end, int) {
    const AabbTree& tree = broadPhase_.tree();
    for (int i = begin; i < end; ++i) {
      const ProxyPair& p = proxyPairs[static_cast<size_t>(i)];
      const int a = tree.userData(p.first), b = tree.userData(p.second);
      keys[static_cast<size_t>(i)] = {std::min(a, b), std::max(a, b)};
    }
  });
  parallelFor(taskSystem(), pairCount, kKeyGrain, [&](int begin, int end, int) {
    const size_t from = static_cast<size_t>(std::max(begin - 1, 0));
    keysOrdered_[static_cast<size_t>(begin / kKeyGrain)] =
        std::is_sorted(keys.begin() + static_cast<std::ptrdiff_t>(from), keys.begin() + end);
  });
  // Proxy ids follow body indices until slots are reused: usually sorted already.
  if (std::find(keysOrdered_.begin(), keysOrdered_.end(), 0) != keysOrdered_.end())
    std::sort(keys.begin(), keys.end());
  filterPairs(keys);
  const size_t n = bodies_.size();
  const size_t known = std::min(lastCenter_.size(), n);
  lastCenter_.resize(n);
  lastRotation_.resize(n);
  motion_.resize(n);
  // Each body's own slots (in parallel with threads), and whether any is awake (an OR per chunk).
  constexpr int kBodyGrain = 512;
  const int bodyChunks = static_cast<int>((n + kBodyGrain - 1) / kBodyGrain);
  awakeChunks_.assign(static_cast<size_t>(bodyChunks), 0);
  parallelFor(taskSystem(), static_cast<int>(n), kBodyGrain, [&](int begin, int end, int) {
    bool awake = false;
    for (size_t i = static_cast<size_t>(begin); i < static_cast<size_t>(end); ++i) {
      const Body& b = bodies_[i];
      awake = awake || (b.alive && b.isDynamic() && b.awake);
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
    awakeChunks_[static_cast<size_t>(begin / kBodyGrain)] = awake;
  });
  // Nothing awake and the same pairs as last step: every pair would be kept as it was.
  bool anyAwake = false;
  for (char a : awakeChunks_) anyAwake = anyAwake || a;
  if (!anyAwake && keys.size() == pairs_.size()) {
    bool same = true;
    for (size_t k = 0; same && k < keys.size(); ++k)
      same = pairs_[k].a.index == keys[k].first && pairs_[k].b.index == keys[k].second;
    if (same) return;
  }
  NarrowPhaseCounters counters;
  if (TaskSystem* tasks = taskSystem()) {
    collideJobs(tasks, h, s);
    mergeJobs(tasks, h, s, counters);
  } else {
    mergeSerial(h, s, counters);
  }
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

// One thread: each pair is matched with last step's, decided and collided when the loop comes to
// it, with its bodies in cache, into the new lists in place. Two arrays are merged from the keys
// and last step's pairs, a small ContactPair for every pair and a Manifold only for pairs with
// points.
void World::mergeSerial(Real h, const Settings& s, NarrowPhaseCounters& counters) {
  const std::vector<std::pair<int, int>>& keys = pairKeys_;
  NarrowScratch& ns = narrow_;
  if (ns.childContacts.empty()) ns.childContacts.resize(1);
  std::vector<ContactPair>& nextPairs = nextPairs_;
  std::vector<Manifold>& next = nextManifolds_;
  nextPairs.clear();
  next.clear();
  // Grow ahead of need: a reallocation copies every entry at once (megabytes in a heap, and fresh
  // pages to fault in), which would land on the frame where the pair count jumps.
  // On huge pages where the kernel offers them (core/huge_pages.h).
  if (nextPairs.capacity() < keys.size())
    detail::reserveLarge(nextPairs, std::max(2 * keys.size(), 12 * bodies_.size()));
  if (next.capacity() < keys.size() / 2)
    detail::reserveLarge(next, std::max(keys.size(), 6 * bodies_.size()));
  size_t oi = 0;
  // The pair whose begin or end is still to be decided, once its manifolds are made (events
  // settle each pair while they are in cache: docs/ARCHITECTURE.md, "Events and filtering").
  int open = -1;
  bool openWas = false;
  for (size_t k = 0; k < keys.size(); ++k) {
    // On the stack: the list of jobs is for the passes with threads; nothing reads a job after
    // its pair here.
    NarrowJob job;
    if (k + kFetchAhead < keys.size()) fetchPairBody(keys[k + kFetchAhead].second);
    fetchOldPair(pairs_, manifolds_, oi);
    if (open >= 0) settleTouch(nextPairs[open], openWas, next), open = -1;
    while (oi < pairs_.size() && std::pair(pairs_[oi].a.index, pairs_[oi].b.index) < keys[k])
      pairGone(pairs_[oi++]);
    const ContactPair* oldPair = nullptr;
    if (oi < pairs_.size() && pairs_[oi].a.index == keys[k].first &&
        pairs_[oi].b.index == keys[k].second)
      oldPair = &pairs_[oi++];
    job.a = keys[k].first;
    job.b = keys[k].second;
    job.oldPair = oldPair ? static_cast<int>(oldPair - pairs_.data()) : -1;
    const Body& A = bodies_[job.a];
    const Body& B = bodies_[job.b];
    classifyPair(job, h, s);
    const size_t first = next.size();
    NarrowSummary summary;
    if (needsWork(job.kind))
      collidePair(job, s, ns.childContacts[0], summary, next,
                  job.kind == NarrowJob::Kind::Convex ? &next : nullptr);
    if (job.kind == NarrowJob::Kind::Asleep) {
      // Asleep: keep the pair and its contact as they were.
      if (oldPair) {
        ContactPair& kept = nextPairs.emplace_back(*oldPair);
        if (oldPair->manifold >= 0) {
          const Manifold* old = &manifolds_[oldPair->manifold];
          kept.manifold = static_cast<int>(next.size());
          next.insert(next.end(), old, old + oldPair->manifoldCount);
        }
      }
      continue;
    }
    ContactPair& p = nextPairs.emplace_back();
    p.a = idAt(job.a);
    p.b = idAt(job.b);
    open = static_cast<int>(nextPairs.size()) - 1;
    openWas = oldPair && oldPair->touching;
    if (oldPair) p.cache = oldPair->cache, p.axis = oldPair->axis;
    if (job.kind == NarrowJob::Kind::Apart) continue;
    if (job.kind == NarrowJob::Kind::Bounded) {
      p.distance = job.bound;
      continue;
    }
    add(counters, summary.counters);
    // The cross-check runs its own GJK and LP on the pair as it is now (recycled or not), here in
    // key order: its sampling and its log follow the pairs' sequence numbers.
    const bool crosscheck = s.crosscheck != CrossCheckMode::Off;
    if (job.kind == NarrowJob::Kind::Children) {
      p.cache = GjkSimplex{};
      p.axis = PackedAxis{};
      p.overlapping = summary.overlapping;
      p.distance = 0.0;  // no bound: the children's distances say nothing of the others'
      p.manifoldCount = static_cast<int>(next.size() - first);
      p.manifold = p.manifoldCount > 0 ? static_cast<int>(first) : -1;
      if (crosscheck)
        for (size_t c = first; c < next.size(); ++c)
          crossCheckChildren(A, B, next[c].key, job.a, job.b, s, crosscheckCounter_++,
                             crosscheckLog_, crosscheckChecked_, crosscheckDisagreed_,
                             stats_.lpPivots);
    } else {
      const Manifold& m = next.back();
      if (summary.recycled) ++stats_.recycled;
      if (crosscheck)
        crossCheckPair(A, B, job.a, job.b, s, crosscheckCounter_++, crosscheckLog_,
                       crosscheckChecked_, crosscheckDisagreed_, stats_.lpPivots);
      p.cache = m.cache;
      p.overlapping = m.overlapping;
      p.distance = m.distance;
      p.axis = axisOf(m);
      if (!m.touching()) {
        next.pop_back();
        continue;
      }
      p.manifold = static_cast<int>(first);
      p.manifoldCount = 1;
    }
    if (p.manifoldCount > 0) {
      if (A.isDynamic() && !A.awake) wakeBody(job.a);
      if (B.isDynamic() && !B.awake) wakeBody(job.b);
    }
  }
  if (open >= 0) settleTouch(nextPairs[open], openWas, next);
  for (; oi < pairs_.size(); ++oi) pairGone(pairs_[oi]);
  pairs_.swap(nextPairs);
  manifolds_.swap(next);
}

// With threads, pass 1, parallel over the jobs in fixed chunks: each chunk matches its keys with
// last step's pairs (a binary search for the key before its first, then both lists in step),
// decides what each pair needs, runs collide() and the manifold update of those that need them,
// and measures what the merge will keep (the manifold count, the touching flag). A Convex job's
// manifold goes to the end of its worker's list, a Children job's to its own result. Nothing
// else is written: no wakes, no events, no shared counters.
void World::collideJobs(TaskSystem* tasks, Real h, const Settings& s) {
  const std::vector<std::pair<int, int>>& keys = pairKeys_;
  NarrowScratch& ns = narrow_;
  ns.jobs.resize(keys.size());
  ns.chunks.resize((keys.size() + kPairGrain - 1) / kPairGrain);
  const bool crosscheck = s.crosscheck != CrossCheckMode::Off;
  const size_t workers = static_cast<size_t>(tasks->workerCount());
  if (ns.childContacts.size() < workers) ns.childContacts.resize(workers);
  if (ns.results.size() < ns.jobs.size()) {
    ns.results.resize(ns.jobs.size());
    ns.jobCounters.resize(ns.jobs.size());
    ns.childManifolds.resize(ns.jobs.size());
  }
  if (ns.convex.size() < workers) ns.convex.resize(workers);
  for (std::vector<Manifold>& list : ns.convex) list.clear();
  auto keyOf = [](const ContactPair& p) { return std::pair(p.a.index, p.b.index); };
  parallelFor(
      tasks, static_cast<int>(ns.jobs.size()), kPairGrain, [&](int begin, int end, int worker) {
        // From the first of last step's pairs above the previous chunk's last key: the pairs gone
        // before this chunk's first key are this chunk's to look at.
        size_t oi = 0;
        if (begin > 0)
          oi = static_cast<size_t>(
              std::partition_point(pairs_.begin(), pairs_.end(),
                                   [&](const ContactPair& p) {
                                     return keyOf(p) <= keys[static_cast<size_t>(begin) - 1];
                                   }) -
              pairs_.begin());
        NarrowChunk& chunk = ns.chunks[static_cast<size_t>(begin / kPairGrain)];
        chunk.attention = {};
        chunk.pairs = 0;
        chunk.manifolds = 0;
        chunk.oldBegin = static_cast<int>(oi);
        chunk.counters = {};
        chunk.recycled = 0;
        chunk.recount = false;
        for (int k = begin; k < end; ++k) {
          if (static_cast<size_t>(k) + kFetchAhead < static_cast<size_t>(end))
            fetchPairBody(keys[static_cast<size_t>(k) + kFetchAhead].second);
          fetchOldPair(pairs_, manifolds_, oi);
          NarrowJob& job = ns.jobs[k];
          job.a = keys[k].first;
          job.b = keys[k].second;
          job.goneTouching = false;
          for (; oi < pairs_.size() && keyOf(pairs_[oi]) < keys[k]; ++oi)
            job.goneTouching = job.goneTouching || pairs_[oi].touching;
          job.oldBegin = static_cast<int>(oi);
          job.oldPair =
              oi < pairs_.size() && keyOf(pairs_[oi]) == keys[k] ? static_cast<int>(oi++) : -1;
          job.late = -1;
          classifyPair(job, h, s);
          if (needsWork(job.kind)) {
            NarrowResult& r = ns.results[k];
            NarrowSummary summary;
            std::vector<Manifold>& children = ns.childManifolds[static_cast<size_t>(k)];
            std::vector<Manifold>* convex = nullptr;
            if (job.kind == NarrowJob::Kind::Convex) {
              convex = &ns.convex[static_cast<size_t>(worker)];
              r.worker = worker;
              r.slot = static_cast<int>(convex->size());
            } else {
              children.clear();
            }
            collidePair(job, s, ns.childContacts[worker], summary, children, convex);
            if (convex) {
              // What the pair keeps; a manifold without points is not copied again (a third of
              // a heap's: 656 bytes each that the copy pass would read from further away).
              keepConvex(convex->back(), summary, r);
              if (!convex->back().touching()) convex->pop_back(), r.slot = -1;
              if (summary.recycled) ++chunk.recycled;
            } else {
              r.overlapping = summary.overlapping;
            }
            add(chunk.counters, summary.counters);
            ns.jobCounters[static_cast<size_t>(k)] = summary.counters;
          }
          measureJob(job, static_cast<size_t>(k));
          if (job.kind != NarrowJob::Kind::Asleep || job.oldPair >= 0) {
            ++chunk.pairs;
            chunk.manifolds += job.count;
          }
          if (needsMerge(job, crosscheck)) {
            const int j = k - begin;
            chunk.attention[static_cast<size_t>(j / 64)] |= uint64_t{1} << (j % 64);
          }
        }
        chunk.oldEnd = static_cast<int>(oi);
      });
}

// Where a job's manifolds are before the merge copies them: last step's list (a kept sleeping
// pair), the worker's list or the merge's own (Convex), the job's result (Children).
const Manifold* World::jobManifolds(const NarrowJob& job, size_t k) const {
  switch (job.kind) {
    case NarrowJob::Kind::Asleep:
      return job.count > 0 ? &manifolds_[pairs_[job.oldPair].manifold] : nullptr;
    case NarrowJob::Kind::Convex: {
      if (job.late >= 0) return &narrow_.late[static_cast<size_t>(job.late)];
      const NarrowResult& r = narrow_.results[k];
      return r.slot >= 0
                 ? &narrow_.convex[static_cast<size_t>(r.worker)][static_cast<size_t>(r.slot)]
                 : nullptr;
    }
    case NarrowJob::Kind::Children:
      return narrow_.childManifolds[k].data();
    default:
      return nullptr;
  }
}

// The manifolds a job keeps and whether it touches (settleTouch's test), as the serial loop
// finds them.
void World::measureJob(NarrowJob& job, size_t k) const {
  const ContactPair* oldPair = job.oldPair >= 0 ? &pairs_[job.oldPair] : nullptr;
  job.count = 0;
  job.touching = false;
  switch (job.kind) {
    case NarrowJob::Kind::Asleep:
      job.count = oldPair && oldPair->manifold >= 0 ? oldPair->manifoldCount : 0;
      return;
    case NarrowJob::Kind::Convex: {
      const Manifold* m = jobManifolds(job, k);
      job.count = m && m->touching() ? 1 : 0;
      break;
    }
    case NarrowJob::Kind::Children:
      job.count = static_cast<int>(narrow_.childManifolds[k].size());
      break;
    default:
      break;
  }
  job.was = oldPair && oldPair->touching;
  job.touching = touches(jobManifolds(job, k), job.count, job.was);
}

// With threads, pass 2, serial in key order, reading the jobs and little else: the pairs gone
// since last step, a job decided again when an earlier pair of this pass woke one of its bodies
// (and collided here when it was asleep or its reach changed: the serial loop decided each pair
// after the wakes of the pairs before it, and so does this), touch events, the cross-check with
// its sequence numbers, the wakes, and each kept pair's place in the new lists. Then pass 3, in
// parallel over the jobs: each pair and its manifolds are written to their places, and the
// counters summed per chunk.
void World::mergeJobs(TaskSystem* tasks, Real h, const Settings& s, NarrowPhaseCounters& counters) {
  NarrowScratch& ns = narrow_;
  ns.late.clear();
  ns.checks.clear();
  const bool crosscheck = s.crosscheck != CrossCheckMode::Off;
  bool woken = false;  // until a body is woken, every job's awake flags are still the bodies'
  // One job as the serial loop meets it; oi: the first of last step's pairs after the job before.
  auto visit = [&](size_t k, size_t oi) {
    NarrowJob& job = ns.jobs[k];
    NarrowResult& r = ns.results[k];
    // Last step's pairs gone before this one: only a touching one makes an event.
    if (job.goneTouching)
      for (; oi < static_cast<size_t>(job.oldBegin); ++oi) pairGone(pairs_[oi]);
    if (woken && (active(bodies_[job.a]) != job.activeA || active(bodies_[job.b]) != job.activeB)) {
      const NarrowJob before = job;
      classifyPair(job, h, s);
      // The chunk's counters are summed again from the jobs' (this one's may change or drop).
      ns.chunks[k / kPairGrain].recount = true;
      // Bit equality: the same inputs give the same speculative distance.
      if (needsWork(job.kind) &&
          (before.kind != job.kind || before.speculative != job.speculative)) {
        std::vector<Manifold>* convex = nullptr;
        std::vector<Manifold>& children = ns.childManifolds[k];
        children.clear();
        if (job.kind == NarrowJob::Kind::Convex) {
          job.late = static_cast<int>(ns.late.size());
          convex = &ns.late;
        }
        NarrowSummary summary;
        collidePair(job, s, ns.childContacts[0], summary, children, convex);
        if (convex)
          keepConvex(convex->back(), summary, r);
        else
          r.overlapping = summary.overlapping;
        ns.jobCounters[k] = summary.counters;
      }
      measureJob(job, k);
    }
    if (job.kind == NarrowJob::Kind::Asleep) return;
    if (job.touching != job.was)
      touchEvent(idAt(job.a), idAt(job.b), job.was, job.touching, jobManifolds(job, k), job.count);
    if (!needsWork(job.kind)) return;
    const Body& A = bodies_[job.a];
    const Body& B = bodies_[job.b];
    if (crosscheck) {
      // Numbered and sampled here, in key order; run after the merge, in parallel.
      auto sample = [&](bool children, uint64_t key) {
        const uint64_t sequence = crosscheckCounter_++;
        if (!crossCheckSampled(s, sequence)) return;
        CrossCheckRun& run = ns.checks.emplace_back();
        run.indexA = job.a, run.indexB = job.b;
        run.children = children, run.key = key;
        run.sequence = sequence;
      };
      if (job.kind == NarrowJob::Kind::Children) {
        const Manifold* m = jobManifolds(job, k);
        for (int c = 0; c < job.count; ++c) sample(true, m[c].key);
      } else {
        sample(false, 0);
      }
    }
    if (job.count > 0) {
      // Before the first wake the flags the job was decided with are the bodies'.
      if (woken ? A.isDynamic() && !A.awake : job.dynamicA && !job.activeA)
        wakeBody(job.a), woken = true;
      if (woken ? B.isDynamic() && !B.awake : job.dynamicB && !job.activeB)
        wakeBody(job.b), woken = true;
    }
  };
  // The first of last step's pairs after job k (its own, or the first above its key).
  auto after = [&](size_t k) {
    const NarrowJob& job = ns.jobs[k];
    return static_cast<size_t>(job.oldPair >= 0 ? job.oldPair + 1 : job.oldBegin);
  };
  // Chunk by chunk: before the first wake of the step nothing changes a job, so only the jobs the
  // parallel pass flagged are visited and the chunk keeps the counts that pass found; from the
  // first wake on, every job is checked again and the chunk's counts are taken anew.
  const size_t keys = ns.jobs.size();
  int pairCount = 0, manifoldCount = 0;
  for (size_t c = 0; c < ns.chunks.size(); ++c) {
    NarrowChunk& chunk = ns.chunks[c];
    chunk.basePair = pairCount;
    chunk.baseManifold = manifoldCount;
    const size_t begin = c * kPairGrain;
    const size_t n = std::min(keys - begin, static_cast<size_t>(kPairGrain));
    auto from = [&](size_t j) {
      return j == 0 ? static_cast<size_t>(chunk.oldBegin) : after(begin + j - 1);
    };
    size_t j = 0;
    while (!woken && j < n) {
      const uint64_t bits = chunk.attention[j / 64] >> (j % 64);
      if (bits == 0) {
        j = (j / 64 + 1) * 64;
        continue;
      }
      j += static_cast<size_t>(std::countr_zero(bits));
      visit(begin + j, from(j));
      ++j;
    }
    if (woken) {
      for (; j < n; ++j) visit(begin + j, from(j));
      chunk.pairs = 0;
      chunk.manifolds = 0;
      for (size_t k = begin; k < begin + n; ++k) {
        const NarrowJob& job = ns.jobs[k];
        if (job.kind != NarrowJob::Kind::Asleep || job.oldPair >= 0) {
          ++chunk.pairs;
          chunk.manifolds += job.count;
        }
      }
    }
    if (chunk.recount) {
      chunk.counters = {};
      chunk.recycled = 0;
      for (size_t k = begin; k < begin + n; ++k) {
        const NarrowJob& job = ns.jobs[k];
        if (!needsWork(job.kind)) continue;
        add(chunk.counters, ns.jobCounters[k]);
        if (job.kind == NarrowJob::Kind::Convex && ns.results[k].recycled) ++chunk.recycled;
      }
    }
    add(counters, chunk.counters);
    stats_.recycled += chunk.recycled;
    pairCount += chunk.pairs;
    manifoldCount += chunk.manifolds;
  }
  for (size_t oi = ns.chunks.empty() ? 0 : static_cast<size_t>(ns.chunks.back().oldEnd);
       oi < pairs_.size(); ++oi)
    pairGone(pairs_[oi]);
  // The sampled cross-checks (GJK, EPA and the LP on each pair's cores: hundreds of times a
  // pair's contact) in parallel, each into its own run, then counted and logged in order.
  parallelFor(tasks, static_cast<int>(ns.checks.size()), 4, [&](int begin, int end, int) {
    for (int i = begin; i < end; ++i) {
      CrossCheckRun& run = ns.checks[static_cast<size_t>(i)];
      crossCheckRun(bodies_[run.indexA], bodies_[run.indexB], run, s);
    }
  });
  for (const CrossCheckRun& run : ns.checks)
    crossCheckRecord(bodies_[run.indexA], bodies_[run.indexB], run, crosscheckLog_,
                     crosscheckChecked_, crosscheckDisagreed_, stats_.lpPivots);

  std::vector<ContactPair>& nextPairs = nextPairs_;
  std::vector<Manifold>& next = nextManifolds_;
  // Grown ahead of need (a reallocation would copy every entry on the frame where the pair count
  // jumps); resize constructs only the entries beyond the list's last size, and every entry is
  // written below.
  if (nextPairs.capacity() < keys)
    detail::reserveLarge(nextPairs, std::max(2 * keys, 12 * bodies_.size()));
  if (next.capacity() < static_cast<size_t>(manifoldCount))
    detail::reserveLarge(next, std::max(keys, 6 * bodies_.size()));
  nextPairs.resize(static_cast<size_t>(pairCount));
  next.resize(static_cast<size_t>(manifoldCount));
  parallelFor(tasks, static_cast<int>(keys), kPairGrain, [&](int begin, int end, int) {
    // Each kept pair's place in the new lists, from the chunk's first (the merge's count).
    const NarrowChunk& chunk = ns.chunks[static_cast<size_t>(begin / kPairGrain)];
    int pair = chunk.basePair, manifold = chunk.baseManifold;
    for (int k = begin; k < end; ++k) {
      // The results are read only for the jobs that needed work: too sparse for the hardware's
      // stream prefetch.
      if (static_cast<size_t>(k) + kResultAhead < ns.jobs.size())
        detail::prefetch(&ns.results[static_cast<size_t>(k) + kResultAhead]);
      NarrowJob& job = ns.jobs[k];
      if (job.kind == NarrowJob::Kind::Asleep && job.oldPair < 0) continue;
      const int first = manifold;
      manifold += job.count;
      ContactPair& p = nextPairs[static_cast<size_t>(pair++)];
      const ContactPair* oldPair = job.oldPair >= 0 ? &pairs_[job.oldPair] : nullptr;
      const Manifold* from = jobManifolds(job, static_cast<size_t>(k));
      std::copy(from, from + job.count, next.begin() + first);
      if (job.kind == NarrowJob::Kind::Asleep) {
        // Asleep: the pair and its contact as they were.
        p = *oldPair;
        if (oldPair->manifold >= 0) p.manifold = first;
        continue;
      }
      // Field by field (a ContactPair{} built on the stack and copied cost a third of this loop);
      // the ids as idAt gives them, from the job (the bodies are far away by now).
      p.a = job.aliveA ? BodyId{job.a, job.generationA} : BodyId{};
      p.b = job.aliveB ? BodyId{job.b, job.generationB} : BodyId{};
      p.cache = oldPair ? oldPair->cache : GjkSimplex{};
      p.axis = oldPair ? oldPair->axis : PackedAxis{};
      p.distance = 0.0;
      p.overlapping = false;
      p.touching = job.touching;
      p.manifold = -1;
      p.manifoldCount = 0;
      switch (job.kind) {
        case NarrowJob::Kind::Bounded:
          p.distance = job.bound;
          break;
        case NarrowJob::Kind::Children:
          p.cache = GjkSimplex{};
          p.axis = PackedAxis{};
          p.overlapping = ns.results[static_cast<size_t>(k)].overlapping;
          p.distance = 0.0;  // no bound: the children's distances say nothing of the others'
          p.manifoldCount = job.count;
          p.manifold = job.count > 0 ? first : -1;
          break;
        case NarrowJob::Kind::Convex: {
          const NarrowResult& r = ns.results[static_cast<size_t>(k)];
          p.cache = r.cache;
          p.axis = r.axis;
          p.overlapping = r.overlapping;
          p.distance = r.distance;
          if (job.count > 0) p.manifold = first, p.manifoldCount = 1;
          break;
        }
        default:
          break;
      }
    }
  });
  pairs_.swap(nextPairs);
  manifolds_.swap(next);
}

}  // namespace tumble
