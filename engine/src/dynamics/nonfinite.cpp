// Numeric safety (nonfinite.h): find bodies whose state is not finite, so the World removes them
// before a NaN spreads through contacts.
//
// The World tests every live body at the end of each step (and at the start of one after a call
// that counted an edit: World::editCount) and removes what these functions find at once, before
// the value can reach a neighbour through a contact or the broad-phase tree. A value injected
// through the public API (a NaN velocity) is caught at the start of the next step; one the solver
// makes is caught at the end of its step. Removal, not freezing: a non-finite pose has no place to
// freeze the body at.
#include "tumble/nonfinite.h"

#include <atomic>
#include <cmath>

namespace tumble {
namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

const char* firstNonFinite(const Body& b) {
  if (!finite(b.center)) return "position";
  if (!std::isfinite(b.rotation.w) || !std::isfinite(b.rotation.x) ||
      !std::isfinite(b.rotation.y) || !std::isfinite(b.rotation.z))
    return "orientation";
  if (!finite(b.linearVelocity)) return "linear_velocity";
  if (!finite(b.angularVelocity)) return "angular_velocity";
  if (!finite(b.force)) return "force";
  if (!finite(b.torque)) return "torque";
  return nullptr;
}

namespace {

// One pass over the bodies from index `from` on: `visit` on every slot (it may change the body),
// then the test on the live ones, in index order.
template <class Bodies, class Visit>
std::vector<int> scan(Bodies& bodies, int64_t step, std::vector<NonFiniteEvent>& events,
                      Visit&& visit, size_t from = 0) {
  std::vector<int> bad;
  for (size_t i = from; i < bodies.size(); ++i) {
    auto& b = bodies[i];
    visit(b);
    if (!b.alive) continue;
    if (const char* what = firstNonFinite(b)) {
      events.push_back({BodyId{static_cast<int>(i), b.generation}, step, what});
      bad.push_back(static_cast<int>(i));
    }
  }
  return bad;
}

}  // namespace

std::vector<int> findNonFinite(const std::vector<Body>& bodies, int64_t step,
                               std::vector<NonFiniteEvent>& events) {
  return scan(bodies, step, events, [](const Body&) {});
}

std::vector<int> clearForcesFindNonFinite(std::vector<Body>& bodies, int64_t step,
                                          std::vector<NonFiniteEvent>& events, TaskSystem* tasks) {
  auto clear = [](Body& b) {
    b.force = Vec3(0.0);
    b.torque = Vec3(0.0);
  };
  if (!tasks || tasks->workerCount() <= 1) return scan(bodies, step, events, clear);
  // With threads: the bodies cleared and tested in parallel chunks, each chunk that finds a body
  // not finite lowering the first such chunk's index (a minimum: the same in any order); then the
  // serial scan from that chunk on makes the events and indices in index order (on all but a bad
  // step there is none, and nothing more is read).
  constexpr int kGrain = 1024;
  const int n = static_cast<int>(bodies.size());
  const int chunks = (n + kGrain - 1) / kGrain;
  std::atomic<int> firstBad{chunks};
  parallelFor(tasks, n, kGrain, [&](int begin, int end, int) {
    bool bad = false;
    for (int i = begin; i < end; ++i) {
      Body& b = bodies[static_cast<size_t>(i)];
      clear(b);
      bad = bad || (b.alive && firstNonFinite(b) != nullptr);
    }
    const int chunk = begin / kGrain;
    for (int seen = firstBad.load(std::memory_order_relaxed);
         bad && chunk < seen &&
         !firstBad.compare_exchange_weak(seen, chunk, std::memory_order_relaxed);) {
    }
  });
  const int from = firstBad.load(std::memory_order_relaxed);
  if (from == chunks) return {};
  return scan(
      bodies, step, events, [](const Body&) {}, static_cast<size_t>(from) * kGrain);
}

}  // namespace tumble
