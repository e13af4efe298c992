#pragma once
// Shared by the benches: the thread's CPU clock and the wall clock (bullet_world.h has the Bullet
// world).
#include <ctime>

#include "tumble/math.h"

namespace tumble::bench {

/// Milliseconds of CPU time this thread has used (CLOCK_THREAD_CPUTIME_ID).
inline Real threadMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<Real>(ts.tv_sec) * 1e3 + static_cast<Real>(ts.tv_nsec) * 1e-6;
}

/// Milliseconds of wall-clock time (CLOCK_MONOTONIC): for steps that run on several threads.
inline Real wallMs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<Real>(ts.tv_sec) * 1e3 + static_cast<Real>(ts.tv_nsec) * 1e-6;
}

}  // namespace tumble::bench
