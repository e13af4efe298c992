// The cost of BodyDef::bullet (issue 16), printed, never asserted: the 1000-box heap
// (assets/scenes/heap_boxes_1000.json) with N spheres of radius 0.1 m (1 kg) fired down into it
// at 150 m/s from a 10 x 10 m square 12 m up, once with the bullet flag and once without, and
// the heap alone. 120 steps of 1/60 s (the spheres arrive in the first few and then lie in the
// heap); thread CPU time; each step's least time over TUMBLE_BENCH_REPEATS runs (default 3); the
// mean ms per step, and the flag's extra time over the same spheres without it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace {

using tumble::Real;
using tumble::Vec3;

constexpr int kSteps = 120;
constexpr Real kRadius = 0.1;
constexpr Real kSpeed = 150.0;

std::vector<Real> run(int bullets, bool flag) {
  const std::filesystem::path file =
      std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets" / "scenes" / "heap_boxes_1000.json";
  auto scene = tumble::loadScene(file);
  if (!scene) {
    std::fprintf(stderr, "bench_bullets: %s\n", scene.error().c_str());
    std::exit(1);
  }
  auto made = tumble::buildWorld(*scene);
  if (!made) {
    std::fprintf(stderr, "bench_bullets: %s\n", made.error().c_str());
    std::exit(1);
  }
  tumble::World& world = **made;
  const tumble::Shape ball = *tumble::makeSphere(kRadius);
  const int side = std::max(1, static_cast<int>(std::ceil(std::sqrt(bullets))));
  for (int i = 0; i < bullets; ++i) {
    tumble::BodyDef def;
    def.shape = ball;
    def.density = 1.0 / ball.massProperties(1.0).mass;  // 1 kg
    const Real x = -5.0 + 10.0 * (i % side + 0.5) / side;
    const Real z = -5.0 + 10.0 * (i / side + 0.5) / side;
    def.position = Vec3(x, 12.0, z);
    def.linearVelocity = kSpeed * glm::normalize(Vec3(0.1 * x, -1.0, 0.1 * z));
    def.bullet = flag;
    if (!world.createBody(def)) std::exit(1);
  }
  std::vector<Real> ms;
  for (int i = 0; i < kSteps; ++i) {
    const Real t0 = tumble::bench::threadMs();
    if (!world.step(1.0 / 60.0)) std::exit(1);
    ms.push_back(tumble::bench::threadMs() - t0);
  }
  return ms;
}

Real meanOfLeast(int bullets, bool flag, int repeats) {
  std::vector<Real> least;
  for (int r = 0; r < repeats; ++r) {
    const std::vector<Real> ms = run(bullets, flag);
    if (least.empty()) least = ms;
    for (size_t i = 0; i < ms.size(); ++i) least[i] = std::min(least[i], ms[i]);
  }
  Real mean = 0.0;
  for (Real x : least) mean += x / static_cast<Real>(least.size());
  return mean;
}

}  // namespace

int main() {
  const char* env = std::getenv("TUMBLE_BENCH_REPEATS");
  const int repeats = env ? std::max(1, std::atoi(env)) : 3;
  std::printf("heap_boxes_1000 + N spheres (r %.1f m) at %.0f m/s, %d steps, least of %d runs\n",
              kRadius, kSpeed, kSteps, repeats);
  std::printf("%8s %14s %14s %10s\n", "N", "plain ms/step", "bullet ms/step", "extra");
  const Real heap = meanOfLeast(0, false, repeats);
  std::printf("%8d %14.3f %14s %10s\n", 0, heap, "-", "-");
  for (int n : {16, 128, 512}) {
    const Real plain = meanOfLeast(n, false, repeats);
    const Real bullet = meanOfLeast(n, true, repeats);
    std::printf("%8d %14.3f %14.3f %9.1f%%\n", n, plain, bullet, 100.0 * (bullet / plain - 1.0));
  }
  return 0;
}
