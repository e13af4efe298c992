// A step allocates nothing once the world has grown: every per-step array (pairs, manifolds,
// solver rows, islands, sleep lists) is kept and reused. Counted by replacing the global
// operator new in this test executable only.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "tumble/scene.h"
#include "world_fixtures.h"

namespace {
std::atomic<long> gNews{0};
}  // namespace

// These replace the global allocator on purpose (malloc under new, free under delete): GCC sees
// a delete of memory from new inlined to free() and would warn of a mismatch.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

void* operator new(std::size_t size) {
  ++gNews;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  ++gNews;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too: std::stable_sort's buffer comes from new(nothrow) and goes back through
// plain delete, so every form must share one pair of functions (ASan checks the pairing).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  ++gNews;
  return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  ++gNews;
  return std::malloc(size ? size : 1);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

using namespace tumble;
using namespace tumble::test;

namespace {

// Steps `w` `n` times and returns how many allocations the steps made.
long allocationsIn(World& w, int n, Real dt = 1.0 / 60.0) {
  long count = 0;
  for (int i = 0; i < n; ++i) {
    const long before = gNews.load();
    const bool ok = w.step(dt).ok();
    count += gNews.load() - before;
    REQUIRE(ok);  // outside the counted span: Catch may allocate
  }
  return count;
}

}  // namespace

TEST_CASE("the counter sees allocations", "[allocation]") {
  const long before = gNews.load();
  auto* p = new std::vector<int>(100);
  delete p;
  CHECK(gNews.load() - before == 2);
}

TEST_CASE("a settled, awake pyramid steps without allocating", "[allocation]") {
  // Sleeping off: every body is solved every step, all contacts are live.
  World w;
  addGround(w, 30.0);
  for (int row = 0; row < 8; ++row)
    for (int i = 0; i < 8 - row; ++i)
      addBox(w, Vec3(1.05 * (i - 0.5 * (7 - row)), 0.5 + 1.0 * row, 0.0));
  editSettings(w, [](Settings& s) { s.sleep.enabled = false; });
  allocationsIn(w, 240);  // grows: pairs, manifolds, solver rows
  CHECK(allocationsIn(w, 120) == 0);
  CHECK(w.stats().awakeBodies == 36);
}

TEST_CASE("a heap falling asleep and woken again steps without allocating", "[allocation]") {
  // Islands form, fall asleep, and are woken by a box dropped on them: the island lists live in
  // the bodies, the union-find arrays are kept.
  World w;
  addGround(w, 30.0);
  std::vector<BodyDef> defs;
  appendHeap(defs, false, 40, 7);
  for (const BodyDef& d : defs) REQUIRE(w.createBody(d));
  allocationsIn(w, 60);
  // A first run to rest and a wake-up grow every array to its working size.
  int steps = 0;
  while (w.stats().awakeBodies > 0 && steps < 1200) allocationsIn(w, 1), ++steps;
  REQUIRE(w.stats().awakeBodies == 0);
  for (BodyId id : w.bodyIds()) w.wake(id);
  CHECK(allocationsIn(w, 600) == 0);
  CHECK(w.stats().awakeBodies == 0);  // it fell asleep again within those steps
}

TEST_CASE("a bridge on hinges with boxes on it steps without allocating", "[allocation][joints]") {
  auto scene = loadScene(std::string(TUMBLE_SOURCE_DIR) + "/assets/scenes/bridge.json");
  REQUIRE(scene);
  auto built = buildWorld(*scene);
  REQUIRE(built);
  World& w = **built;
  allocationsIn(w, 600);  // grows while the boxes land and settle: pairs, manifolds, rows, joints
  // The bridge never rests: its contacts take colours they had not used before long after the
  // boxes have landed (steps 719 and 1917 of one trajectory), which allocated until every colour
  // took room for all the constraints at once (ConstraintGraph::build).
  CHECK(allocationsIn(w, 1400) == 0);
}
