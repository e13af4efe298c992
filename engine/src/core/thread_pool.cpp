#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "tumble/task.h"

namespace tumble {
namespace {
thread_local bool tInsideLoop = false;  // a parallelFor from inside a chunk runs inline
thread_local int tWorker = 0;           // ... with the worker id of the chunk that called it

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

// One loop at a time, published in one 64-bit word: the loop's generation (high 32 bits), an
// open flag, and how many workers are inside it (low 31 bits). A worker joins the loop by
// incrementing that count while the loop is open and its generation is one it has not run, takes
// chunks from `next` until none are left, and leaves by decrementing the count. The caller runs
// chunks too, then closes the loop and waits only for the workers inside it: a worker asleep or
// descheduled never delays a loop it did not join, and no worker reads the job after it closed.
struct ThreadPool::State {
  static constexpr uint64_t kOpen = 1ull << 31;
  static constexpr uint64_t kActive = kOpen - 1;

  int threads = 1;
  std::vector<std::thread> workers;

  RangeFn fn = nullptr;
  void* context = nullptr;
  int count = 0;
  int grain = 1;
  int chunks = 0;

  alignas(128) std::atomic<uint64_t> state{0};
  struct alignas(128) Cursor {
    std::atomic<int> next{0};
    int end = 0;
  };
  std::unique_ptr<Cursor[]> cursors;
  alignas(128) std::atomic<bool> stop{false};

  std::mutex mutex;
  std::condition_variable wake;
  int sleepers = 0;  // guarded by mutex

  static uint32_t generation(uint64_t s) { return static_cast<uint32_t>(s >> 32); }
  static bool joinable(uint64_t s, uint32_t seen) {
    return (s & kOpen) != 0 && generation(s) != seen;
  }

  // Chunk claiming with affinity: the chunks are split into one contiguous range per worker;
  // each worker runs its own range first, then takes what is left of the others' ranges. A loop
  // over the same (count, grain) thus gives each worker the same chunks as last time (the solver
  // passes over a colour's rows, the narrow phase's pairs from step to step), so the rows and
  // pairs stay in that core's cache; a worker that is late or asleep has its range taken.
  void runChunks(int worker) {
    const bool inside = tInsideLoop;
    tInsideLoop = true;
    for (int i = 0; i < threads; ++i) {
      Cursor& c = cursors[(worker + i) % threads];
      for (;;) {
        const int k = c.next.fetch_add(1, std::memory_order_relaxed);
        if (k >= c.end) break;
        const int begin = k * grain;
        tWorker = worker;
        fn(begin, std::min(count, begin + grain), worker, context);
      }
    }
    tInsideLoop = inside;
  }

  void workerLoop(int worker) {
    uint32_t seen = 0;
    for (;;) {
      // Spin a little (loops come back to back inside a step), then yield, then sleep.
      uint64_t s = state.load(std::memory_order_acquire);
      for (int spin = 0; !joinable(s, seen) && spin < 4000; ++spin) {
        if (spin < 1000)
          cpuRelax();
        else
          std::this_thread::yield();
        s = state.load(std::memory_order_acquire);
      }
      if (!joinable(s, seen)) {
        std::unique_lock lock(mutex);
        ++sleepers;
        wake.wait(lock, [&] {
          return stop.load(std::memory_order_acquire) ||
                 joinable(state.load(std::memory_order_acquire), seen);
        });
        --sleepers;
        s = state.load(std::memory_order_acquire);
      }
      if (stop.load(std::memory_order_acquire)) return;
      // Join the loop if it is still open (a failed exchange re-reads the word and retries).
      while (joinable(s, seen) && !state.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel,
                                                               std::memory_order_acquire)) {
      }
      if (!joinable(s, seen)) continue;  // closed meanwhile: wait for the next one
      seen = generation(s);
      runChunks(worker);
      state.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
};

ThreadPool::ThreadPool(int threads) : state_(std::make_unique<State>()) {
  state_->threads = std::max(1, threads);
  state_->cursors = std::make_unique<State::Cursor[]>(static_cast<size_t>(state_->threads));
  for (int w = 1; w < state_->threads; ++w)
    state_->workers.emplace_back([s = state_.get(), w] { s->workerLoop(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(state_->mutex);
    state_->stop.store(true, std::memory_order_release);
  }
  state_->wake.notify_all();
  for (std::thread& t : state_->workers) t.join();
}

int ThreadPool::workerCount() const {
  return state_->threads;
}

void ThreadPool::parallelFor(int count, int grain, RangeFn fn, void* context) {
  if (count <= 0) return;
  grain = std::max(1, grain);
  State& s = *state_;
  if (s.threads <= 1 || count <= grain || tInsideLoop) {
    const bool inside = tInsideLoop;
    tInsideLoop = true;
    const int worker = inside ? tWorker : 0;
    for (int begin = 0; begin < count; begin += grain)
      fn(begin, std::min(count, begin + grain), worker, context);
    tInsideLoop = inside;
    return;
  }
  s.fn = fn;
  s.context = context;
  s.count = count;
  s.grain = grain;
  s.chunks = (count + grain - 1) / grain;
  for (int w = 0; w < s.threads; ++w) {
    const int first = static_cast<int>(static_cast<int64_t>(s.chunks) * w / s.threads);
    s.cursors[w].next.store(first, std::memory_order_relaxed);
    s.cursors[w].end = static_cast<int>(static_cast<int64_t>(s.chunks) * (w + 1) / s.threads);
  }
  // The last loop closed with nobody inside, so the word is (generation, closed, 0).
  const uint64_t generation = State::generation(s.state.load(std::memory_order_relaxed)) + 1u;
  s.state.store((static_cast<uint64_t>(generation & 0xffffffffu) << 32) | State::kOpen,
                std::memory_order_release);
  {
    // Taking the mutex orders this publication before any sleeper's predicate check.
    std::lock_guard lock(s.mutex);
    if (s.sleepers > 0) s.wake.notify_all();
  }
  s.runChunks(0);
  // Every chunk is taken; close the loop and wait for the workers still running one.
  uint64_t word = s.state.fetch_and(~State::kOpen, std::memory_order_acq_rel) & ~State::kOpen;
  for (int spin = 0; (word & State::kActive) != 0; ++spin) {
    if (spin < 1000)
      cpuRelax();
    else
      std::this_thread::yield();
    word = s.state.load(std::memory_order_acquire);
  }
}

int hardwareThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace tumble
