// The task system (tumble/task.h): every index exactly once, chunks as promised, worker ids in
// range and never shared by two chunks at once, nested loops inline; the threads setting.
#include <atomic>
#include <catch2/catch.hpp>
#include <vector>

#include "tumble/task.h"
#include "tumble/world.h"

using namespace tumble;

TEST_CASE("ThreadPool runs every index of a loop exactly once, in the promised chunks") {
  for (int threads : {1, 2, 3, 4, 8}) {
    ThreadPool pool(threads);
    REQUIRE(pool.workerCount() == threads);
    for (int count : {0, 1, 2, 7, 64, 1000, 4099}) {
      for (int grain : {1, 3, 64, 5000}) {
        std::vector<std::atomic<int>> hits(static_cast<size_t>(count));
        std::vector<std::atomic<int>> busy(static_cast<size_t>(threads));
        std::atomic<int> badChunk{0}, badWorker{0}, shared{0};
        parallelFor(&pool, count, grain, [&](int begin, int end, int worker) {
          if (worker < 0 || worker >= threads) {
            ++badWorker;
            return;
          }
          if (busy[static_cast<size_t>(worker)].fetch_add(1) != 0) ++shared;
          if (begin % grain != 0 || end != std::min(count, begin + grain)) ++badChunk;
          for (int i = begin; i < end; ++i) ++hits[static_cast<size_t>(i)];
          busy[static_cast<size_t>(worker)].fetch_sub(1);
        });
        CHECK(badWorker == 0);
        CHECK(badChunk == 0);
        CHECK(shared == 0);
        int wrong = 0;
        for (auto& h : hits) wrong += h.load() != 1;
        CHECK(wrong == 0);
      }
    }
  }
}

TEST_CASE("ThreadPool takes back-to-back loops and nested loops") {
  ThreadPool pool(4);
  std::vector<long long> sums(100, 0);
  for (int loop = 0; loop < 2000; ++loop) {
    std::vector<int> out(257, 0);
    parallelFor(&pool, 257, 8, [&](int begin, int end, int) {
      for (int i = begin; i < end; ++i) out[static_cast<size_t>(i)] = i * loop;
    });
    long long s = 0;
    for (int v : out) s += v;
    REQUIRE(s == 257LL * 256 / 2 * loop);
  }
  // A loop inside a chunk runs inline on that chunk's worker. (Counted, not CHECKed, inside the
  // loop: Catch2 is not thread-safe, and ThreadSanitizer reports its assertion counter.)
  std::vector<std::atomic<int>> hits(64 * 64);
  std::atomic<int> otherWorker{0};
  parallelFor(&pool, 64, 4, [&](int begin, int end, int worker) {
    for (int i = begin; i < end; ++i)
      parallelFor(&pool, 64, 4, [&](int b2, int e2, int inner) {
        if (inner != worker) ++otherWorker;
        for (int j = b2; j < e2; ++j) ++hits[static_cast<size_t>(i * 64 + j)];
      });
  });
  CHECK(otherWorker == 0);
  int wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  CHECK(wrong == 0);
}

TEST_CASE("The threads setting is validated and changes no physics state") {
  Settings s;
  CHECK(setSetting(s, "threads", "4"));
  CHECK(s.threads == 4);
  const Expected<void> bad = setSetting(s, "threads", "-1");
  REQUIRE(!bad);
  CHECK(bad.error().find("threads") != std::string::npos);
  World world{Settings{}};
  const uint64_t edits = world.editCount();
  REQUIRE(world.setSetting("threads", "2"));
  CHECK(world.editCount() == edits);  // the thread count is not an edit of the world
}
