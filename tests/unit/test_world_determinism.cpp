// Determinism (bit-identical reruns, golden hash of `pile`) and the broad-phase against brute
// force throughout a simulation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "dynamics/world_internals.h"
#include "scene_fixtures.h"
#include "tumble/scene.h"
#include "world_fixtures.h"

using namespace tumble;
using namespace tumble::test;

TEST_CASE("the same scene twice gives bit-identical states after 600 steps", "[determinism]") {
  // A 300-box heap: big enough for islands, sleeping and warm starting to matter, small enough
  // for a Debug build.
  auto run = [] {
    std::vector<BodyDef> defs;
    appendHeap(defs, false, 120, 11);
    auto w = std::make_unique<World>(Settings{});
    for (const auto& d : defs) REQUIRE(w->createBody(d));
    std::vector<uint64_t> hashes;
    for (int i = 0; i < 600; ++i) {
      REQUIRE(w->step(w->settings().dt));
      if (i % 100 == 99) hashes.push_back(w->stateHash());
    }
    return std::make_pair(hashes, std::move(w));
  };
  auto [h1, w1] = run();
  auto [h2, w2] = run();
  CHECK(h1 == h2);
  // And body by body, bit for bit.
  for (BodyId id : w1->bodyIds()) {
    const BodyView a = *w1->body(id);
    const BodyView b = *w2->body(id);
    for (int k = 0; k < 3; ++k) {
      REQUIRE(std::memcmp(&a.centerOfMass[k], &b.centerOfMass[k], sizeof(Real)) == 0);
      REQUIRE(std::memcmp(&a.linearVelocity[k], &b.linearVelocity[k], sizeof(Real)) == 0);
    }
  }
  // The heap came to rest.
  CHECK(w1->stats().awakeBodies == 0);
}

TEST_CASE("golden hash of pile", "[determinism]") {
  // 60 steps of the default scene (the bodies are still falling, so every phase is exercised).
  // The value changes when any algorithm of the step changes on purpose (GJK, EPA, manifolds,
  // solver, islands): update it then, and say so in the commit. It must not change between
  // Debug and Release builds (-ffp-contract=off).
  auto w = loadAssetScene("pile.json");
  for (int i = 0; i < 60; ++i) REQUIRE(w->step(w->settings().dt));
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(w->stateHash()));
  CHECK(std::string(hex) == "650f77df38ea92f3");
}

TEST_CASE("contact pairs and manifolds index each other through a simulation and removals",
          "[determinism][contacts]") {
  // Every manifold is a pair with points, named by exactly one ContactPair, both arrays sorted by
  // (a, b); pairs without points have no manifold. Bodies are destroyed on the way, which removes
  // entries from the middle of both arrays.
  auto w = loadAssetScene("pile.json");
  int withPoints = 0, without = 0;
  for (int i = 0; i < 150; ++i) {
    REQUIRE(w->step(w->settings().dt));
    if (i % 30 == 29) {
      const std::vector<BodyId> ids = w->bodyIds();
      w->destroyBody(ids[ids.size() / 2]);
    }
    const std::vector<ContactPair>& pairs = w->contactPairs();
    const std::vector<Manifold>& manifolds = w->manifolds();
    std::vector<int> namedBy(manifolds.size(), 0);
    for (size_t k = 0; k < pairs.size(); ++k) {
      const ContactPair& p = pairs[k];
      REQUIRE(p.a.index < p.b.index);
      if (k > 0)
        REQUIRE(std::pair(pairs[k - 1].a.index, pairs[k - 1].b.index) <
                std::pair(p.a.index, p.b.index));
      if (p.manifold < 0) {
        ++without;
        continue;
      }
      ++withPoints;
      REQUIRE(p.manifold < static_cast<int>(manifolds.size()));
      const Manifold& m = manifolds[p.manifold];
      REQUIRE((m.a == p.a && m.b == p.b));
      REQUIRE(m.touching());
      ++namedBy[p.manifold];
    }
    for (int n : namedBy) REQUIRE(n == 1);
  }
  CHECK(withPoints > 1000);
  CHECK(without > 1000);
}

TEST_CASE("broad-phase pairs equal brute force throughout a simulation",
          "[determinism][broadphase]") {
  auto w = loadAssetScene("pile.json");
  int steps = 0, tightPairs = 0;
  for (int i = 0; i < 90; ++i, ++steps) {
    REQUIRE(w->step(w->settings().dt));
    const BroadPhase& bp = w->broadPhase();
    // Brute force over the live proxies' fat boxes, filtered like the world (a dynamic body in it).
    std::vector<int> proxies;
    for (BodyId id : w->bodyIds()) proxies.push_back(WorldInternals::body(*w, id).proxy);
    std::vector<ProxyPair> expected;
    for (size_t a = 0; a < proxies.size(); ++a)
      for (size_t b = a + 1; b < proxies.size(); ++b) {
        const int pa = std::min(proxies[a], proxies[b]), pb = std::max(proxies[a], proxies[b]);
        const BodyView ba = *w->body(w->idAt(bp.tree().userData(pa)));
        const BodyView bb = *w->body(w->idAt(bp.tree().userData(pb)));
        if (!ba.isDynamic() && !bb.isDynamic()) continue;
        if (bp.tree().fatAabb(pa).overlaps(bp.tree().fatAabb(pb))) expected.push_back({pa, pb});
      }
    std::sort(expected.begin(), expected.end());
    REQUIRE(bp.pairs() == expected);
    // Every touching manifold is a broad-phase pair.
    for (const Manifold& m : w->manifolds())
      if (m.touching()) {
        const int pa = WorldInternals::body(*w, m.a).proxy,
                  pb = WorldInternals::body(*w, m.b).proxy;
        REQUIRE(std::binary_search(expected.begin(), expected.end(),
                                   ProxyPair{std::min(pa, pb), std::max(pa, pb)}));
        ++tightPairs;
      }
  }
  CHECK(tightPairs > 100);
}
