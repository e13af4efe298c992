// Random edits of a running world for the long run (sim_churn.h), and memory figures.
#include "sim_churn.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace tumble::cli {
namespace {

// Keys changed at random and the part of their range used: wide enough to change the solve,
// narrow enough that the pile stays a pile.
struct ChurnKey {
  const char* key;
  Real lo;
  Real hi;
  bool integer;
};
constexpr ChurnKey kKeys[] = {
    {"solver.substeps", 1, 8, true},
    {"solver.velocity_iterations", 1, 4, true},
    {"solver.position_iterations", 0, 3, true},
    {"contact.hertz", 15, 120, false},
    {"contact.damping_ratio", 1, 20, false},
    {"contact.push_velocity", 0.5, 5, false},
    {"contact.speculative_margin", 0.005, 0.05, false},
    {"contact.recycle_distance", 0, 0.05, false},
    {"broadphase.aabb_margin", 0.02, 0.2, false},
    {"sleep.linear", 0.01, 0.1, false},
    {"sleep.angular", 0.01, 0.1, false},
    {"sleep.time", 0.1, 2.0, false},
    {"solver.warm_starting", 0, 1, true},
    {"sleep.enabled", 0, 1, true},
    {"crosscheck", 0, 1, true},
};

}  // namespace

Churn::Churn(uint64_t seed, const Scene& scene) : rng_(seed) {
  for (const BodyDef& def : scene.bodies)
    if (def.type == BodyType::Dynamic) templates_.push_back(def);
  stepsPerSecond_ = std::max(1L, std::lround(1.0 / scene.settings.dt));
}

Real Churn::uniform(Real lo, Real hi) {
  return lo + (hi - lo) * static_cast<Real>(rng_() >> 11) * (1.0 / 9007199254740992.0);
}

Expected<void> Churn::apply(World& world, long step) {
  if (step == 0 || step % stepsPerSecond_ != 0) return tumble::ok();
  const int count = 1 + static_cast<int>(rng_() % 5);
  std::vector<BodyId> dynamic;
  for (BodyId id : world.bodyIds())
    if (world.body(id)->isDynamic()) dynamic.push_back(id);
  for (int i = 0; i < count && !dynamic.empty(); ++i) {
    const size_t k = rng_() % dynamic.size();
    world.destroyBody(dynamic[k]);
    dynamic.erase(dynamic.begin() + static_cast<long>(k));
    ++removed_;
  }
  for (int i = 0; i < count && !templates_.empty(); ++i) {
    BodyDef def = templates_[rng_() % templates_.size()];
    def.position = Vec3(uniform(-3.0, 3.0), uniform(5.0, 7.0), uniform(-3.0, 3.0));
    // Uniform random rotation (Shoemake, Graphics Gems III).
    const Real u1 = uniform(0.0, 1.0), u2 = uniform(0.0, 2.0 * std::numbers::pi),
               u3 = uniform(0.0, 2.0 * std::numbers::pi);
    def.orientation = Quat(std::sqrt(u1) * std::cos(u3), std::sqrt(1.0 - u1) * std::sin(u2),
                           std::sqrt(1.0 - u1) * std::cos(u2), std::sqrt(u1) * std::sin(u3));
    def.linearVelocity = Vec3(0.0);
    def.angularVelocity = Vec3(0.0);
    auto id = world.createBody(def);
    if (!id)
      return Expected<void>::failure("churn: step " + std::to_string(step) + ": " + id.error());
    ++added_;
  }
  if (step % (10 * stepsPerSecond_) == 0) {
    const ChurnKey& c = kKeys[rng_() % std::size(kKeys)];
    std::string value;
    if (std::string_view(c.key) == "crosscheck")
      value = rng_() % 2 ? "sample" : "off";
    else if (c.integer)
      value = std::to_string(static_cast<long>(std::floor(uniform(c.lo, c.hi + 1.0 - 1e-9))));
    else
      value = std::to_string(uniform(c.lo, c.hi));
    if (auto err = world.setSetting(c.key, value); !err)
      return Expected<void>::failure("churn: " + err.error());
    ++settingsChanged_;
  }
  return tumble::ok();
}

long currentRssKb() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long pages = 0, resident = 0;
  const int n = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return n == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

long peakRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  // The kernel updates the high-water mark lazily; it is never below what is resident now.
  return std::max(u.ru_maxrss, currentRssKb());
}

}  // namespace tumble::cli
