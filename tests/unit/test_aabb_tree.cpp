// The dynamic AABB tree and broad-phase against the O(n^2) loop on random moving sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "random.h"
#include "tumble/aabb_tree.h"
#include "tumble/task.h"

using namespace tumble;
using tumble::test::uniform;

namespace {

Aabb boxAt(const Vec3& c, const Vec3& h) {
  return {c - h, c + h};
}

std::vector<ProxyPair> bruteForce(const AabbTree& tree, const std::vector<int>& proxies) {
  std::vector<ProxyPair> out;
  for (size_t i = 0; i < proxies.size(); ++i)
    for (size_t j = i + 1; j < proxies.size(); ++j) {
      const int a = std::min(proxies[i], proxies[j]), b = std::max(proxies[i], proxies[j]);
      if (tree.fatAabb(a).overlaps(tree.fatAabb(b))) out.push_back({a, b});
    }
  std::sort(out.begin(), out.end());
  return out;
}

// A box moving in a straight line, bouncing off the walls of [-extent, extent]^3.
struct Mover {
  Vec3 c, h, v;
  int proxy = 0;
};

Mover randomMover(std::mt19937_64& rng, Real extent) {
  Mover m;
  m.c = Vec3(uniform(rng, -extent, extent), uniform(rng, -extent, extent),
             uniform(rng, -extent, extent));
  m.h = Vec3(uniform(rng, 0.1, 1.0), uniform(rng, 0.1, 1.0), uniform(rng, 0.1, 1.0));
  m.v = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)) * 0.1;
  return m;
}

void advance(Mover& m, Real extent) {
  m.c += m.v;
  for (int k = 0; k < 3; ++k)
    if (std::abs(m.c[k]) > extent) m.v[k] = -m.v[k];
}

}  // namespace

TEST_CASE("broad-phase pairs equal brute force on random moving sets", "[aabb_tree]") {
  std::mt19937_64 rng(12345);
  const Real margin = 0.1;
  using Item = Mover;
  std::vector<Item> items;
  BroadPhase bp;
  for (int i = 0; i < 300; ++i) {
    Item it = randomMover(rng, 10);
    it.proxy = bp.createProxy(boxAt(it.c, it.h), margin, i);
    items.push_back(it);
  }
  size_t totalPairs = 0, totalTight = 0;
  int frames = 0;
  for (int frame = 0; frame < 120; ++frame, ++frames) {
    for (Item& it : items) {
      advance(it, 10);
      // Odd proxies stretch their fat box ahead of their motion, as the world's bodies do.
      bp.moveProxy(it.proxy, boxAt(it.c, it.h), margin, it.proxy % 2 ? 3.0 * it.v : Vec3(0.0));
    }
    // Churn: every 10 frames destroy and recreate a few proxies.
    if (frame % 10 == 5) {
      for (int k = 0; k < 5; ++k) {
        Item& it = items[rng() % items.size()];
        bp.destroyProxy(it.proxy);
        it.proxy = bp.createProxy(boxAt(it.c, it.h), margin, 0);
      }
    }
    const auto& pairs = bp.updatePairs([](int, int) { return true; });
    std::vector<int> proxies;
    for (const Item& it : items) proxies.push_back(it.proxy);
    const auto expected = bruteForce(bp.tree(), proxies);
    REQUIRE(pairs == expected);
    REQUIRE(std::string(bp.tree().validate()).empty());
    // Every pair of overlapping tight boxes is reported.
    for (size_t i = 0; i < items.size(); ++i)
      for (size_t j = i + 1; j < items.size(); ++j)
        if (boxAt(items[i].c, items[i].h).overlaps(boxAt(items[j].c, items[j].h))) {
          const ProxyPair p{std::min(items[i].proxy, items[j].proxy),
                            std::max(items[i].proxy, items[j].proxy)};
          REQUIRE(std::binary_search(pairs.begin(), pairs.end(), p));
          ++totalTight;
        }
    totalPairs += pairs.size();
    REQUIRE(bp.tree().allOverlappingPairs() == expected);
  }
  // The mix is representative: a few hundred pairs a frame, not none and not all.
  CHECK(totalPairs / frames > 20);
  CHECK(totalPairs / frames < 2000);
  CHECK(totalTight > 0);
}

// The threaded path (the key space cut into ranges at quantiles of the old pairs, each range
// merged on its own) gives the serial path's list at every frame: dense enough for a dozen
// ranges, every proxy moving, a filter, churn.
TEST_CASE("broad-phase pairs with threads equal the serial path's and brute force", "[aabb_tree]") {
  std::mt19937_64 rng(777);
  const Real margin = 0.1;
  struct Item : Mover {
    int threadedProxy = 0;
  };
  std::vector<Item> items;
  BroadPhase serial, threaded;
  ThreadPool pool(3);
  for (int i = 0; i < 2000; ++i) {
    Item it;
    static_cast<Mover&>(it) = randomMover(rng, 8);
    it.proxy = serial.createProxy(boxAt(it.c, it.h), margin, i);
    it.threadedProxy = threaded.createProxy(boxAt(it.c, it.h), margin, i);
    items.push_back(it);
  }
  auto canPair = [](int a, int b) { return (a + b) % 7 != 0; };
  size_t most = 0;
  for (int frame = 0; frame < 40; ++frame) {
    for (Item& it : items) {
      advance(it, 8);
      serial.moveProxy(it.proxy, boxAt(it.c, it.h), margin, 3.0 * it.v);
      threaded.moveProxy(it.threadedProxy, boxAt(it.c, it.h), margin, 3.0 * it.v);
    }
    if (frame % 10 == 5)
      for (int k = 0; k < 20; ++k) {
        Item& it = items[rng() % items.size()];
        serial.destroyProxy(it.proxy);
        threaded.destroyProxy(it.threadedProxy);
        it.proxy = serial.createProxy(boxAt(it.c, it.h), margin, 0);
        it.threadedProxy = threaded.createProxy(boxAt(it.c, it.h), margin, 0);
      }
    const auto& expected = serial.updatePairs(canPair);
    const auto& pairs = threaded.updatePairs(canPair, &pool);
    REQUIRE(pairs == expected);
    most = std::max(most, pairs.size());
    if (frame % 10 == 0) {
      std::vector<int> proxies;
      for (const Item& it : items) proxies.push_back(it.proxy);
      auto brute = bruteForce(serial.tree(), proxies);
      std::erase_if(brute, [&](const ProxyPair& p) { return !canPair(p.first, p.second); });
      REQUIRE(expected == brute);
    }
  }
  // Enough pairs for the most ranges the threaded path cuts (512 pairs a range, 4 per worker).
  CHECK(most > 12 * 512);
}

TEST_CASE("tree queries and ray casts match brute force", "[aabb_tree]") {
  std::mt19937_64 rng(777);
  AabbTree tree;
  std::vector<int> proxies;
  for (int i = 0; i < 500; ++i) {
    const Vec3 c(uniform(rng, -20, 20), uniform(rng, -20, 20), uniform(rng, -20, 20));
    const Vec3 h(uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5));
    proxies.push_back(tree.createProxy(boxAt(c, h), 0.0, i));
  }
  REQUIRE(std::string(tree.validate()).empty());
  // Rotations keep the tree shallow: well below the 500 of a list.
  CHECK(tree.height() < 40);
  int hitsSeen = 0;
  for (int q = 0; q < 200; ++q) {
    const Aabb box =
        boxAt(Vec3(uniform(rng, -20, 20), uniform(rng, -20, 20), uniform(rng, -20, 20)),
              Vec3(uniform(rng, 0.5, 4), uniform(rng, 0.5, 4), uniform(rng, 0.5, 4)));
    std::vector<int> got;
    tree.query(box, [&](int p) {
      got.push_back(p);
      return true;
    });
    std::vector<int> want;
    for (int p : proxies)
      if (tree.fatAabb(p).overlaps(box)) want.push_back(p);
    std::sort(got.begin(), got.end());
    REQUIRE(got == want);
    hitsSeen += static_cast<int>(got.size());
  }
  CHECK(hitsSeen > 50);
  // Ray casts: the nearest box entry found through the tree equals the brute-force one.
  auto entry = [](const Aabb& b, const RayInput& r) {
    Real tmin = 0.0, tmax = r.maxFraction;
    for (int k = 0; k < 3; ++k) {
      Real t1 = (b.lower[k] - r.origin[k]) / r.direction[k];
      Real t2 = (b.upper[k] - r.origin[k]) / r.direction[k];
      if (t1 > t2) std::swap(t1, t2);
      tmin = std::max(tmin, t1);
      tmax = std::min(tmax, t2);
    }
    return tmin <= tmax ? tmin : -1.0;
  };
  int rayHits = 0;
  for (int q = 0; q < 200; ++q) {
    RayInput ray;
    ray.origin = Vec3(uniform(rng, -30, 30), uniform(rng, -30, 30), uniform(rng, -30, 30));
    ray.direction = Vec3(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)) * 60.0;
    ray.maxFraction = 1.0;
    Real best = 2.0;
    tree.rayCast(ray, [&](const RayInput& r, int p) {
      const Real t = entry(tree.fatAabb(p), r);
      if (t >= 0.0 && t < best) best = t;
      return t >= 0.0 ? t : r.maxFraction;
    });
    Real want = 2.0;
    for (int p : proxies) {
      const Real t = entry(tree.fatAabb(p), ray);
      if (t >= 0.0 && t < want) want = t;
    }
    REQUIRE_THAT(best, Catch::Matchers::WithinAbs(want, 1e-12));
    if (want < 2.0) ++rayHits;
  }
  CHECK(rayHits > 20);
  CHECK(rayHits < 200);
  // Removing everything leaves an empty, valid tree.
  for (int p : proxies) tree.destroyProxy(p);
  CHECK(tree.proxyCount() == 0);
  CHECK(tree.height() == -1);
  CHECK(std::string(tree.validate()).empty());
}

TEST_CASE("moving within the fat box keeps the leaf", "[aabb_tree]") {
  AabbTree tree;
  const int p = tree.createProxy(boxAt(Vec3(0), Vec3(1)), 0.1, 0);
  CHECK_FALSE(tree.moveProxy(p, boxAt(Vec3(0.05, 0, 0), Vec3(1)), 0.1));
  CHECK(tree.moveProxy(p, boxAt(Vec3(0.2, 0, 0), Vec3(1)), 0.1));
  CHECK_THAT(tree.fatAabb(p).lower.x, Catch::Matchers::WithinAbs(-0.9, 1e-12));
}

TEST_CASE("a reinserted fat box is stretched ahead of the motion on its side only", "[aabb_tree]") {
  AabbTree tree;
  const int p = tree.createProxy(boxAt(Vec3(0), Vec3(1)), 0.1, 0);
  CHECK(tree.moveProxy(p, boxAt(Vec3(0.5, 0, 0), Vec3(1)), 0.1, Vec3(0.3, -0.2, 0.0)));
  const Aabb fat = tree.fatAabb(p);
  using Catch::Matchers::WithinAbs;
  CHECK_THAT(fat.upper.x, WithinAbs(1.5 + 0.1 + 0.3, 1e-12));
  CHECK_THAT(fat.lower.x, WithinAbs(-0.5 - 0.1, 1e-12));
  CHECK_THAT(fat.lower.y, WithinAbs(-1.0 - 0.1 - 0.2, 1e-12));
  CHECK_THAT(fat.upper.y, WithinAbs(1.0 + 0.1, 1e-12));
  CHECK_THAT(fat.lower.z, WithinAbs(-1.1, 1e-12));
  CHECK_THAT(fat.upper.z, WithinAbs(1.1, 1e-12));
  // Moving on inside the stretched box keeps the leaf.
  CHECK_FALSE(tree.moveProxy(p, boxAt(Vec3(0.75, -0.15, 0), Vec3(1)), 0.1, Vec3(0.3, -0.2, 0.0)));
  CHECK(std::string(tree.validate()).empty());
}
