#pragma once
/// The task system the engine hands its parallel loops to (issue 18).
///
/// A World runs every parallel phase of a step as `parallelFor` calls over index ranges. The
/// engine writes each index's result to its own slot and merges the slots in index order after
/// the loop, so the result never depends on how the range is split, which worker takes which
/// chunk, or how many workers there are: the same scene gives the same bits at any thread count.
///
/// A game may plug its own scheduler (Jolt's JobSystem, Box2D's enqueueTask/finishTask) by
/// implementing TaskSystem and passing it to World::setTaskSystem; otherwise a World makes a
/// ThreadPool of `threads` workers (the setting). Requirements on an implementation:
///  - parallelFor returns only when fn has run over every index of [0, count) exactly once;
///  - the chunks passed to fn are [k grain, min((k + 1) grain, count)) for some k (any order, any
///    worker), and concurrent calls of fn get distinct `worker` values in [0, workerCount());
///  - fn may be run on the calling thread. The engine never calls parallelFor from inside fn
///    (ThreadPool runs such a call inline, on the calling chunk's worker).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace tumble {

class TaskSystem {
 public:
  using RangeFn = void (*)(int begin, int end, int worker, void* context);

  virtual ~TaskSystem() = default;
  /// Workers that may run chunks at once, the calling thread included (>= 1).
  virtual int workerCount() const = 0;
  /// Runs fn over [0, count) in chunks of `grain` indices (the last may be shorter).
  virtual void parallelFor(int count, int grain, RangeFn fn, void* context) = 0;
};

/// Runs f(begin, end, worker) over [0, count) in chunks of grain on `tasks` (chunk by chunk on
/// the calling thread when tasks is null or has one worker).
template <class F>
void parallelFor(TaskSystem* tasks, int count, int grain, F&& f) {
  if (count <= 0) return;
  if (grain < 1) grain = 1;
  if (!tasks || tasks->workerCount() <= 1) {
    for (int begin = 0; begin < count; begin += grain) f(begin, std::min(count, begin + grain), 0);
    return;
  }
  using Fn = std::remove_reference_t<F>;
  tasks->parallelFor(
      count, grain,
      [](int begin, int end, int worker, void* context) {
        (*static_cast<Fn*>(context))(begin, end, worker);
      },
      const_cast<void*>(static_cast<const void*>(&f)));
}

/// The default task system: threads - 1 worker threads plus the calling thread (threads >= 1).
///
/// Why our own pool and not oneTBB (Debian's libtbb-dev): a step makes a few hundred short
/// parallel loops (a solver pass per constraint colour, per substep), each 10-200 us, so the
/// cost that matters is waking the workers for each loop; this pool's workers spin briefly
/// between loops (yielding, so an oversubscribed machine still makes progress) and sleep on a
/// condition variable between steps. The chunking is fixed by (count, grain), which the engine
/// relies on for determinism; TBB's auto partitioner would split by load. And the engine stays
/// free of a dependency a game may not want (a game with TBB plugs it in through TaskSystem).
class ThreadPool final : public TaskSystem {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool() override;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int workerCount() const override;
  void parallelFor(int count, int grain, RangeFn fn, void* context) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The thread count `threads = 0` means: the hardware's (at least 1).
int hardwareThreads();

}  // namespace tumble
