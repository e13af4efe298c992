// The character mover's cost (issue 16): microseconds per Character::update, walking a level of
// stairs (six 0.25 m steps), a 30 degree ramp and walls among N dynamic boxes at rest (N = 0, 100,
// 1000: the boxes only fill the broad-phase tree the casts walk). The character walks a circuit
// (up the stairs onto the landing, back down, to the side and back; the wall behind the start
// bounds any drift) with gravity; only update() is timed, not the world's step. Run with
// `taskset -c 1`; Google Benchmark, never asserted.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "tumble/character.h"
#include "tumble/world.h"

namespace {

using namespace tumble;

constexpr Real kDt = 1.0 / 60.0;

std::unique_ptr<World> makeLevel(int boxes) {
  auto w = std::make_unique<World>(Settings{});
  auto add = [&](BodyType type, const Vec3& half, const Vec3& position,
                 const Quat& q = Quat(1, 0, 0, 0)) {
    BodyDef def;
    def.type = type;
    def.shape = *makeBox(half);
    def.position = position;
    def.orientation = q;
    (void)w->createBody(def);
  };
  add(BodyType::Static, Vec3(60.0, 0.5, 60.0), Vec3(0.0, -0.5, 0.0));
  for (int k = 1; k <= 6; ++k) {
    const Real front = 4.0 - 0.4 * (k - 1), top = 0.25 * k;
    add(BodyType::Static, Vec3(1.5, 0.5 * top, 0.5 * (front + 6.0)),
        Vec3(0.0, 0.5 * top, 0.5 * (front - 6.0)));
  }
  const Quat ramp = glm::angleAxis(0.5235987755982988, Vec3(1.0, 0.0, 0.0));
  add(BodyType::Static, Vec3(1.5, 0.5, 3.5), Vec3(-5.0, 0.0, 5.0) - ramp * Vec3(0.0, 0.5, 2.5),
      ramp);
  add(BodyType::Static, Vec3(6.0, 1.0, 0.2), Vec3(0.0, 1.0, 9.0));
  // Boxes in a grid away from the path, resting on the ground.
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<Real>(boxes))));
  for (int i = 0; i < boxes; ++i)
    add(BodyType::Dynamic, Vec3(0.4), Vec3(10.0 + 1.0 * (i % side), 0.4, -20.0 + 1.0 * (i / side)));
  for (int i = 0; i < 120; ++i) (void)w->step(kDt);  // settle (and sleep)
  return w;
}

void BM_CharacterUpdate(benchmark::State& state) {
  auto world = makeLevel(static_cast<int>(state.range(0)));
  Character c = *Character::create(CharacterSettings{}, Vec3(0.0, 0.91, 7.0));
  Real vy = 0.0, t = 0.0;
  for (auto _ : state) {
    // A circuit: up the stairs towards -z for 3 s, back for 3 s, 3 m to the side and back.
    const Real phase = std::fmod(t, 9.0);
    const Vec3 walk = phase < 3.0   ? Vec3(0.0, 0.0, -3.5)
                      : phase < 6.0 ? Vec3(0.0, 0.0, 3.5)
                      : phase < 7.5 ? Vec3(-2.0, 0.0, 0.0)
                                    : Vec3(2.0, 0.0, 0.0);
    vy = c.onGround() ? 0.0 : vy - 9.81 * kDt;
    benchmark::DoNotOptimize(c.update(*world, Vec3(walk.x, vy, walk.z), kDt));
    t += kDt;
  }
  state.counters["foot_y"] = c.footPosition().y;
}
BENCHMARK(BM_CharacterUpdate)->Arg(0)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
