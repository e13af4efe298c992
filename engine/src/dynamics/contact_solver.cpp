// The soft step (contact_solver.h). Per step: colour the touching manifolds, pack them four to a
// row, then per substep: integrate velocities, warm start, solve with soft push-out, integrate
// positions, relax; after the last substep: restitution, and the impulses go back to the
// manifolds.
//
// The contact row (normal, then friction and twist at the manifold's centre). Normal rows measure
// the current separation from the bodies' motion since the step began (anchors carried by each
// body's rotation, Box2D v3's "relative anchors"), so a contact closing or opening within the step
// is seen without running collision again:
//   s = dot(n, dpB + dqB rB - dpA - dqA rA) + (separation - dot(n, rB - rA)).
// A gap (s > 0) is a speculative contact: it may close this substep and no more (bias s / h,
// rigid). Penetration is pushed out by a spring of `contact.hertz` with `contact.damping_ratio`
// (at most `contact.push_velocity`), rigid in the relax pass, which removes the push-out's
// velocity so it is not turned into bounce. Friction and twist are solved in the relax pass
// (in the solve pass when there is none), limited by the normal impulses just found: a push-out
// should not drag a neighbour sideways. With a single solve pass (solver.velocity_iterations 1)
// they are solved in it too: the positions are integrated between the solve and the relax, and
// with one pass the only friction they saw was the warm start's, so the boxes at the edges of a
// settling pyramid's layers slid outwards (large_pyramid at contact.hertz 35 drifted 0.19 m in
// 1000 steps, 0.064 m with this; with two passes the same change made it worse, 0.080 -> 0.34
// m, so two or more passes keep friction out of the solve). The friction is "central" (at the
// mean of the points, both tangents as one 2x2 block clamped to the disc, and a twist about the
// normal), as in Box3D and PhysX's patch friction: the order of the points cannot spin a stacked
// box. Rolling resistance (Box2D v3's shape option) is one more angular block in the same passes,
// before the twist: it needs the same load, and rows without it never run it.
#include "dynamics/contact_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <numbers>
#include <thread>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/huge_pages.h"
#include "core/prefetch.h"
#include "dynamics/body_ops.h"
#include "dynamics/drag.h"
#include "dynamics/joint_solver.h"
#include "dynamics/wide_double.h"
#include "tumble/task.h"

namespace tumble {

using namespace wide;

namespace {

// One disc-limited 2x2 block (friction on the two tangents t1, t2; rolling resistance on the spin
// about them): the accumulated impulse less `mass` (inverse 2x2 K: xx, xy, yy) times the relative
// speeds (u1, u2), scaled back onto the disc of radius `limit` and stored; returns its change as a
// vector along t1 and t2.
inline __attribute__((always_inline)) Vec discImpulse(Wide (&impulse)[2], const Wide (&mass)[3],
                                                      const Wide& u1, const Wide& u2,
                                                      const Wide& limit, const Vec& t1,
                                                      const Vec& t2) {
  const Wide old1 = impulse[0], old2 = impulse[1];
  Wide n1 = old1 - (mass[0] * u1 + mass[1] * u2);
  Wide n2 = old2 - (mass[1] * u1 + mass[2] * u2);
  const Wide len2 = n1 * n1 + n2 * n2;
  const Wide scale =
      select(len2 > limit * limit, limit / wide::sqrt(max(len2, Wide{kTiny, kTiny, kTiny, kTiny})),
             splat(1.0));
  n1 = scale * n1;
  n2 = scale * n2;
  impulse[0] = n1;
  impulse[1] = n2;
  return (n1 - old1) * t1 + (n2 - old2) * t2;
}

// A linear impulse as body A (or B) of row `c` takes it: with locked translation axes (a row with
// c.locked) the locked components are dropped, so the velocity along them stays 0; otherwise P
// itself (the same bits as without locks).
template <class Row>
inline __attribute__((always_inline)) Vec freeOf(const Row& c, const Vec& P, const Vec& free) {
  if (!c.locked) return P;
  return {P.x * free.x, P.y * free.y, P.z * free.z};
}

// Velocities and motion since the step's start of four bodies, one per lane.
struct WideBody {
  Vec v, w, dp;
  Rot dq;
};

// Loads the first `Quarters` quarters (four lanes each) of four body states and transposes them
// into lanes: quarter 0 holds v and w.x, 1 w.y, w.z, dp.x, dp.y, 2 dp.z and dq.w, x, y, 3 dq.z.
// Two quarters are the velocities (warm start, restitution), four the whole state (solve).
template <int Quarters>
inline __attribute__((always_inline)) WideBody gather(const BodyState* states, const int* index) {
  Wide q[4][kLanes];
  for (int c = 0; c < Quarters; ++c) {
    for (int l = 0; l < kLanes; ++l)
      std::memcpy(&q[c][l], states[index[l]].s + 4 * c, sizeof(Wide));
    transpose(q[c][0], q[c][1], q[c][2], q[c][3]);
  }
  WideBody r;
  r.v = {q[0][0], q[0][1], q[0][2]};
  r.w = {q[0][3], q[1][0], q[1][1]};
  r.dp.x = q[1][2];
  r.dp.y = q[1][3];
  if constexpr (Quarters == 4) {
    r.dp.z = q[2][0];
    r.dq = {q[2][1], q[2][2], q[2][3], q[3][0]};
  }
  return r;
}

// Writes the velocities back (quarters 0 and 1, with dp.x and dp.y as gathered) to the lanes of
// `write` (WideContact::writeA, writeB): the immovable body 0 and kinematic bodies are never
// written (their velocities do not change, and other rows of the colour read them meanwhile).
inline __attribute__((always_inline)) void scatter(BodyState* states, const int* index,
                                                   unsigned write, const WideBody& r) {
  Wide q0[kLanes] = {r.v.x, r.v.y, r.v.z, r.w.x};
  Wide q1[kLanes] = {r.w.y, r.w.z, r.dp.x, r.dp.y};
  transpose(q0[0], q0[1], q0[2], q0[3]);
  transpose(q1[0], q1[1], q1[2], q1[3]);
  for (int l = 0; l < kLanes; ++l) {
    if (!(write & (1u << l))) continue;
    std::memcpy(states[index[l]].s, &q0[l], sizeof(Wide));
    std::memcpy(states[index[l]].s + 4, &q1[l], sizeof(Wide));
  }
}

}  // namespace

Softness makeSoftness(Real hertz, Real zeta, Real h) {
  if (hertz <= 0.0) return {};
  const Real omega = 2.0 * std::numbers::pi * hertz;
  const Real a1 = 2.0 * zeta + h * omega;
  const Real a2 = h * omega * a1;
  const Real a3 = 1.0 / (1.0 + a2);
  return {omega / a1, a2 * a3, a3};
}

// Grain of the parallel loops: bodies and rows per chunk at least (a chunk of fewer costs more to
// hand out than to run; a loop of fewer than two chunks runs on the calling thread), and chunks
// per worker at most (a few, so a worker that joins late still finds work).
constexpr int kBodyGrain = 64;
constexpr int kRowGrain = 16;
constexpr int kChunksPerWorker = 4;
// Manifolds per chunk of the constraint list's two loops (fixed: the chunks' lists are joined in
// chunk order).
constexpr int kManifoldGrain = 256;
// Bodies per chunk of the solver bodies' two loops (fixed, as above).
constexpr int kBodyChunk = 512;
// Solver bodies ahead whose body lines the integration loops fetch.
constexpr int kBodyAhead = 4;

template <class F>
void ContactSolver::forEach(int begin, int end, int minGrain, F&& f) {
  const int count = end - begin;
  if (!tasks_ || count < 2 * minGrain) {
    for (int i = begin; i < end; ++i) f(i);
    return;
  }
  // Any partition gives the same bits (each index writes only its own memory): the grain may
  // follow the worker count.
  const int chunks = tasks_->workerCount() * kChunksPerWorker;
  const int grain = std::max(minGrain, (count + chunks - 1) / chunks);
  parallelFor(tasks_, count, grain, [&](int first, int last, int) {
    for (int i = begin + first; i < begin + last; ++i) f(i);
  });
}

namespace {
void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

// The blocks of each colour for this step's rows and workers (the same grain as forEach's), and
// the flags, sized for them.
void ContactSolver::layoutBlocks() {
  PassBlocks& pb = blocks_;
  const int colors = static_cast<int>(colorRows_.size()) - 1;
  const int workers = tasks_->workerCount();
  const int chunks = workers * kChunksPerWorker;
  pb.first.assign(static_cast<size_t>(colors) + 1, 0);
  pb.home.assign(static_cast<size_t>(std::max(colors, 0)) * static_cast<size_t>(workers), 0);
  pb.begin.clear();
  for (int c = 0; c < colors; ++c) {
    const int count = colorRows_[c + 1] - colorRows_[c];
    const int grain = std::max(kRowGrain, (count + chunks - 1) / chunks);
    if (homes_ != workers) {
      // No homes (a jointed world): blocks of `grain`, an even share of them per worker.
      const int blocks = (count + grain - 1) / grain;
      for (int w = 0; w < workers; ++w)
        pb.home[static_cast<size_t>(c) * static_cast<size_t>(workers) + static_cast<size_t>(w)] =
            static_cast<int>(static_cast<int64_t>(blocks) * w / workers);
      for (int r = colorRows_[c]; r < colorRows_[c + 1]; r += grain) pb.begin.push_back(r);
      pb.first[c + 1] = static_cast<int>(pb.begin.size());
      continue;
    }
    // Each home's rows in blocks of `grain` (the last one shorter).
    for (int w = 0; w < workers; ++w) {
      const auto [from, to] = homeRows(c, w);
      pb.home[static_cast<size_t>(c) * static_cast<size_t>(workers) + static_cast<size_t>(w)] =
          static_cast<int>(pb.begin.size()) - pb.first[c];
      for (int r = from; r < to; r += grain) pb.begin.push_back(r);
    }
    pb.first[c + 1] = static_cast<int>(pb.begin.size());
  }
  pb.begin.push_back(colorRows_.empty() ? 0 : colorRows_.back());
  const size_t cursors = static_cast<size_t>(std::max(colors, 0)) * static_cast<size_t>(workers);
  if (cursors > pb.cursorCapacity) {
    pb.cursorCapacity = 2 * cursors;
    // New cursors hold generation 0, which no pass has (nextGeneration skips it).
    pb.cursor = std::make_unique<PassBlocks::Cursor[]>(pb.cursorCapacity);
  }
  if (colors > pb.colorCapacity) {
    pb.colorCapacity = 2 * colors;
    pb.done = std::make_unique<PassBlocks::Done[]>(static_cast<size_t>(pb.colorCapacity));
  }
  for (int c = 0; c < colors; ++c) pb.done[c].n.store(0, std::memory_order_relaxed);
  pb.pass = 0;
}

// Each moving body's home worker: the movers bisected in space (the longest axis of their
// centres' box, the median by count; recursively for more workers), so that few contacts join
// bodies of two homes. The solver bodies are numbered home by home (prepareBodies), the solver's
// body loops run each home's bodies on its worker (forEachBody), and a colour's rows are grouped
// by home (prepareContacts): a body state then stays in its home core's cache through a pass,
// where a state written on one core and read on another costs a transfer between the cores'
// caches (on the 2-core test machine a row then costs about twice as much; and the cores move
// lines in aligned pairs, so the homes' states must not interleave in memory either:
// tests/bench/bench_homes.cpp). Where a
// body runs and what number it has change no bit: every body's work writes only its own memory,
// and the colouring looks at bodies only as identities (tests/unit/test_threads.cpp).
void ContactSolver::layoutHomes(int workers) {
  const int count = static_cast<int>(movers_.size());
  if (static_cast<int>(split_.size()) != workers) {
    // Each split's share of the bodies on its lower side: at first the share of the workers.
    split_.assign(static_cast<size_t>(workers), 0.5);
    auto init = [&](auto&& self, int w0, int w1) -> void {
      if (w1 - w0 <= 1) return;
      const int wm = w0 + (w1 - w0) / 2;
      split_[static_cast<size_t>(wm)] = static_cast<double>(wm - w0) / (w1 - w0);
      self(self, w0, wm);
      self(self, wm, w1);
    };
    init(init, 0, workers);
  }
  // The splits are made on a sample of the keys (every stride-th; all of them up to 2 kSample
  // movers): each keeps its axis and its pivot, the least key of its upper side. Every mover then
  // finds its home by the splits' comparisons, in parallel: the serial part is the sample's, not
  // all the movers'.
  constexpr int kSample = 1024;
  const int stride = std::max(1, count / kSample);
  homeSample_.clear();
  for (int k = 0; k < count; k += stride) homeSample_.push_back(homeKeys_[static_cast<size_t>(k)]);
  splitAxis_.assign(static_cast<size_t>(workers), -1);
  splitPivot_.resize(static_cast<size_t>(workers));
  auto less = [](const HomeKey& p, const HomeKey& q, int axis) {
    return p.x[axis] < q.x[axis] || (p.x[axis] == q.x[axis] && p.index < q.index);
  };
  // Splits sample keys [from, to) among workers [w0, w1).
  auto split = [&](auto&& self, int from, int to, int w0, int w1) -> void {
    if (w1 - w0 <= 1 || to - from <= 1) return;  // (a split left at -1 sends all to w0)
    const HomeKey* keys = homeSample_.data();
    float lo[3] = {keys[from].x[0], keys[from].x[1], keys[from].x[2]};
    float hi[3] = {lo[0], lo[1], lo[2]};
    for (int k = from; k < to; ++k)
      for (int d = 0; d < 3; ++d) {
        lo[d] = std::min(lo[d], keys[k].x[d]);
        hi[d] = std::max(hi[d], keys[k].x[d]);
      }
    int axis = 0;
    for (int d = 1; d < 3; ++d)
      if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
    const int wm = w0 + (w1 - w0) / 2;
    const int mid = from + std::clamp(static_cast<int>(std::lround((to - from) * split_[wm])), 1,
                                      to - from - 1);
    std::nth_element(homeSample_.begin() + from, homeSample_.begin() + mid,
                     homeSample_.begin() + to,
                     [&](const HomeKey& p, const HomeKey& q) { return less(p, q, axis); });
    splitAxis_[static_cast<size_t>(wm)] = axis;
    splitPivot_[static_cast<size_t>(wm)] = homeSample_[static_cast<size_t>(mid)];
    self(self, from, mid, w0, wm);
    self(self, mid, to, wm, w1);
  };
  split(split, 0, static_cast<int>(homeSample_.size()), 0, workers);
  moverHome_.resize(static_cast<size_t>(count));
  parallelFor(tasks_, count, kBodyChunk, [&](int begin, int end, int) {
    for (int k = begin; k < end; ++k) {
      const HomeKey& key = homeKeys_[static_cast<size_t>(k)];
      int w0 = 0, w1 = workers;
      while (w1 - w0 > 1) {
        const int wm = w0 + (w1 - w0) / 2;
        const int axis = splitAxis_[static_cast<size_t>(wm)];
        if (axis < 0 || less(key, splitPivot_[static_cast<size_t>(wm)], axis)) {
          w1 = wm;
        } else {
          w0 = wm;
        }
      }
      moverHome_[static_cast<size_t>(k)] = w0;
    }
  });
}

// The splits move toward equal work per home for the next step. A home's work is its bodies
// (the integration loops) and its rows, and where a heap is denser on one side equal bodies are
// unequal rows (the 2000-box heap at rest: 42% and 58%). A row counts as kRowWork bodies: it is
// read in about 17 passes a step (4 substeps of a warm start, two solves and a relax, then the
// restitution and the store) at several times a body's cost in one of its 9 loops. Each split's
// share is scaled by the square root of the ratio of its lower side's wanted to its present share
// of the work (this step's). Only the partition follows: no bit depends on it.
void ContactSolver::balanceHomes() {
  constexpr int64_t kRowWork = 8;
  homeLoad_.assign(static_cast<size_t>(homes_), 0);
  for (size_t w = 0; w < static_cast<size_t>(homes_); ++w)
    homeLoad_[w] = homeFirst_[w + 1] - homeFirst_[w];
  const int colors = static_cast<int>(colorRows_.size()) - 1;
  for (int c = 0; c < colors; ++c)
    for (int w = 0; w < homes_; ++w) {
      const auto [from, to] = homeRows(c, w);
      homeLoad_[static_cast<size_t>(w)] += kRowWork * (to - from);
    }
  auto adjust = [&](auto&& self, int w0, int w1) -> int64_t {
    if (w1 - w0 <= 1) return homeLoad_[static_cast<size_t>(w0)];
    const int wm = w0 + (w1 - w0) / 2;
    const int64_t lower = self(self, w0, wm), upper = self(self, wm, w1);
    if (lower + upper > 0) {
      const double wanted = static_cast<double>(wm - w0) / (w1 - w0);
      const double present = std::max(static_cast<double>(lower) / (lower + upper), 0.01);
      double& share = split_[static_cast<size_t>(wm)];
      share =
          std::clamp(share * std::sqrt(wanted / present), 0.1 * wanted, 1.0 - 0.1 * (1.0 - wanted));
    }
    return lower + upper;
  };
  adjust(adjust, 0, homes_);
}

std::pair<int, int> ContactSolver::homeRows(int c, int w) const {
  const size_t at = static_cast<size_t>(c) * static_cast<size_t>(homes_) + static_cast<size_t>(w);
  return {colorHomes_[at], w + 1 < homes_ ? colorHomes_[at + 1] : colorRows_[c + 1]};
}

namespace {
// Claims the next of `blocks` blocks from `cursor` for this pass (`generation`): its index, or -1
// when all are taken. The cursor holds the pass's generation in its high 32 bits and the blocks
// taken in the low; a cursor of another generation reads as none taken, so no reset is needed.
int claimBlock(std::atomic<uint64_t>& cursor, uint32_t generation, int blocks) {
  uint64_t seen = cursor.load(std::memory_order_relaxed);
  for (;;) {
    const uint32_t taken =
        static_cast<uint32_t>(seen >> 32) == generation ? static_cast<uint32_t>(seen) : 0u;
    if (static_cast<int>(taken) >= blocks) return -1;
    const uint64_t claim = (static_cast<uint64_t>(generation) << 32) | (taken + 1u);
    if (cursor.compare_exchange_weak(seen, claim, std::memory_order_relaxed))
      return static_cast<int>(taken);
  }
}
}  // namespace

uint32_t ContactSolver::nextGeneration() {
  PassBlocks& pb = blocks_;
  if (++pb.generation == 0) {
    // Wrapped (after 2^32 passes): clear the cursors, so that no old claim reads as this pass's.
    for (size_t k = 0; k < pb.cursorCapacity; ++k)
      pb.cursor[k].next.store(0, std::memory_order_relaxed);
    for (PassBlocks::Cursor& c : pb.bodyCursor) c.next.store(0, std::memory_order_relaxed);
    pb.generation = 1;
  }
  return pb.generation;
}

template <class F>
void ContactSolver::forEachBody(F&& f) {
  const int count = static_cast<int>(solverBodies_.size());
  if (homes_ == 1) {
    forEach(1, count, kBodyGrain,
            [&](int i) { f(i, i + kBodyAhead < count ? i + kBodyAhead : -1); });
    return;
  }
  // Each home's bodies in blocks of kBodyGrain: a worker runs its own home's blocks, then takes
  // what is left of the others' (the homes' work differs where the rows are uneven: a falling
  // column's are all at its foot).
  PassBlocks& pb = blocks_;
  if (pb.bodyCursor.size() < static_cast<size_t>(homes_))
    pb.bodyCursor = std::vector<PassBlocks::Cursor>(static_cast<size_t>(homes_));
  const uint32_t generation = nextGeneration();
  parallelFor(tasks_, homes_, 1, [&](int task, int, int) {
    for (int i = 0; i < homes_; ++i) {
      const int home = task + i < homes_ ? task + i : task + i - homes_;
      const int first = homeFirst_[home], last = homeFirst_[home + 1];
      const int blocks = (last - first + kBodyGrain - 1) / kBodyGrain;
      for (int b; (b = claimBlock(pb.bodyCursor[static_cast<size_t>(home)].next, generation,
                                  blocks)) >= 0;) {
        const int from = first + b * kBodyGrain, to = std::min(last, from + kBodyGrain);
        for (int k = from; k < to; ++k) f(k, k + kBodyAhead < to ? k + kBodyAhead : -1);
      }
    }
  });
}

template <class F>
void ContactSolver::forEachRow(F&& f) {
  const int homes = homes_;
  const int colors = static_cast<int>(colorRows_.size()) - 1;
  if (homes == 1) {
    forEach(0, rowCount_, kRowGrain, f);
    return;
  }
  // Each home's rows of every colour on its worker (the overflow's on the first).
  parallelFor(tasks_, homes, 1, [&](int home, int, int) {
    if (home == 0)
      for (int r = 0; r < colorRows_.front(); ++r) f(r);
    for (int c = 0; c < colors; ++c) {
      const auto [from, to] = homeRows(c, home);
      for (int r = from; r < to; ++r) f(r);
    }
  });
}

template <class F>
void ContactSolver::rowPass(F&& f) {
  if (!tasks_) {
    for (int r = 0; r < rowCount_; ++r) f(rows_[r]);
    return;
  }
  // The overflow's rows may share bodies: one by one, before the colours, as serially.
  for (int r = 0; r < colorRows_.front(); ++r) f(rows_[r]);
  const int colors = static_cast<int>(colorRows_.size()) - 1;
  if (colors <= 0) return;
  // A colour's rows share no moving body, so its blocks may run in any order on any worker; the
  // colour's end is the barrier before the next (the last block's release, the waiters'
  // acquire). One parallel loop for the whole pass instead of one per colour: a loop costs 0.4 us
  // on 2 threads but 3 us on 16, and a step makes about 10 passes of 10-15 colours. Each task
  // starts on its own share of a colour's blocks (the same rows in every pass: they stay in that
  // core's cache), then takes the rest. A task that starts late finds the colours done and
  // returns; a task system that runs the tasks one after another gets the whole pass from the
  // first. Any order gives the same bits.
  PassBlocks& pb = blocks_;
  const int tasks = tasks_->workerCount();
  // The done counts add up over the step's passes (the blocks stay the same within a step).
  const uint32_t generation = nextGeneration();
  const int pass = ++pb.pass;
  parallelFor(tasks_, tasks, 1, [&](int task, int, int) {
    for (int c = 0; c < colors; ++c) {
      const int first = pb.first[c], blocks = pb.first[c + 1] - first;
      const size_t homes = static_cast<size_t>(c) * static_cast<size_t>(tasks);
      int ran = 0;
      // Its own home's blocks first, then what is left of the others' (a task that is late has
      // its blocks taken; a task system that runs the tasks one after another gets the pass).
      for (int i = 0; i < tasks; ++i) {
        const int home = task + i < tasks ? task + i : task + i - tasks;
        const int from = pb.home[homes + static_cast<size_t>(home)];
        const int to = home + 1 < tasks ? pb.home[homes + static_cast<size_t>(home) + 1] : blocks;
        std::atomic<uint64_t>& cursor = pb.cursor[homes + static_cast<size_t>(home)].next;
        for (int taken; (taken = claimBlock(cursor, generation, to - from)) >= 0;) {
          const size_t b = static_cast<size_t>(first + from + taken);
          const int rowEnd = pb.begin[b + 1];
          for (int r = pb.begin[b]; r < rowEnd; ++r) f(rows_[r]);
          ++ran;
        }
      }
      std::atomic<int>& done = pb.done[c].n;
      if (ran > 0) done.fetch_add(ran, std::memory_order_release);
      const int target = pass * blocks;
      for (int spin = 0; done.load(std::memory_order_acquire) < target; ++spin) {
        if (spin < 2000)
          cpuRelax();
        else
          std::this_thread::yield();
      }
    }
  });
}

void ContactSolver::prepareBodies(std::vector<Body>& bodies, bool jointed) {
  // The solver bodies in body order: each fixed chunk of bodies counts its awake movers, then
  // numbers and prepares them from the running count (in parallel with threads), so the order is
  // the same at any thread count.
  const int bodyCount = static_cast<int>(bodies.size());
  const int chunks = (bodyCount + kBodyChunk - 1) / kBodyChunk;
  auto moves = [](const Body& b) { return b.alive && b.type != BodyType::Static && b.awake; };
  chunkFound_.assign(static_cast<size_t>(chunks) + 1, 0);
  parallelFor(tasks_, bodyCount, kBodyChunk, [&](int begin, int end, int) {
    int found = 0;
    for (int i = begin; i < end; ++i) found += moves(bodies[i]) ? 1 : 0;
    chunkFound_[static_cast<size_t>(begin / kBodyChunk) + 1] = found;
  });
  for (int c = 0; c < chunks; ++c) chunkFound_[c + 1] += chunkFound_[c];
  const int movers = chunkFound_[static_cast<size_t>(chunks)];
  solverBodies_.resize(1 + static_cast<size_t>(movers));
  solverBodies_[0] = SolverBody{};
  bodyToSolver_.resize(bodies.size());
  states_.resize(solverBodies_.size());
  push(0);
  // Joints keep body order: their exact groups are built and factored in solver order.
  homes_ = tasks_ && movers >= 2 * kBodyGrain && !jointed ? tasks_->workerCount() : 1;
  if (homes_ == 1) {
    parallelFor(tasks_, bodyCount, kBodyChunk, [&](int begin, int end, int) {
      int si = 1 + chunkFound_[static_cast<size_t>(begin / kBodyChunk)];
      for (int i = begin; i < end; ++i) {
        if (!moves(bodies[i])) {
          bodyToSolver_[i] = 0;
          continue;
        }
        bodyToSolver_[i] = si;
        solverBodies_[si] = SolverBody{};
        solverBodies_[si].body = i;
        prepareBody(bodies, si++);
      }
    });
    return;
  }
  // With threads: the movers in body order, their homes, then numbered home by home (body order
  // within a home) and prepared on their home's worker.
  movers_.resize(static_cast<size_t>(movers));
  homeKeys_.resize(static_cast<size_t>(movers));
  parallelFor(tasks_, bodyCount, kBodyChunk, [&](int begin, int end, int) {
    int k = chunkFound_[static_cast<size_t>(begin / kBodyChunk)];
    for (int i = begin; i < end; ++i) {
      if (!moves(bodies[i])) {
        bodyToSolver_[i] = 0;
        continue;
      }
      const Vec3& c = bodies[i].center;
      homeKeys_[static_cast<size_t>(k)] = {
          {static_cast<float>(c.x), static_cast<float>(c.y), static_cast<float>(c.z)}, k};
      movers_[static_cast<size_t>(k++)] = i;
    }
  });
  layoutHomes(homes_);
  // Numbered home by home: each chunk of movers counts its bodies per home, then numbers them
  // from its place in each home (in parallel with threads).
  const int chunkCount = (movers + kBodyChunk - 1) / kBodyChunk;
  const size_t H = static_cast<size_t>(homes_);
  chunkHomes_.assign(static_cast<size_t>(chunkCount) * H, 0);
  parallelFor(tasks_, movers, kBodyChunk, [&](int begin, int end, int) {
    int* count = chunkHomes_.data() + static_cast<size_t>(begin / kBodyChunk) * H;
    for (int k = begin; k < end; ++k) ++count[moverHome_[static_cast<size_t>(k)]];
  });
  homeFirst_.assign(H + 1, 0);
  int next = 1;
  for (size_t w = 0; w < H; ++w) {
    homeFirst_[w] = next;
    for (int c = 0; c < chunkCount; ++c) {
      int& at = chunkHomes_[static_cast<size_t>(c) * H + w];
      const int n = at;
      at = next;
      next += n;
    }
  }
  homeFirst_[H] = next;
  homeOf_.resize(solverBodies_.size());
  homeOf_[0] = 0;
  solverBody_.resize(solverBodies_.size());
  parallelFor(tasks_, movers, kBodyChunk, [&](int begin, int end, int) {
    int* at = chunkHomes_.data() + static_cast<size_t>(begin / kBodyChunk) * H;
    for (int k = begin; k < end; ++k) {
      const int home = moverHome_[static_cast<size_t>(k)];
      const int si = at[home]++;
      bodyToSolver_[movers_[static_cast<size_t>(k)]] = si;
      solverBody_[static_cast<size_t>(si)] = movers_[static_cast<size_t>(k)];
      homeOf_[static_cast<size_t>(si)] = home;
    }
  });
  forEachBody([&](int si, int) {
    solverBodies_[si] = SolverBody{};
    solverBodies_[si].body = solverBody_[static_cast<size_t>(si)];
    prepareBody(bodies, si);
  });
}

// The inverse of the body's inertia with `added` (kg m^2) about every axis, in world axes (locked
// rotation axes zero its rows and columns, as Body::invInertiaWorld). Out of line: prepareBody's
// own code, which every body without a joint force runs, stays as it was (inlined here, GCC -O3
// -mavx2 compiled prepareBody so that a pile without joints lost its bits against the other
// builds: tests/integration/compare_builds.sh).
[[gnu::noinline]] Mat3 stiffenedInverseInertia(const Body& b, const Mat3& rotation, Real added) {
  Mat3 local = b.localInertia;
  for (int k = 0; k < 3; ++k) local[k][k] += added;
  const bool diagonal = local[0][1] == 0.0 && local[0][2] == 0.0 && local[1][0] == 0.0 &&
                        local[1][2] == 0.0 && local[2][0] == 0.0 && local[2][1] == 0.0;
  Mat3 inverse(0.0);  // a sphere's, box's, capsule's or cylinder's: its principal axes
  if (diagonal) {
    for (int k = 0; k < 3; ++k) inverse[k][k] = 1.0 / local[k][k];
  } else {
    inverse = glm::inverse(local);
  }
  Mat3 world = rotation * inverse * glm::transpose(rotation);
  if (b.angularFree != Vec3(1.0))
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) world[r][c] *= b.angularFree[r] * b.angularFree[c];
  return world;
}

void ContactSolver::prepareBody(const std::vector<Body>& bodies, int si) {
  SolverBody& sb = solverBodies_[si];
  const Body& b = bodies[sb.body];
  sb.v = b.linearVelocity;
  sb.w = b.angularVelocity;
  sb.rotation = glm::mat3_cast(b.rotation);
  sb.centerStart = b.center;
  sb.rotationStart = b.rotation;
  if (b.isDynamic()) {
    sb.invMass = b.invMass;
    // A joint under a force F at an arm r from the centre stiffens the body's rotation by about
    // F r (N m per rad): the change of the joint's rows with the rotation (Andrews, Teichmann and
    // Kry 2017, "Geometric Stiffness for Real-time Constrained Multibody Dynamics"), which the
    // rows, linear in the velocities, leave out. Taken as inertia, I + h^2 F r (their diagonal
    // form, here the same about every axis), it keeps a light jointed body from turning without
    // bound between a heavy body's contacts and its joints: the bridge's boxes at 13 times a
    // plank's mass spun its planks at up to 940 rad/s (anchor gaps of 198 mm), at 39 times the
    // bridge went non-finite by step 110 (README, "Joints"). It is in the solver body before
    // anything reads it, so the contacts, the soft joint rows and the exact groups see one
    // inertia (added for the joints alone, after the contacts' rows were packed, it blew the
    // bridges up). A body without a joint force keeps its bits.
    sb.invI = sb.rotation * b.invLocalInertia * glm::transpose(sb.rotation);
    if (b.hasOptions) {
      sb.invI = b.invInertiaWorld();  // locked rotation axes: zero rows and columns
      sb.linearFree = b.linearFree;
    }
    if (!torqueArm_.empty() && torqueArm_[sb.body] > 0.0)
      sb.invI = stiffenedInverseInertia(b, sb.rotation, addedInertia_ * torqueArm_[sb.body]);
    // invI * (+0) is +0 when every row of invI has an entry that is finite with its sign bit
    // clear (the product with +0 is then +0, and a sum with a +0 is +0): a rotated positive
    // diagonal always has. Then the unforced integration below adds +0 to w without reading invI.
    auto zeroTimes = [](const Mat3& m) {
      for (int r = 0; r < 3; ++r) {
        bool plus = false;
        for (int c = 0; c < 3; ++c)
          plus = plus || (std::isfinite(m[c][r]) && !std::signbit(m[c][r]));
        if (!plus) return false;
      }
      return true;
    };
    sb.unforced = !b.hasOptions && detail::isPositiveZero(b.force) &&
                  detail::isPositiveZero(b.torque) && std::isfinite(sb.invMass) &&
                  zeroTimes(sb.invI);
  }
  push(si);
}

// Not vectorised: GCC 12's -O3 vectoriser folds the round trip double -> float -> double below,
// which turns every pulled velocity into its float (free flight would not stay double). Clang
// has no such attribute and keeps the round trip (tests/integration/compare_builds.sh compares
// the two compilers' hashes).
#if defined(__GNUC__) && !defined(__clang__)
#define TUMBLE_NO_TREE_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define TUMBLE_NO_TREE_VECTORIZE
#endif
TUMBLE_NO_TREE_VECTORIZE void ContactSolver::pull(int i) {
  SolverBody& sb = solverBodies_[i];
  if (!statesRead_) {
    // The state would hold this body's rounded values (the last push): what the pull adds is
    // their difference with themselves, +0 for a finite velocity (NaN for an infinite one, as
    // the pull gives), computed without the state's line.
    for (int k = 0; k < 3; ++k) {
      const Real v = static_cast<Real>(static_cast<Lane>(sb.v[k]));
      const Real w = static_cast<Real>(static_cast<Lane>(sb.w[k]));
      sb.v[k] += v - v;
      sb.w[k] += w - w;
    }
    return;
  }
  const Lane* s = states_[i].s;
#if defined(__SSE2__)
  if constexpr (std::is_same_v<Lane, float>) {
    // The same operations two lanes at a time (v and w are six doubles in a row): each value
    // plus (its lane, widened) minus (itself rounded to float and widened). The intrinsics keep
    // the round trip that the vectoriser folds (above).
    static_assert(offsetof(SolverBody, w) == offsetof(SolverBody, v) + 3 * sizeof(Real));
    double* x = &sb.v.x;
    for (int k = 0; k < 6; k += 2) {
      const __m128d value = _mm_loadu_pd(x + k);
      const __m128d lane =
          _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s + k))));
      const __m128d rounded = _mm_cvtps_pd(_mm_cvtpd_ps(value));
      _mm_storeu_pd(x + k, _mm_add_pd(value, _mm_sub_pd(lane, rounded)));
    }
    return;
  }
#endif
  for (int k = 0; k < 3; ++k) {
    sb.v[k] += static_cast<Real>(s[k]) - static_cast<Real>(static_cast<Lane>(sb.v[k]));
    sb.w[k] += static_cast<Real>(s[3 + k]) - static_cast<Real>(static_cast<Lane>(sb.w[k]));
  }
}

void ContactSolver::push(int i) {
  if (!statesRead_) return;
  const SolverBody& sb = solverBodies_[i];
  Lane* s = states_[i].s;
  for (int k = 0; k < 3; ++k) {
    s[k] = static_cast<Lane>(sb.v[k]);
    s[3 + k] = static_cast<Lane>(sb.w[k]);
    s[6 + k] = static_cast<Lane>(sb.dp[k]);
  }
  s[9] = static_cast<Lane>(sb.dq.w);
  s[10] = static_cast<Lane>(sb.dq.x);
  s[11] = static_cast<Lane>(sb.dq.y);
  s[12] = static_cast<Lane>(sb.dq.z);
  s[13] = s[14] = s[15] = 0;
}

namespace {

// Four lanes of double (wide_double.h) for packing a row: the same operations in the same order as
// glm's on one lane (its dot sums x, y, z left to right, its matrix times vector takes the columns
// in order, its cross and vector-by-scalar division are component-wise), so each lane gets glm's
// bits.
struct DVec {
  Dbl x, y, z;
};
struct DMat {  // column-major, as glm: c[j] is column j
  DVec c[3];
};
using wide::dselect;
[[gnu::always_inline]] inline DVec dselect(const DblMask& m, const DVec& a, const DVec& b) {
  return {dselect(m, a.x, b.x), dselect(m, a.y, b.y), dselect(m, a.z, b.z)};
}
[[gnu::always_inline]] inline DVec operator+(const DVec& a, const DVec& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
[[gnu::always_inline]] inline DVec operator-(const DVec& a, const DVec& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
[[gnu::always_inline]] inline DVec operator*(const Dbl& s, const DVec& a) {
  return {s * a.x, s * a.y, s * a.z};
}
[[gnu::always_inline]] inline DVec operator*(const DVec& a, const DVec& b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}
[[gnu::always_inline]] inline Dbl dot(const DVec& a, const DVec& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
[[gnu::always_inline]] inline DVec cross(const DVec& a, const DVec& b) {
  return {a.y * b.z - b.y * a.z, a.z * b.x - b.z * a.x, a.x * b.y - b.x * a.y};
}
[[gnu::always_inline]] inline DVec operator*(const DMat& m, const DVec& v) {
  return {m.c[0].x * v.x + m.c[1].x * v.y + m.c[2].x * v.z,
          m.c[0].y * v.x + m.c[1].y * v.y + m.c[2].y * v.z,
          m.c[0].z * v.x + m.c[1].z * v.y + m.c[2].z * v.z};
}
[[gnu::always_inline]] inline Wide lanes(const Dbl& d) {
  return __builtin_convertvector(d, Wide);
}
[[gnu::always_inline]] inline Vec lanes(const DVec& v) {
  return {lanes(v.x), lanes(v.y), lanes(v.z)};
}
// The rows keep the symmetric part glm's lower triangle gives (setLane(Sym&, ...)).
[[gnu::always_inline]] inline Sym lanes(const DMat& m) {
  return {lanes(m.c[0].x), lanes(m.c[1].x), lanes(m.c[2].x),
          lanes(m.c[1].y), lanes(m.c[2].y), lanes(m.c[2].z)};
}
// a / b where `where`, else 0, dividing only where it is taken (no trap on b = 0).
[[gnu::always_inline]] inline Dbl divideWhere(const DblMask& where, const Dbl& a, const Dbl& b) {
  return dselect(where, a / dselect(where, b, dsplat(1.0)), dsplat(0.0));
}

// An empty lane's manifold: no points, every number zero (its bodies are the immovable solver
// body 0, whose numbers are zero too), so its results are zero as a cleared row's.
const Manifold& emptyLane() {
  static const Manifold m = [] {
    Manifold z;
    z.normal = z.tangent1 = z.tangent2 = Vec3(0.0);
    z.friction = 0.0;
    z.found.rotationA = z.found.rotationB = Quat(0.0, 0.0, 0.0, 0.0);
    z.found.valid = true;
    return z;
  }();
  return m;
}

}  // namespace

// packRow's arithmetic is double on four lanes (Dbl): SSE2 takes two lanes to an instruction and
// spills the rest of a 4-lane matrix to the stack; AVX2 takes four. Where the build's baseline
// lacks AVX2 (x86-64 without -mavx2), packRow is also compiled for AVX2 (no FMA: every operation
// rounds as before, so the bits are the same) and chosen at run time when the CPU has it: one
// source body (packRowBody), inlined into both.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && !defined(__AVX2__)
#define TUMBLE_AVX2_PACKING 1
#else
#define TUMBLE_AVX2_PACKING 0
#endif

bool ContactSolver::hasAvx2Packing() {
#if TUMBLE_AVX2_PACKING
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return has;
#else
  return false;
#endif
}

#if TUMBLE_AVX2_PACKING
__attribute__((target("avx2"))) void ContactSolver::packRowAvx2(
    int r, const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
    const Softness& soft, const Softness& hard) {
  packRowBody(r, bodies, manifolds, soft, hard);
}
#endif

void ContactSolver::packRow(int r, const std::vector<Body>& bodies,
                            const std::vector<Manifold>& manifolds, const Softness& soft,
                            const Softness& hard) {
#if TUMBLE_AVX2_PACKING
  if (avx2Packing_) return packRowAvx2(r, bodies, manifolds, soft, hard);
#endif
  packRowBody(r, bodies, manifolds, soft, hard);
}

__attribute__((always_inline)) inline void ContactSolver::packRowBody(
    int r, const std::vector<Body>& bodies, const std::vector<Manifold>& manifolds,
    const Softness& soft, const Softness& hard) {
  WideContact& c = rows_[r];
  WideCold& cold = cold_[r];
  const int points = rowPoints_[r];
  // The row's first line (indices, counts, flags) and its cold part start cleared; every other
  // field the passes read (those of the row's first `points` points) is written whole below.
  static_assert(offsetof(WideContact, invMassA) <= 64);
  std::memset(static_cast<void*>(&c), 0, offsetof(WideContact, invMassA));
  std::memset(static_cast<void*>(&cold), 0, sizeof(WideCold));
  c.still = rowStill_[r];
  const Manifold* M[kLanes];
  const SolverBody* A[kLanes];
  const SolverBody* B[kLanes];
  const Quat* QA[kLanes];
  const Quat* QB[kLanes];
  int locked = 0;  // bit l: lane l has a locked translation axis
  const Real perSubstep = 1.0 / substeps_;
  for (int l = 0; l < kLanes; ++l) {
    c.manifold[l] = -1;
    const int ci = rowMembers_[r * kLanes + l];
    if (ci < 0) {
      M[l] = &emptyLane();
      A[l] = B[l] = &solverBodies_[0];
      QA[l] = &M[l]->found.rotationA;
      QB[l] = &M[l]->found.rotationB;
      continue;
    }
    c.lanes = l + 1;
    const int mi = constraintManifold_[ci];
    const Manifold& m = manifolds[mi];
    const int ia = bodyToSolver_[m.a.index], ib = bodyToSolver_[m.b.index];
    const SolverBody& sa = solverBodies_[ia];
    const SolverBody& sb = solverBodies_[ib];
    M[l] = &m;
    A[l] = &sa;
    B[l] = &sb;
    // The anchors in world axes are those of the pose where the narrow phase found the points: a
    // recycled manifold (contact_update.h) keeps its lever arms as found, as it keeps its normal.
    // Otherwise that pose is the step's start (a moving body's rotation matrix is its rotation's:
    // prepareBody).
    QA[l] = m.found.valid ? &m.found.rotationA : &bodies[m.a.index].rotation;
    QB[l] = m.found.valid ? &m.found.rotationB : &bodies[m.b.index].rotation;
    c.a[l] = ia;
    c.b[l] = ib;
    if (sa.invMass > 0.0) c.writeA = static_cast<uint8_t>(c.writeA | (1u << l));
    if (sb.invMass > 0.0) c.writeB = static_cast<uint8_t>(c.writeB | (1u << l));
    c.manifold[l] = mi;
    cold.restitution[l] = static_cast<Lane>(m.restitution);
    c.bounce = c.bounce || cold.restitution[l] != 0;
    cold.radiusA[l] = m.radiusA;
    cold.radiusB[l] = m.radiusB;
    c.round = c.round || cold.radiusA[l] > 0.0 || cold.radiusB[l] > 0.0;
    if (sa.linearFree != Vec3(1.0) || sb.linearFree != Vec3(1.0)) locked |= 1 << l;
    if (m.rollingResistance > 0.0f) {
      // The angular K of the spin about the tangents: t_i . (IA^-1 + IB^-1) t_j (few rows have
      // rolling resistance: one lane at a time).
      const Mat3 invI = sa.invI + sb.invI;
      const Real kr00 = glm::dot(m.tangent1, invI * m.tangent1);
      const Real kr01 = glm::dot(m.tangent1, invI * m.tangent2);
      const Real kr11 = glm::dot(m.tangent2, invI * m.tangent2);
      const Real detR = kr00 * kr11 - kr01 * kr01;
      if (detR > 0.0) {
        c.rolling = true;
        cold.rollingResistance[l] = m.rollingResistance;
        cold.rollingMass[0][l] = static_cast<Lane>(kr11 / detR);
        cold.rollingMass[1][l] = static_cast<Lane>(-kr01 / detR);
        cold.rollingMass[2][l] = static_cast<Lane>(kr00 / detR);
        if (warmStarting_) {
          cold.rollingImpulse[0][l] = static_cast<Lane>(m.rollingImpulse[0] * perSubstep);
          cold.rollingImpulse[1][l] = static_cast<Lane>(m.rollingImpulse[1] * perSubstep);
        }
      }
    }
  }
  // The lanes' inputs, built in registers from the four lanes' manifolds and bodies.
  auto gather = [](auto f) __attribute__((always_inline)) {
    return Dbl{f(0), f(1), f(2), f(3)};
  };
  auto gatherVec = [&](auto f) __attribute__((always_inline)) {
    return DVec{gather([&](int l) { return f(l).x; }), gather([&](int l) { return f(l).y; }),
                gather([&](int l) { return f(l).z; })};
  };
  auto gatherMat = [&](auto f) __attribute__((always_inline)) {
    DMat m;
    for (int j = 0; j < 3; ++j) m.c[j] = gatherVec([&](int l) -> const Vec3& { return f(l)[j]; });
    return m;
  };
  // glm::mat3_cast, four lanes at a time.
  auto rotation = [&](const Quat* const* q) __attribute__((always_inline)) {
    const Dbl w = gather([&](int l) { return q[l]->w; }),
              x = gather([&](int l) { return q[l]->x; });
    const Dbl y = gather([&](int l) { return q[l]->y; }),
              z = gather([&](int l) { return q[l]->z; });
    const Dbl xx = x * x, yy = y * y, zz = z * z, xz = x * z, xy = x * y, yz = y * z;
    const Dbl wx = w * x, wy = w * y, wz = w * z, one = dsplat(1.0), two = dsplat(2.0);
    DMat m;
    m.c[0] = {one - two * (yy + zz), two * (xy + wz), two * (xz - wy)};
    m.c[1] = {two * (xy - wz), one - two * (xx + zz), two * (yz + wx)};
    m.c[2] = {two * (xz + wy), two * (yz - wx), one - two * (xx + yy)};
    return m;
  };
  const Dbl zero{}, one = dsplat(1.0);
  const Dbl invMassA = gather([&](int l) { return A[l]->invMass; });
  const Dbl invMassB = gather([&](int l) { return B[l]->invMass; });
  const DMat invIA = gatherMat([&](int l) -> const Mat3& { return A[l]->invI; });
  const DMat invIB = gatherMat([&](int l) -> const Mat3& { return B[l]->invI; });
  const DMat rotA = rotation(QA), rotB = rotation(QB);
  const DVec n = gatherVec([&](int l) -> const Vec3& { return M[l]->normal; });
  const DVec t[2] = {gatherVec([&](int l) -> const Vec3& { return M[l]->tangent1; }),
                     gatherVec([&](int l) -> const Vec3& { return M[l]->tangent2; })};
  // At least one point per lane (an empty lane's centre is then 0 / 1).
  const Dbl count = gather([&](int l) { return Real(std::max(1, std::min(M[l]->pointCount, 4))); });
  c.points = points;
  c.invMassA = lanes(invMassA);
  c.invMassB = lanes(invMassB);
  c.invIA = lanes(invIA);
  c.invIB = lanes(invIB);
  c.normal = lanes(n);
  c.t1 = lanes(t[0]);
  c.t2 = lanes(t[1]);
  c.friction = lanes(gather([&](int l) { return M[l]->friction; }));
  // Against an immovable or kinematic body the hard rate; an empty lane's are 0, as a cleared
  // row's.
  auto softness = [&](auto field) __attribute__((always_inline)) {
    return lanes(gather([&](int l) {
      return l >= c.lanes                                   ? 0.0
             : A[l]->invMass == 0.0 || B[l]->invMass == 0.0 ? hard.*field
                                                            : soft.*field;
    }));
  };
  c.biasRate = softness(&Softness::biasRate);
  c.massScale = softness(&Softness::massScale);
  c.impulseScale = softness(&Softness::impulseScale);
  const Dbl perSubstepLanes = dsplat(perSubstep);
  if (warmStarting_) {
    c.frictionImpulse[0] =
        lanes(gather([&](int l) { return M[l]->frictionImpulse[0]; }) * perSubstepLanes);
    c.frictionImpulse[1] =
        lanes(gather([&](int l) { return M[l]->frictionImpulse[1]; }) * perSubstepLanes);
    c.twistImpulse = lanes(gather([&](int l) { return M[l]->twistImpulse; }) * perSubstepLanes);
  } else {
    c.frictionImpulse[0] = c.frictionImpulse[1] = c.twistImpulse = Wide{};
  }
  // The linear part of K between unit directions d and e: (mA + mB) d.e, or in lanes with locked
  // translation axes mA d.(freeA e) + mB d.(freeB e) (the locked rows of M^-1 are zero).
  const Dbl mSum = invMassA + invMassB;
  DblMask lockedLanes{};
  DVec freeA{}, freeB{};
  if (locked) {
    for (int l = 0; l < kLanes; ++l) lockedLanes[l] = locked & (1 << l) ? -1 : 0;
    freeA = gatherVec([&](int l) -> const Vec3& { return A[l]->linearFree; });
    freeB = gatherVec([&](int l) -> const Vec3& { return B[l]->linearFree; });
    c.locked = true;
    cold.freeA = lanes(freeA);
    cold.freeB = lanes(freeB);
  }
  auto linearK = [&](const DVec& d, const DVec& e, const Dbl& unlocked)
      __attribute__((always_inline)) {
    if (!locked) return unlocked;
    return dselect(lockedLanes, invMassA * dot(d, freeA * e) + invMassB * dot(d, freeB * e),
                   unlocked);
  };
  const DVec vA = gatherVec([&](int l) -> const Vec3& { return A[l]->v; });
  const DVec vB = gatherVec([&](int l) -> const Vec3& { return B[l]->v; });
  const DVec wA = gatherVec([&](int l) -> const Vec3& { return A[l]->w; });
  const DVec wB = gatherVec([&](int l) -> const Vec3& { return B[l]->w; });
  const DVec dv = vB - vA;
  const Dbl knLinear = linearK(n, n, mSum);
  DVec rAc{}, rBc{}, rBs[4];
  DblMask in[4];
  Dbl deepest{};
  for (int p = 0; p < points; ++p) {
    WidePoint& wp = c.p[p];
    // Lanes with this point (a lane's points past its count hold old numbers: not read).
    in[p] = greater(count, dsplat(p));
    const DVec localA = dselect(
        in[p], gatherVec([&](int l) -> const Vec3& { return M[l]->points[p].localA; }), DVec{});
    const DVec localB = dselect(
        in[p], gatherVec([&](int l) -> const Vec3& { return M[l]->points[p].localB; }), DVec{});
    const Dbl separation =
        dselect(in[p], gather([&](int l) { return M[l]->points[p].separation; }), zero);
    const DVec rA = rotA * localA, rB = rotB * localB;
    rBs[p] = rB;
    // A lane's anchors for this point, +0 where it has none (as a cleared row's).
    const DVec inA = dselect(in[p], rA, DVec{}), inB = dselect(in[p], rB, DVec{});
    rAc = rAc + inA;
    rBc = rBc + inB;
    const Dbl depth = -separation;
    deepest = dselect(in[p] & greater(depth, deepest), depth, deepest);
    wp.rA = lanes(inA);
    wp.rB = lanes(inB);
    wp.baseSeparation = lanes(dselect(in[p], separation - dot(rB - rA, n), zero));
    const DVec nA = cross(rA, n), nB = cross(rB, n);
    const Dbl kn = knLinear + dot(nA, invIA * nA) + dot(nB, invIB * nB);
    wp.normalMass = lanes(divideWhere(in[p] & greater(kn, zero), one, kn));
    wp.normalImpulse =
        warmStarting_
            ? lanes(dselect(in[p], gather([&](int l) { return M[l]->points[p].normalImpulse; }),
                            zero) *
                    perSubstepLanes)
            : Wide{};
    wp.totalImpulse = Wide{};
    cold.relativeVelocity[p] =
        lanes(dselect(in[p], dot(dv + cross(wB, rB) - cross(wA, rA), n), zero));
  }
  rAc = DVec{rAc.x / count, rAc.y / count, rAc.z / count};
  rBc = DVec{rBc.x / count, rBc.y / count, rBc.z / count};
  c.centerA = lanes(rAc);
  c.centerB = lanes(rBc);
  // Twist: the points' mean distance from their centre, at least the depth. A corner or edge
  // pressed d deep into a face overlaps it in a patch about d across, which resists twisting:
  // without it a body pinched between two corner contacts swings about the line through them
  // like a frictionless pendulum, for ever (1000-box heap, seed 18).
  Dbl arm{};
  const DblMask several = greater(count, one);  // one point is its own centre: arm 0
  for (int p = 0; p < points; ++p) {
    const DVec d = rBs[p] - rBc;
    const DVec off = d - dot(d, n) * n;
    arm = arm + dselect(in[p] & several, dsqrt(dot(off, off)) / count, zero);
  }
  c.twistArm = lanes(dselect(greater(deepest, arm), deepest, arm));
  DVec fA[2], fB[2], fIA[2], fIB[2];
  for (int i = 0; i < 2; ++i) {
    fA[i] = cross(rAc, t[i]);
    fB[i] = cross(rBc, t[i]);
    fIA[i] = invIA * fA[i];
    fIB[i] = invIB * fB[i];
  }
  Dbl kt[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      kt[i][j] =
          linearK(t[i], t[j], i == j ? mSum : zero) + dot(fA[i], fIA[j]) + dot(fB[i], fIB[j]);
  const Dbl det = kt[0][0] * kt[1][1] - kt[0][1] * kt[1][0];
  const DblMask invertible = greater(det, zero);
  c.tangentMass[0] = lanes(divideWhere(invertible, kt[1][1], det));
  c.tangentMass[1] = lanes(divideWhere(invertible, -kt[0][1], det));
  c.tangentMass[2] = lanes(divideWhere(invertible, kt[0][0], det));
  const Dbl kTwist = dot(n, invIA * n) + dot(n, invIB * n);
  c.twistMass = lanes(divideWhere(greater(kTwist, zero), one, kTwist));
  if (c.still != Still::None) fixAnchors(c);
}

void ContactSolver::prepareContacts(const std::vector<Body>& bodies,
                                    const std::vector<Manifold>& manifolds, const Settings& s,
                                    Real h) {
  // The constraints in manifold order: each fixed chunk of manifolds finds its own (reading the
  // 656-byte manifolds once, in parallel with threads) and counts them; the chunks' lists are
  // then joined in chunk order, so the list is the same at any thread count.
  const int manifoldCount = static_cast<int>(manifolds.size());
  const int chunks = (manifoldCount + kManifoldGrain - 1) / kManifoldGrain;
  chunkFound_.assign(static_cast<size_t>(chunks) + 1, 0);
  chunkRatio_.assign(static_cast<size_t>(chunks), 0);
  candidates_.resize(manifolds.size());
  parallelFor(tasks_, manifoldCount, kManifoldGrain, [&](int begin, int end, int) {
    int found = 0;
    bool foundRatio = false;
    for (int mi = begin; mi < end; ++mi) {
      // The manifolds are 656 bytes apart and only their first line is read here: fetch ahead.
      if (mi + 8 < end) detail::prefetch(&manifolds[mi + 8]);
      const Manifold& m = manifolds[mi];
      if (m.pointCount == 0) continue;
      const int ia = bodyToSolver_[m.a.index], ib = bodyToSolver_[m.b.index];
      const Real ma = solverBodies_[ia].invMass, mb = solverBodies_[ib].invMass;
      if (ma == 0.0 && mb == 0.0) continue;
      // A pair for contact.exact_ratio's groups (buildExact).
      if (ratioPair(ma, mb)) foundRatio = true;
      candidates_[static_cast<size_t>(begin + found++)] = {mi, ia, ib, std::min(m.pointCount, 4)};
    }
    chunkFound_[static_cast<size_t>(begin / kManifoldGrain) + 1] = found;
    chunkRatio_[static_cast<size_t>(begin / kManifoldGrain)] = foundRatio ? 1 : 0;
  });
  ratioFound_ = false;
  for (int c = 0; c < chunks; ++c) {
    chunkFound_[c + 1] += chunkFound_[c];
    ratioFound_ = ratioFound_ || chunkRatio_[static_cast<size_t>(c)] != 0;
  }
  constraintCount_ = chunkFound_[static_cast<size_t>(chunks)];
  constraintBodies_.resize(2 * static_cast<size_t>(constraintCount_));
  constraintManifold_.resize(static_cast<size_t>(constraintCount_));
  constraintPoints_.resize(static_cast<size_t>(constraintCount_));
  parallelFor(tasks_, manifoldCount, kManifoldGrain, [&](int begin, int, int) {
    const int chunk = begin / kManifoldGrain;
    const int first = chunkFound_[static_cast<size_t>(chunk)];
    const int found = chunkFound_[static_cast<size_t>(chunk) + 1] - first;
    for (int k = 0; k < found; ++k) {
      const Candidate& c = candidates_[static_cast<size_t>(begin + k)];
      const size_t ci = static_cast<size_t>(first + k);
      constraintBodies_[2 * ci] = c.a;
      constraintBodies_[2 * ci + 1] = c.b;
      constraintManifold_[ci] = c.manifold;
      constraintPoints_[ci] = static_cast<int8_t>(c.points);
    }
  });
  dynamic_.resize(solverBodies_.size());
  for (size_t i = 0; i < solverBodies_.size(); ++i) dynamic_[i] = solverBodies_[i].invMass > 0.0;
  graph_.build(constraintBodies_, dynamic_, static_cast<int>(solverBodies_.size()));

  // Contacts with a static or kinematic body are stiffer (twice the rate, half the damping
  // ratio): nothing on the other side gives way (Box2D v3, Box3D). Both are capped at a quarter
  // of the substep rate.
  const Real cap = 0.25 / h;
  const Softness soft = makeSoftness(std::min(s.contact.hertz, cap), s.contact.dampingRatio, h);
  const Softness hard =
      makeSoftness(std::min(2.0 * s.contact.hertz, cap), 0.5 * s.contact.dampingRatio, h);
  // Rows: the overflow first (one constraint per row), then the colours in order. Each row's
  // constraints and point count (its fullest lane's) are laid out first; the rows are then
  // cleared and packed one by one, front to back (in parallel with threads). rows_ keeps its
  // largest size.
  // Every colour's rows are known from its size: the rows are laid out colour by colour in
  // parallel (with threads), each into its own place.
  const int colors = graph_.colorCount();
  const int overflowRows = graph_.overflowCount();
  // The per-colour arrays take room for every colour at once (a new colour in a later step
  // allocates nothing: ConstraintGraph::build).
  constexpr size_t kAllColors = ConstraintGraph::kColors;
  colorRows_.reserve(kAllColors + 1);
  colorStill_.reserve(kAllColors);
  colorRows_.resize(static_cast<size_t>(colors) + 1);
  rowCount_ = overflowRows;
  for (int c = 0; c < colors; ++c) {
    colorRows_[static_cast<size_t>(c)] = rowCount_;
    rowCount_ += (static_cast<int>(graph_.color(c).size()) + kLanes - 1) / kLanes;
  }
  colorRows_[static_cast<size_t>(colors)] = rowCount_;
  rowMembers_.resize(static_cast<size_t>(rowCount_) * kLanes);
  rowPoints_.resize(static_cast<size_t>(rowCount_));
  rowStill_.resize(static_cast<size_t>(rowCount_));
  // Row r: its constraints (count of them) and point count; whether it is of a Still kind.
  auto setRow = [&](int r, const int* members, int count) {
    int points = 0;
    bool stillA = stillKernels_, stillB = stillKernels_;
    int* lanes = rowMembers_.data() + static_cast<size_t>(r) * kLanes;
    for (int l = 0; l < kLanes; ++l) lanes[l] = l < count ? members[l] : -1;
    for (int l = 0; l < count; ++l) {
      points = std::max(points, static_cast<int>(constraintPoints_[members[l]]));
      stillA = stillA && constraintBodies_[2 * members[l]] == 0;
      stillB = stillB && constraintBodies_[2 * members[l] + 1] == 0;
    }
    rowPoints_[static_cast<size_t>(r)] = points;
    rowStill_[static_cast<size_t>(r)] = stillA ? Still::A : stillB ? Still::B : Still::None;
    return stillA || stillB;
  };
  stillRowCount_ = 0;
  for (int r = 0; r < overflowRows; ++r)
    stillRowCount_ += setRow(r, &graph_.overflow()[static_cast<size_t>(r)], 1) ? 1 : 0;
  // With threads, each constraint has a home worker: the one whose share of the body loops
  // (integration) holds its first moving body (see homeOf_). A colour's constraints are grouped
  // by home first, so that a worker's rows of the pass gather mostly the bodies its own core
  // integrated and wrote last (a body state moved between cores is a miss to the other core's
  // cache on every row that reads it). Which constraints share a row, and in what order a
  // colour's rows run, changes no bit: the lanes are independent and a colour's rows share no
  // moving body.
  const int homes = homes_;
  const size_t groups = 4 * static_cast<size_t>(homes) + 1;
  colorHomes_.reserve(kAllColors * static_cast<size_t>(homes));
  groupStart_.reserve(kAllColors * groups);
  colorHomes_.resize(static_cast<size_t>(colors) * static_cast<size_t>(homes));
  groupStart_.resize(static_cast<size_t>(colors) * groups);
  colorStill_.assign(static_cast<size_t>(colors), 0);
  sorted_.resize(static_cast<size_t>(rowCount_ - overflowRows) * kLanes);
  // Within a colour (and a home), constraints are grouped by point count (4, 3, 2, then 1; a
  // stable counting sort, so the order is a function of the manifolds): a row runs as many point
  // iterations as its fullest lane, and mixed rows left a third of those lanes idle in a box heap.
  parallelFor(tasks_, colors, 1, [&](int color, int, int) {
    const std::vector<int>& members = graph_.color(color);
    const int firstRow = colorRows_[static_cast<size_t>(color)];
    // The colour's constraints go to sorted_ from its first row's first lane on.
    int* sorted = sorted_.data() + (static_cast<size_t>(firstRow - overflowRows)) * kLanes;
    // Group g holds the constraints of home g / 4 with 4 - g % 4 points; start[g] is where it
    // begins in sorted.
    auto group = [&](int ci) {
      int home = 0;
      if (homes > 1) {
        const int a = constraintBodies_[2 * ci];
        home = homeOf_[dynamic_[a] ? a : constraintBodies_[2 * ci + 1]];
      }
      return 4 * home + 4 - constraintPoints_[ci];
    };
    int* start = groupStart_.data() + static_cast<size_t>(color) * groups;
    std::fill(start, start + groups, 0);
    for (int ci : members) ++start[group(ci) + 1];
    for (size_t g = 1; g < groups; ++g) start[g] += start[g - 1];
    // Each home's first row (a row may straddle two homes: it counts in the first's).
    for (int w = 0; w < homes; ++w)
      colorHomes_[static_cast<size_t>(color) * static_cast<size_t>(homes) +
                  static_cast<size_t>(w)] = firstRow + (start[4 * w] + kLanes - 1) / kLanes;
    for (int ci : members) sorted[start[group(ci)]++] = ci;
    const int size = static_cast<int>(members.size());
    int still = 0;
    for (int i = 0; i < size; i += kLanes)
      still += setRow(firstRow + i / kLanes, sorted + i, std::min(kLanes, size - i)) ? 1 : 0;
    colorStill_[static_cast<size_t>(color)] = still;
  });
  for (int still : colorStill_) stillRowCount_ += still;
  if (homes > 1) balanceHomes();
  // The rows' arrays only grow (core/huge_pages.h: a heap's landing faulted their fresh pages in).
  if (rows_.size() < static_cast<size_t>(rowCount_)) {
    detail::resizeLarge(rows_, static_cast<size_t>(rowCount_));
    detail::resizeLarge(cold_, rows_.size());
  }
  if ((s.solver.velocityIterations > 1 || s.solver.positionIterations > 0) &&
      separations_.size() < rows_.size() * 4)
    detail::resizeLarge(separations_, rows_.size() * 4);
  // The rows packed one by one (in parallel with threads), the next row's manifolds fetched
  // (a colour's come in manifold order, but strided): only the parts packRow reads, all but the
  // points past the row's point count.
  auto fetch = [&](int mi, int points) {
    const char* at = reinterpret_cast<const char*>(&manifolds[mi]);
    const size_t skipFrom = offsetof(Manifold, points) + sizeof(ContactPoint) * points;
    const size_t skipTo = offsetof(Manifold, points) + sizeof(ContactPoint) * 4;
    for (size_t k = 0; k < sizeof(Manifold); k += 64)
      if (k + 64 <= skipFrom || k >= skipTo) detail::prefetch(at + k);
  };
  const int rows = rowCount_;
  forEachRow([&](int r) {
    for (int l = 0; r + 1 < rows && l < kLanes && rowMembers_[(r + 1) * kLanes + l] >= 0; ++l)
      fetch(constraintManifold_[rowMembers_[(r + 1) * kLanes + l]], rowPoints_[r + 1]);
    packRow(r, bodies, manifolds, soft, hard);
  });
  exactSoftness_ = soft;
}

void ContactSolver::integrateVelocities(const std::vector<Body>& bodies, const Vec3& gravity,
                                        Real h) {
  const Vec3 gravityStep = h * (gravity + Vec3(0.0));
  forEachBody([&](int i, int next) {
    // The bodies are 696 bytes apart (and the static and sleeping ones are skipped): fetch the
    // lines with the forces and the options flag ahead.
    if (next >= 0 && !solverBodies_[next].unforced) {
      const Body& ahead = bodies[solverBodies_[next].body];
      detail::prefetch(&ahead.force);
      detail::prefetch(&ahead.hasOptions);
    }
    SolverBody& sb = solverBodies_[i];
    if (sb.invMass == 0.0) return;  // kinematic: no row changes it (zero inverse mass)
    pull(i);
    if (sb.unforced) {
      // The lines below with the body's force and torque +0, without the body's lines: the
      // inverse mass times +0 is +0 (finite, > 0), so v gains h (gravity + 0); invI times +0 is
      // +0 (prepareBody), so w gains h 0 = +0 (which turns a -0 component into +0, as before).
      sb.v += gravityStep;
      sb.w += Vec3(0.0);
      push(i);
      return;
    }
    const Body& b = bodies[sb.body];
    if (b.hasOptions) {
      // Damping scales the velocity the substep starts with, then gravity and forces are added
      // (Box2D v3's b2IntegrateVelocitiesTask): v' = v / (1 + h c) + h (s g + F / m). Locked
      // components are dropped (they are 0 already; the forces' are not).
      const Real linear = b.linearDamping > 0.0 ? 1.0 / (1.0 + h * b.linearDamping) : 1.0;
      const Real angular = b.angularDamping > 0.0 ? 1.0 / (1.0 + h * b.angularDamping) : 1.0;
      sb.v =
          (linear * sb.v + h * (b.gravityScale * gravity + sb.invMass * b.force)) * sb.linearFree;
      sb.w = (angular * sb.w + h * (sb.invI * b.torque)) * b.angularFree;
    } else {
      sb.v += h * (gravity + sb.invMass * b.force);
      sb.w += h * (sb.invI * b.torque);
    }
    push(i);
  });
}

namespace {

// The body's pose now: its pose at the step's start moved and turned by the solver body's motion
// since (SolverBody::centerStart, rotationStart).
void poseNow(const SolverBody& sb, Body& b) {
  b.center = sb.centerStart + sb.dp;
  b.rotation = glm::normalize(sb.dq * sb.rotationStart);
}

}  // namespace

void ContactSolver::integratePositions(Real h) {
  forEachBody([&](int i, int) {
    SolverBody& sb = solverBodies_[i];
    // A kinematic body's velocities are its own (no row changes them: zero inverse mass and
    // inertia), and stay double: a pull would round them through the lanes (moveKinematic's
    // velocities must land on their target to 1e-9).
    if (sb.invMass != 0.0) pull(i);
    sb.dp += h * sb.v;
    sb.dq = rotateBy(sb.dq, h * sb.w);
    push(i);
  });
}

// The still side's anchors (Still), turned by body 0's dq = 1 as the general kernel turns them
// whenever it measures a separation: rotate(1, r) is r but for the sign of a zero component.
void ContactSolver::fixAnchors(WideContact& c) {
  const Rot identity{splat(1.0), zero(), zero(), zero()};
  for (int k = 0; k < c.points; ++k) {
    if (c.still == Still::A) c.p[k].rA = rotate(identity, c.p[k].rA);
    if (c.still == Still::B) c.p[k].rB = rotate(identity, c.p[k].rB);
  }
}

template <class F>
void ContactSolver::byStill(WideContact& c, F&& f) {
  switch (c.still) {
    case Still::None:
      f(std::integral_constant<Still, Still::None>{});
      break;
    case Still::A:
      f(std::integral_constant<Still, Still::A>{});
      break;
    case Still::B:
      f(std::integral_constant<Still, Still::B>{});
      break;
  }
}

namespace {

inline Vec zeroVec() {
  return {zero(), zero(), zero()};
}

// B's anchor velocity minus A's, (vB + wB x rB) - (vA + wA x rA); the still side's part is +0
// (Still): x - (+0) is x, (+0) - y is computed as such.
template <Still still>
inline __attribute__((always_inline)) Vec relativeVelocity(const WideBody& A, const Vec& rA,
                                                           const WideBody& B, const Vec& rB) {
  if constexpr (still == Still::A) {
    return B.v + cross(B.w, rB);
  } else if constexpr (still == Still::B) {
    return zeroVec() - (A.v + cross(A.w, rA));
  } else {
    return (B.v + cross(B.w, rB)) - (A.v + cross(A.w, rA));
  }
}

// Impulse P at the anchors armA, armB: A takes -P, B +P; the still side takes nothing.
template <Still still, class Row, class Cold>
inline __attribute__((always_inline)) void applyImpulse(const Row& c, const Cold& cold, WideBody& A,
                                                        WideBody& B, const Vec& P, const Vec& armA,
                                                        const Vec& armB) {
  if constexpr (still != Still::A) {
    A.v = A.v - c.invMassA * freeOf(c, P, cold.freeA);
    A.w = A.w - c.invIA * cross(armA, P);
  }
  if constexpr (still != Still::B) {
    B.v = B.v + c.invMassB * freeOf(c, P, cold.freeB);
    B.w = B.w + c.invIB * cross(armB, P);
  }
}

// wB - wA, as above.
template <Still still>
inline __attribute__((always_inline)) Vec relativeSpin(const WideBody& A, const WideBody& B) {
  if constexpr (still == Still::A) {
    return B.w;
  } else if constexpr (still == Still::B) {
    return zeroVec() - A.w;
  } else {
    return B.w - A.w;
  }
}

}  // namespace

template <Still still>
void ContactSolver::warmStart(WideContact& c) {
  const WideCold& cold = coldOf(c);
  WideBody A{}, B{};
  if constexpr (still != Still::A) A = gather<2>(states_.data(), c.a);
  if constexpr (still != Still::B) B = gather<2>(states_.data(), c.b);
  Vec P = c.frictionImpulse[0] * c.t1 + c.frictionImpulse[1] * c.t2;
  Vec angularA = cross(c.centerA, P), angularB = cross(c.centerB, P);
  const Vec twist = c.twistImpulse * c.normal;
  angularA = angularA + twist;
  angularB = angularB + twist;
  if (c.rolling) {
    const Vec rolling = cold.rollingImpulse[0] * c.t1 + cold.rollingImpulse[1] * c.t2;
    angularA = angularA + rolling;
    angularB = angularB + rolling;
  }
  for (int k = 0; k < c.points; ++k) {
    const WidePoint& p = c.p[k];
    const Vec Pn = p.normalImpulse * c.normal;
    P = P + Pn;
    if constexpr (still != Still::A) angularA = angularA + cross(p.rA, Pn);
    if constexpr (still != Still::B) angularB = angularB + cross(p.rB, Pn);
  }
  if constexpr (still != Still::A) {
    A.v = A.v - c.invMassA * freeOf(c, P, cold.freeA);
    A.w = A.w - c.invIA * angularA;
    scatter(states_.data(), c.a, c.writeA, A);
  }
  if constexpr (still != Still::B) {
    B.v = B.v + c.invMassB * freeOf(c, P, cold.freeB);
    B.w = B.w + c.invIB * angularB;
    scatter(states_.data(), c.b, c.writeB, B);
  }
}

template <bool useBias, bool friction, ContactSolver::Separation separation, Still still>
void ContactSolver::solve(WideContact& c, bool reverse) {
  WideCold& cold = coldOf(c);
  constexpr bool measure = separation != Separation::Kept;
  // Kept separations need only the velocities.
  constexpr int quarters = measure ? 4 : 2;
  WideBody A{}, B{};
  if constexpr (still != Still::A) A = gather<quarters>(states_.data(), c.a);
  if constexpr (still != Still::B) B = gather<quarters>(states_.data(), c.b);
  Wide* kept =
      separation == Separation::Measure ? nullptr : separations_.data() + (&c - rows_.data()) * 4;
  const Wide zeroW = zero(), one = splat(1.0), invH = splat(invH_);
  const Wide maxPush = splat(-pushVelocity_);
  const Wide biasRate = useBias ? c.biasRate : zeroW;
  const Wide massScale = useBias ? c.massScale : one;
  const Wide impulseScale = useBias ? c.impulseScale : zeroW;
  auto apply = [&](const Vec& P, const Vec& armA, const Vec& armB) {
    applyImpulse<still>(c, cold, A, B, P, armA, armB);
  };
  auto applyAngular = [&](const Vec& L) {
    if constexpr (still != Still::A) A.w = A.w - c.invIA * L;
    if constexpr (still != Still::B) B.w = B.w + c.invIB * L;
  };
  // B's motion minus A's (the still side's dp is +0).
  Vec dp = zeroVec();
  if constexpr (measure) {
    if constexpr (still == Still::A)
      dp = B.dp;
    else if constexpr (still == Still::B)
      dp = zeroVec() - A.dp;
    else
      dp = B.dp - A.dp;
  }
  // A point on a round surface (radius r about its core) is carried by the core, not turned with
  // the body: a ball rolling a quarter turn in a step would otherwise lift its anchor by
  // r (1 - cos) and sink that deep into the ground. Measured from the core points (rA - radiusA n
  // and rB + radiusB n), the separation gains radius (n . dq n - 1) per side. The still side's
  // n . (1 n) is n . n (a zero component's sign changes no sum of squares of a unit vector).
  Wide roundness = zeroW;
  if (measure && c.round) {
    const Wide turnA =
        still == Still::A ? dot(c.normal, c.normal) : dot(c.normal, rotate(A.dq, c.normal));
    const Wide turnB =
        still == Still::B ? dot(c.normal, c.normal) : dot(c.normal, rotate(B.dq, c.normal));
    roundness = cold.radiusA * (turnA - one) + cold.radiusB * (turnB - one);
  }
  Wide total = zeroW;
  for (int kk = 0; kk < c.points; ++kk) {
    const int k = reverse ? c.points - 1 - kk : kk;
    WidePoint& p = c.p[k];
    Wide s;
    if constexpr (measure) {
      // The still side's anchor is already turned by its dq = 1 (fixAnchors).
      const Vec turnedB = still == Still::B ? p.rB : rotate(B.dq, p.rB);
      const Vec turnedA = still == Still::A ? p.rA : rotate(A.dq, p.rA);
      const Vec ds = dp + turnedB - turnedA;
      s = dot(c.normal, ds) + p.baseSeparation + roundness;
      if constexpr (separation == Separation::MeasureKeep) kept[k] = s;
    } else {
      s = kept[k];
    }
    const Mask gap = s > zeroW;
    const Wide bias = select(gap, s * invH, max(biasRate * s, maxPush));
    const Wide ms = select(gap, one, massScale);
    const Wide is = select(gap, zeroW, impulseScale);
    const Vec vr = relativeVelocity<still>(A, p.rA, B, p.rB);
    const Wide vn = dot(vr, c.normal);
    const Wide next =
        max(p.normalImpulse - p.normalMass * ms * (vn + bias) - is * p.normalImpulse, zeroW);
    const Wide d = next - p.normalImpulse;
    p.normalImpulse = next;
    p.totalImpulse = max(p.totalImpulse, next);
    total = total + next;
    const Vec P = d * c.normal;
    apply(P, p.rA, p.rB);
  }
  if constexpr (friction) {
    // Rolling resistance (Box2D v3's, with the spin about both tangents as one 2x2 block, as the
    // friction below): the relative spin about t1 and t2 is stopped by an angular impulse of at
    // most resistance * load, a torque of resistance * N; the spin about the normal is the
    // twist's. Before the friction, as in Box3D: the friction then leaves a ball that stops
    // rolling without slip (after it, a stopped ball slid back and forth at 4 mm/s for a few
    // steps).
    if (c.rolling) {
      const Vec wr = relativeSpin<still>(A, B);
      applyAngular(discImpulse(cold.rollingImpulse, cold.rollingMass, dot(wr, c.t1), dot(wr, c.t2),
                               cold.rollingResistance * total, c.t1, c.t2));
    }
    // Twist about the normal, limited by mu * load * arm; in a row with rolling resistance by at
    // least resistance * load too (the spin about the normal resisted as the rolling is, as
    // Box3D's rolling row does on all three axes): one point has no arm, and a ball spinning on
    // its contact point kept spinning for minutes (the 2000-sphere heap with c = 0.1: 337 balls
    // spinning at up to 5.9 rad/s after 20 s, and their islands awake).
    {
      const Wide wn = dot(c.normal, relativeSpin<still>(A, B));
      Wide limit = c.friction * total * c.twistArm;
      if (c.rolling) limit = max(limit, cold.rollingResistance * total);
      const Wide old = c.twistImpulse;
      const Wide next = max(min(old - c.twistMass * wn, limit), -limit);
      c.twistImpulse = next;
      const Vec L = (next - old) * c.normal;
      applyAngular(L);
    }
    // Both tangents at the centre, clamped to the disc of radius mu * load.
    {
      const Vec vr = relativeVelocity<still>(A, c.centerA, B, c.centerB);
      const Vec P = discImpulse(c.frictionImpulse, c.tangentMass, dot(vr, c.t1), dot(vr, c.t2),
                                c.friction * total, c.t1, c.t2);
      apply(P, c.centerA, c.centerB);
    }
  }
  if constexpr (still != Still::A) scatter(states_.data(), c.a, c.writeA, A);
  if constexpr (still != Still::B) scatter(states_.data(), c.b, c.writeB, B);
}

template <bool useBias, bool friction, ContactSolver::Separation separation>
void ContactSolver::solvePass(bool reverse) {
  rowPass([this, reverse](WideContact& c) {
    byStill(c,
            [&](auto k) { solve<useBias, friction, separation, decltype(k)::value>(c, reverse); });
  });
}

template <Still still>
void ContactSolver::restitution(WideContact& c) {
  if (!c.bounce) return;  // every lane's restitution is 0
  const WideCold& cold = coldOf(c);
  WideBody A{}, B{};
  if constexpr (still != Still::A) A = gather<2>(states_.data(), c.a);
  if constexpr (still != Still::B) B = gather<2>(states_.data(), c.b);
  const Wide zeroW = zero(), threshold = splat(-restitutionThreshold_);
  auto apply = [&](const Vec& P, const Vec& armA, const Vec& armB) {
    applyImpulse<still>(c, cold, A, B, P, armA, armB);
  };
  for (int k = 0; k < c.points; ++k) {
    WidePoint& p = c.p[k];
    // Only points that approached faster than the threshold and carried load bounce.
    const Mask bounce = (cold.relativeVelocity[k] < threshold) & (p.totalImpulse > zeroW);
    const Vec vr = relativeVelocity<still>(A, p.rA, B, p.rB);
    const Wide vn = dot(vr, c.normal);
    const Wide next = max(
        p.normalImpulse - p.normalMass * (vn + cold.restitution * cold.relativeVelocity[k]), zeroW);
    const Wide d = select(bounce, next - p.normalImpulse, zeroW);
    p.normalImpulse = p.normalImpulse + d;
    const Vec P = d * c.normal;
    apply(P, p.rA, p.rB);
  }
  if constexpr (still != Still::A) scatter(states_.data(), c.a, c.writeA, A);
  if constexpr (still != Still::B) scatter(states_.data(), c.b, c.writeB, B);
}

// The manifolds keep impulses per step (what a resting point carries over the whole step, as a
// user reads them); the rows work per substep.
void ContactSolver::store(std::vector<Manifold>& manifolds, Real substeps) {
  forEachRow([&](int r) {
    // A colour's manifolds come strided: fetch the lines written here (the point count up to the
    // twist impulse) two rows ahead (a third of store's time was waiting on them in large_pyramid).
    if (r + 2 < rowCount_) {
      const WideContact& ahead = rows_[r + 2];
      for (int l = 0; l < ahead.lanes; ++l) {
        const char* at = reinterpret_cast<const char*>(&manifolds[ahead.manifold[l]]);
        for (size_t k = offsetof(Manifold, pointCount); k < offsetof(Manifold, cache); k += 64)
          detail::prefetchWrite(at + k);
        detail::prefetchWrite(at + offsetof(Manifold, cache) - 1);
      }
    }
    const WideContact& c = rows_[r];
    for (int l = 0; l < c.lanes; ++l) {
      Manifold& m = manifolds[c.manifold[l]];
      m.frictionImpulse[0] = substeps * c.frictionImpulse[0][l];
      m.frictionImpulse[1] = substeps * c.frictionImpulse[1][l];
      m.twistImpulse = substeps * c.twistImpulse[l];
      if (c.rolling) {
        const WideCold& cold = cold_[static_cast<size_t>(r)];
        m.rollingImpulse[0] = static_cast<float>(substeps * cold.rollingImpulse[0][l]);
        m.rollingImpulse[1] = static_cast<float>(substeps * cold.rollingImpulse[1][l]);
      }
      for (int k = 0; k < m.pointCount; ++k)
        m.points[k].normalImpulse = substeps * c.p[k].normalImpulse[l];
    }
  });
}

template <class Pass>
void ContactSolver::jointPass(JointSet& joints, Pass&& pass) {
  // With no contact row nothing reads the states (pull and push above): the pass alone, and
  // the locked components where a body has any (joint_grid's 10,000 bodies, 16 passes a step).
  if (!statesRead_) {
    pass(joints);
    if (jointLocked_)
      for (int i : joints.solverBodies()) {
        SolverBody& sb = solverBodies_[i];
        if (sb.linearFree != Vec3(1.0)) sb.v *= sb.linearFree;
      }
    return;
  }
  for (int i : joints.solverBodies()) pull(i);
  pass(joints);
  for (int i : joints.solverBodies()) {
    // A joint row does not mask its impulses: the locked components are dropped after it.
    SolverBody& sb = solverBodies_[i];
    if (sb.linearFree != Vec3(1.0)) sb.v *= sb.linearFree;
    push(i);
  }
}

void ContactSolver::step(std::vector<Body>& bodies, std::vector<Manifold>& manifolds,
                         std::vector<DragConstraint*>& drags, const Settings& s, Real dt,
                         JointSet* joints, TaskSystem* tasks) {
  tasks_ = tasks && tasks->workerCount() > 1 ? tasks : nullptr;
  // Each stage's wall time: the time since the last lap, added to the stage's (a clock read
  // per stage and substep: a few dozen a step).
  using Clock = std::chrono::steady_clock;
  stageTimes_ = StageTimes{};
  Clock::time_point last = Clock::now();
  auto lap = [&last](Real& stage) {
    const Clock::time_point now = Clock::now();
    stage += std::chrono::duration<Real, std::milli>(now - last).count();
    last = now;
  };
  StageTimes& times = stageTimes_;
  const int substeps = s.solver.substeps;
  const Real h = dt / substeps;
  invH_ = 1.0 / h;
  substeps_ = substeps;
  pushVelocity_ = s.contact.pushVelocity;
  exactRatio_ = s.contact.exactRatio;
  restitutionThreshold_ = s.contact.restitutionThreshold;
  warmStarting_ = s.solver.warmStarting;
  statesRead_ = true;  // the bodies' states pushed in prepareBodies, read by the contact rows
  // Each jointed body's joint forces times their arms (JointSet::geometricStiffness), read by
  // prepareBody.
  torqueArm_.clear();
  if (joints && joints->count() > 0) {
    torqueArm_.assign(bodies.size(), 0.0);
    joints->geometricStiffness(torqueArm_);
    addedInertia_ = h * h;
  }
  prepareBodies(bodies, joints && joints->count() > 0);
  prepareContacts(bodies, manifolds, s, h);
  if (tasks_) layoutBlocks();
  statesRead_ = rowCount_ > 0;
  if (joints) {
    joints->prepare(bodies, bodyToSolver_, solverBodies_, s, h, warmStarting_);
    jointLocked_ = false;
    for (int i : joints->solverBodies())
      if (solverBodies_[i].linearFree != Vec3(1.0)) jointLocked_ = true;
  }
  buildExact(joints);
  lap(times.prepare);
  const int relax = s.solver.positionIterations;
  const bool hasExact = !exactSlot_.empty();
  // Each pass over the rows visits a manifold's points in the order opposite to the last pass
  // (symmetric Gauss-Seidel over the points): in one order only, the first point solved takes
  // more of the load every time, and a one-box-thick wall leans out of its plane.
  bool reverse = false;
  for (int sub = 0; sub < substeps; ++sub) {
    integrateVelocities(bodies, s.gravity, h);
    lap(times.integrate);
    for (DragConstraint* d : drags) {
      const int si = bodyToSolver_[d->body];
      if (si <= 0) continue;
      // The drag reads its body's pose now: the solver body's, until the step's end.
      Body& b = bodies[d->body];
      poseNow(solverBodies_[si], b);
      prepareDrag(*d, b, solverBodies_[si], si, h);
    }
    if (joints && warmStarting_)
      jointPass(*joints, [&](JointSet& js) { js.warmStart(solverBodies_); });
    if (warmStarting_)
      rowPass([this](WideContact& c) {
        byStill(c, [&](auto k) { warmStart<decltype(k)::value>(c); });
      });
    lap(times.warmStart);
    for (int i = 0; i < s.solver.velocityIterations; ++i) {
      for (DragConstraint* d : drags)
        if (bodyToSolver_[d->body] > 0) {
          pull(d->solverBody);
          SolverBody& sb = solverBodies_[d->solverBody];
          solveDrag(*d, sb);
          if (sb.linearFree != Vec3(1.0)) sb.v *= sb.linearFree;
          push(d->solverBody);
        }
      if (joints && joints->hasPassRows())
        jointPass(*joints, [&](JointSet& js) { js.solve(solverBodies_, true); });
      const int iterations = s.solver.velocityIterations;
      // The separations the last substep's relax kept (Separation, contact_solver.h).
      const bool kept = i > 0 || (sub > 0 && relax > 0);
      if (relax == 0 || iterations == 1) {
        // No relax, or one pass: friction in it (with one pass, as well as in the relax: see the
        // top of this file).
        if (kept) {
          solvePass<true, true, Separation::Kept>(reverse);
        } else if (iterations > 1) {
          solvePass<true, true, Separation::MeasureKeep>(reverse);
        } else {
          solvePass<true, true, Separation::Measure>(reverse);
        }
      } else if (!kept) {
        solvePass<true, false, Separation::MeasureKeep>(reverse);
      } else {
        solvePass<true, false, Separation::Kept>(reverse);
      }
      if (hasExact) solveExact(true);
      // The joints' exact groups after the contacts (docs/ARCHITECTURE.md, "Joints"). With no
      // joint row in the passes (a bridge's hinges, all in a group) the groups are solved in the
      // substep's last solve pass alone: the contacts' first pass needs no exact joints under it
      // (the groups have the last word anyway). With pass rows (limits, motors, friction, soft
      // rows) a group between them is their Gauss-Seidel partner: a hinge limit under 100 N m
      // overshot 0.93 degrees without it against 0.78 with it.
      if (joints && joints->hasGroups() && (i + 1 == iterations || joints->hasPassRows()))
        jointPass(*joints, [&](JointSet& js) { js.solveGroups(solverBodies_, true); });
      reverse = !reverse;
    }
    lap(times.solve);
    integratePositions(h);
    if (joints) joints->posesMoved();
    lap(times.integrate);
    for (int i = 0; i < relax; ++i) {
      if (joints && joints->hasPassRows())
        jointPass(*joints, [&](JointSet& js) { js.solve(solverBodies_, false); });
      // The first relax pass measures the separations the bodies' new positions give and keeps
      // them for the passes after it: later relax passes and the next substep's solve passes.
      if (i > 0) {
        solvePass<false, true, Separation::Kept>(reverse);
      } else if (relax > 1 || sub + 1 < substeps) {
        solvePass<false, true, Separation::MeasureKeep>(reverse);
      } else {
        solvePass<false, true, Separation::Measure>(reverse);
      }
      if (hasExact) solveExact(false);
      // The groups relax after the contacts, as every soft row does: the relax takes out the
      // velocity the solve's bias left. From e5de45c until fac84ed they relaxed only beside pass
      // rows, and a group with none (the bridge) kept that velocity: its position error carried
      // on as motion. A taut chain then never rested: the bridge's 40 planks with nothing on
      // them, left at rest, zig-zagged (neighbours turning opposite ways at up to 0.7 rad/s) for
      // ever at 4 substeps and blew up at two; relaxed, they sleep after 55 steps at 4 substeps
      // (test "A taut hinge bridge left alone comes to rest"). The relax costs the bridge's
      // step 3-5% (a driver; the factor is kept for it; 11% of the instructions when e5de45c
      // left it out).
      if (joints && joints->hasGroups())
        jointPass(*joints, [&](JointSet& js) { js.solveGroups(solverBodies_, false); });
      reverse = !reverse;
    }
    lap(times.relax);
    // With an even number of passes per substep each pass would keep its order in every substep
    // (one solve and one relax: the soft push-out always from the first point): the next substep
    // starts in the other order.
    if ((s.solver.velocityIterations + relax) % 2 == 0) reverse = !reverse;
  }
  rowPass(
      [this](WideContact& c) { byStill(c, [&](auto k) { restitution<decltype(k)::value>(c); }); });
  store(manifolds, static_cast<Real>(substeps));
  const int solverBodyCount = static_cast<int>(solverBodies_.size());
  forEach(1, solverBodyCount, kBodyGrain, [&](int i) {
    // The bodies' lines written below (the pose and the velocities, 696 bytes apart) fetched a
    // few bodies ahead: perf put most of the step function's own samples in joint_grid (10,000
    // bodies) on these writes.
    if (i + 4 < solverBodyCount) {
      Body& ahead = bodies[solverBodies_[i + 4].body];
      detail::prefetchWrite(&ahead.center);
      detail::prefetchWrite(&ahead.rotation);
      detail::prefetchWrite(&ahead.angularVelocity);
    }
    pull(i);
    const SolverBody& sb = solverBodies_[i];
    Body& b = bodies[sb.body];
    poseNow(sb, b);
    if (!b.isDynamic()) return;
    b.linearVelocity = sb.v;
    b.angularVelocity = sb.w;
  });
  lap(times.store);
  tasks_ = nullptr;
}

}  // namespace tumble
