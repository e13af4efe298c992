// The narrow phase of a step (docs/ARCHITECTURE.md, "The narrow phase in three passes"): a serial
// pass decides what each pair needs, a parallel pass runs collide() and the manifold update for
// the pairs that need it, each into its own slot, and a serial pass in pair order appends the
// manifolds, wakes bodies, settles touch events, runs the cross-check and sums the counters. The
// result is the serial loop's, bit for bit, at any thread count.
#include <algorithm>
#include <cmath>

#include "dynamics/body_cores.h"
#include "dynamics/body_ops.h"
#include "dynamics/contact_update.h"
#include "dynamics/world_crosscheck.h"
#include "tumble/world.h"

namespace tumble {
namespace {

// Pairs per chunk of the parallel pass: a pair costs 0.2-2 us (recycled to a hull pair's GJK and
// clipping), so a chunk is long against the pool's 1-2 us per loop and there are enough chunks to
// even the load.
constexpr int kPairGrain = 256;

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

bool active(const Body& b) {
  return b.isDynamic() && b.awake;
}

}  // namespace

// Reads the bodies' awake flags, boxes and motions and last step's pair: nothing the parallel
// pass writes.
void World::classifyPair(NarrowJob& job, Real h, const Settings& s) const {
  const Body& A = bodies_[job.a];
  const Body& B = bodies_[job.b];
  job.activeA = active(A);
  job.activeB = active(B);
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
  job.speculative = s.contact.speculativeMargin + reach(A, h) + reach(B, h);
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
  job.kind = A.shape.isConvex() && B.shape.isConvex() ? NarrowJob::Kind::Convex
                                                      : NarrowJob::Kind::Children;
}

// Runs on any worker: reads the bodies and last step's pairs and manifolds, writes only its
// arguments. Writes a Convex job's manifold (with or without points) to `convex`, a fresh
// (value-initialised) entry; appends a Children job's manifolds (one per touching pair of
// children) to `children`.
void World::collidePair(const NarrowJob& job, const Settings& s, std::vector<ChildContact>& scratch,
                        NarrowSummary& summary, std::vector<Manifold>& children,
                        Manifold* convex) const {
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
  // Built in place (a manifold is 656 bytes): a recycled one as a copy of last step's, a new one
  // in the fresh entry the callers give (cleared again only after a failed recycle: a second
  // 656-byte clear per pair cost 2% of the 2000-sphere heap's step).
  Manifold& m = *convex;
  bool recycled = old && canRecycle(A, B, *old, s.contact.recycleDistance);
  if (recycled) {
    m = *old;
    if (!remeasure(A, B, m)) {  // tipping or rocking on the kept points
      recycled = false;
      m = Manifold{};
    }
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
  const GjkSimplex* warm = oldPair && oldPair->cache.count > 0 ? &oldPair->cache : nullptr;
  const CollideResult found =
      collide(A.shape, A.transform(), B.shape, B.transform(), job.speculative, s, warm);
  updateManifold(A, B, found, old, m, summary.counters);
  m.radiusA += static_cast<float>(found.sideRadiusA);
  m.radiusB += static_cast<float>(found.sideRadiusB);
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
  // Pass 1, serial: each key matched with last step's pair (both lists are sorted). On one
  // thread, pass 3 matches them as it goes.
  NarrowScratch& ns = narrow_;
  TaskSystem* tasks = taskSystem();
  ns.jobs.resize(keys.size());
  size_t oi = 0;
  for (size_t k = 0; tasks && k < keys.size(); ++k) {
    NarrowJob& job = ns.jobs[k];
    job.a = keys[k].first;
    job.b = keys[k].second;
    while (oi < pairs_.size() && std::pair(pairs_[oi].a.index, pairs_[oi].b.index) < keys[k]) ++oi;
    job.oldPair = -1;
    if (oi < pairs_.size() && pairs_[oi].a.index == job.a && pairs_[oi].b.index == job.b)
      job.oldPair = static_cast<int>(oi++);
  }

  // Pass 2, parallel: what each pair needs, and collide() and the manifold update of those that
  // need them, into the pair's own slot; nothing else is written (no wakes, no events, no shared
  // counters). On one thread there is no pass 2: pass 3 does it all when it comes to the pair,
  // with the pair's bodies in cache, as the serial loop did.
  const size_t workers = tasks ? static_cast<size_t>(tasks->workerCount()) : 1;
  if (ns.childContacts.size() < workers) ns.childContacts.resize(workers);
  if (tasks && ns.results.size() < ns.jobs.size()) ns.results.resize(ns.jobs.size());
  if (ns.convex.size() < workers) ns.convex.resize(workers);
  for (std::vector<Manifold>& list : ns.convex) list.clear();
  if (tasks)
    parallelFor(tasks, static_cast<int>(ns.jobs.size()), kPairGrain,
                [&](int begin, int end, int worker) {
                  for (int k = begin; k < end; ++k) {
                    NarrowJob& job = ns.jobs[k];
                    classifyPair(job, h, s);
                    if (!needsWork(job.kind)) continue;
                    NarrowResult& r = ns.results[k];
                    r.manifolds.clear();
                    Manifold* convex = nullptr;
                    if (job.kind == NarrowJob::Kind::Convex) {
                      std::vector<Manifold>& list = ns.convex[static_cast<size_t>(worker)];
                      r.worker = worker;
                      r.slot = static_cast<int>(list.size());
                      convex = &list.emplace_back();
                    }
                    collidePair(job, s, ns.childContacts[worker], r.summary, r.manifolds, convex);
                  }
                });

  // Pass 3, serial in key order: two arrays are merged from the jobs and last step's pairs, a
  // small ContactPair for every pair and a Manifold only for pairs with points.
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
  oi = 0;
  // The pair whose begin or end is still to be decided, once its manifolds are made (events
  // settle each pair while they are in cache: docs/ARCHITECTURE.md, "Events and filtering").
  int open = -1;
  bool openWas = false;
  for (size_t k = 0; k < ns.jobs.size(); ++k) {
    NarrowJob& job = ns.jobs[k];
    if (open >= 0) settleTouch(nextPairs[open], openWas, next), open = -1;
    while (oi < pairs_.size() && std::pair(pairs_[oi].a.index, pairs_[oi].b.index) < keys[k])
      pairGone(pairs_[oi++]);
    const ContactPair* oldPair = nullptr;
    if (oi < pairs_.size() && pairs_[oi].a.index == keys[k].first &&
        pairs_[oi].b.index == keys[k].second)
      oldPair = &pairs_[oi++];
    if (!tasks) {
      job.a = keys[k].first;
      job.b = keys[k].second;
      job.oldPair = oldPair ? static_cast<int>(oldPair - pairs_.data()) : -1;
    }
    const Body& A = bodies_[job.a];
    const Body& B = bodies_[job.b];
    const NarrowResult* r = tasks && needsWork(job.kind) ? &ns.results[k] : nullptr;
    if (!tasks) {
      classifyPair(job, h, s);
    } else if (active(A) != job.activeA || active(B) != job.activeB) {
      // An earlier pair's contact woke a body of this one (and its island) during this pass: the
      // pair is decided again, and found here when its reach changed (a woken body's velocity is
      // zero, so it seldom does) or it was asleep. This is the serial loop's order of decisions.
      const NarrowJob before = job;
      classifyPair(job, h, s);
      // Bit equality: the same inputs give the same speculative distance.
      if (before.kind != job.kind || before.speculative != job.speculative) r = nullptr;
    }
    // Found here (one thread, or decided again): appended to `next` in place.
    const size_t first = next.size();
    NarrowSummary here;
    if (needsWork(job.kind) && !r) {
      Manifold* convex = job.kind == NarrowJob::Kind::Convex ? &next.emplace_back() : nullptr;
      collidePair(job, s, ns.childContacts[0], here, next, convex);
    }
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
    if (oldPair) p.cache = oldPair->cache;
    if (job.kind == NarrowJob::Kind::Apart) continue;
    if (job.kind == NarrowJob::Kind::Bounded) {
      p.distance = job.bound;
      continue;
    }
    const NarrowSummary& summary = r ? r->summary : here;
    add(counters, summary.counters);
    // The cross-check runs its own GJK and LP on the pair as it is now (recycled or not), here in
    // key order: its sampling and its log follow the pairs' sequence numbers.
    const bool crosscheck = s.crosscheck != CrossCheckMode::Off;
    if (job.kind == NarrowJob::Kind::Children) {
      if (r) next.insert(next.end(), r->manifolds.begin(), r->manifolds.end());
      p.cache = GjkSimplex{};
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
      const Manifold& m =
          r ? ns.convex[static_cast<size_t>(r->worker)][static_cast<size_t>(r->slot)] : next.back();
      if (summary.recycled) ++stats_.recycled;
      if (crosscheck)
        crossCheckPair(A, B, job.a, job.b, s, crosscheckCounter_++, crosscheckLog_,
                       crosscheckChecked_, crosscheckDisagreed_, stats_.lpPivots);
      p.cache = m.cache;
      p.overlapping = m.overlapping;
      p.distance = m.distance;
      if (!m.touching()) {
        if (!r) next.pop_back();
        continue;
      }
      if (r) next.push_back(m);
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

}  // namespace tumble
