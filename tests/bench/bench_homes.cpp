// Issue 18: why the solver gives each body a home worker (docs/ARCHITECTURE.md, "Threads"). A
// model of a row pass, without the engine: rows of four lanes (1344 bytes, about a WideContact)
// gather and scatter the 64-byte states of eight bodies each; the rows of each of 12 colours are
// split between the threads, and every colour ends at a barrier. With two threads the bodies a
// thread's rows touch are
//   runs:        its own half of the states, one run of memory (what the solver's homes give);
//   interleaved: its own half, but every other state (the same ownership, other addresses);
//   none:        any state (rows and bodies unrelated, as before homes).
// Prints nanoseconds per row (each thread's time inside its rows over its rows) for one thread
// and for two threads in each layout. Usage: bench_homes [ROWS] [PASSES] (defaults 1200, 5000).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kLanes = 4;
constexpr int kColors = 12;
constexpr int kStates = 2000;
constexpr int kWords = 328;  // floats per row after the indices: 1344 bytes a row

struct Row {
  int a[kLanes], b[kLanes];
  float f[kWords];
};
struct alignas(64) State {
  float s[16];
};

enum class Layout { Runs, Interleaved, None };

struct Model {
  std::vector<Row> rows;
  std::vector<State> states;
  alignas(128) std::atomic<int> done{0};
};

// A state of `home` (of `homes`) in the layout, from a random draw r.
int stateOf(Layout layout, int home, int homes, uint32_t r) {
  const int per = kStates / homes;
  switch (layout) {
    case Layout::Runs:
      return home * per + static_cast<int>(r % static_cast<uint32_t>(per));
    case Layout::Interleaved:
      return static_cast<int>(r % static_cast<uint32_t>(per)) * homes + home;
    case Layout::None:
      break;
  }
  return static_cast<int>(r % kStates);
}

void build(Model& m, int rowCount, int homes, Layout layout) {
  m.rows.assign(static_cast<size_t>(rowCount), Row{});
  m.states.assign(kStates, State{});
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  const int per = rowCount / kColors;
  for (int r = 0; r < rowCount; ++r) {
    const int k = r % per;
    const int home = std::min(homes - 1, k * homes / per);
    Row& row = m.rows[static_cast<size_t>(r)];
    for (int l = 0; l < kLanes; ++l) {
      row.a[l] = stateOf(layout, home, homes, next());
      row.b[l] = stateOf(layout, home, homes, next());
    }
    for (float& x : row.f) x = 1.0f;
  }
}

// One thread's passes: its share of every colour's rows, then the colour's barrier. Returns the
// time inside its rows in ns.
double run(Model& m, int thread, int threads, int passes) {
  const int per = static_cast<int>(m.rows.size()) / kColors;
  double inside = 0.0;
  for (int p = 0; p < passes; ++p) {
    for (int c = 0; c < kColors; ++c) {
      const int from = c * per + per * thread / threads;
      const int to = c * per + per * (thread + 1) / threads;
      const auto t0 = std::chrono::steady_clock::now();
      for (int r = from; r < to; ++r) {
        Row& row = m.rows[static_cast<size_t>(r)];
        float ga[kLanes], gb[kLanes], sum = 0.0f;
        for (int l = 0; l < kLanes; ++l) {
          ga[l] = m.states[static_cast<size_t>(row.a[l])].s[l];
          gb[l] = m.states[static_cast<size_t>(row.b[l])].s[l];
        }
        // Every line of the row is read (16 floats a line), as a pass reads its row.
        for (int k = 0; k < kWords; k += 4) {
          const int l = (k / 4) % kLanes;
          sum += row.f[k] * ga[l] - gb[l];
        }
        for (int k = 0; k < kWords; k += 16) row.f[k] += 1e-9f * sum;
        for (int l = 0; l < kLanes; ++l) {
          m.states[static_cast<size_t>(row.a[l])].s[l] = ga[l] + 1e-9f * sum;
          m.states[static_cast<size_t>(row.b[l])].s[l] = gb[l] - 1e-9f * sum;
        }
      }
      inside +=
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (threads > 1) {
        const int target = (p * kColors + c + 1) * threads;
        m.done.fetch_add(1, std::memory_order_acq_rel);
        while (m.done.load(std::memory_order_acquire) < target) std::this_thread::yield();
      }
    }
  }
  return inside;
}

double nsPerRow(int rowCount, int threads, Layout layout, int passes) {
  Model m;
  build(m, rowCount, threads, layout);
  std::vector<double> inside(static_cast<size_t>(threads), 0.0);
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t)
    workers.emplace_back([&, t] { inside[static_cast<size_t>(t)] = run(m, t, threads, passes); });
  inside[0] = run(m, 0, threads, passes);
  for (std::thread& w : workers) w.join();
  double worst = 0.0;
  for (double x : inside) worst = std::max(worst, x);
  return worst / (static_cast<double>(passes) * rowCount / threads);
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 1200;
  const int passes = argc > 2 ? std::atoi(argv[2]) : 5000;
  if (rows < kColors * 2 || passes < 1) {
    std::fprintf(stderr, "usage: bench_homes [ROWS >= %d] [PASSES >= 1]\n", kColors * 2);
    return 2;
  }
  std::printf("%d rows of %d lanes in %d colours, %d passes; ns per row (the slower thread)\n",
              rows, kLanes, kColors, passes);
  std::printf("%-26s %8.1f\n", "1 thread", nsPerRow(rows, 1, Layout::Runs, passes));
  std::printf("%-26s %8.1f\n", "2 threads, homes in runs", nsPerRow(rows, 2, Layout::Runs, passes));
  std::printf("%-26s %8.1f\n", "2 threads, interleaved",
              nsPerRow(rows, 2, Layout::Interleaved, passes));
  std::printf("%-26s %8.1f\n", "2 threads, no homes", nsPerRow(rows, 2, Layout::None, passes));
  return 0;
}
