// The parallel solver (issue 18, contact_solver.h): the state after N steps is the same, bit for
// bit, with 1, 2, 3, 4 and 8 threads, and with a task system that runs every loop's chunks in
// reverse order on one thread (a fixed order no real schedule need follow, so the result cannot
// depend on which chunk runs first). Scenes: a 1000-box heap, a cut of large_pyramid, ragdolls
// and the bridge (joints), the car, and boxes riding a kinematic plate (many rows of a colour
// read one kinematic body, which no row may write).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dynamics/constraint_graph.h"
#include "shapes.h"
#include "tumble/scene.h"
#include "tumble/task.h"
#include "tumble/world.h"

using namespace tumble;

namespace {

const std::filesystem::path kAssets = std::filesystem::path(TUMBLE_SOURCE_DIR) / "assets";

// Fewer steps where every step is slower (Debug, sanitizers).
int scaled(int steps) {
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  return steps;
#else
  return steps / 4;
#endif
}

std::unique_ptr<World> fromText(const std::string& text, const std::string& name) {
  auto scene = parseScene(text, name, kAssets / "shapes");
  REQUIRE(scene);
  auto world = buildWorld(*scene);
  REQUIRE(world);
  return std::move(*world);
}

std::string readScene(const std::string& name) {
  std::ifstream in(kAssets / "scenes" / (name + ".json"));
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A task system that runs each loop's chunks last to first on the calling thread, as if from
// `workers` workers, and counts the loops that had more than one chunk.
class ReverseTasks final : public TaskSystem {
 public:
  int workerCount() const override { return 4; }
  void parallelFor(int count, int grain, RangeFn fn, void* context) override {
    const int chunks = (count + grain - 1) / grain;
    if (chunks > 1) ++splitLoops;
    for (int k = chunks - 1; k >= 0; --k)
      fn(k * grain, std::min(count, (k + 1) * grain), k % 4, context);
  }
  int splitLoops = 0;
};

struct Run {
  std::vector<uint64_t> hashes;  // every `every` steps
  int contacts = 0;              // at the end
  int awake = 0;
};

using Make = std::function<std::unique_ptr<World>()>;

Run run(const Make& make, int steps, int threads, TaskSystem* tasks = nullptr) {
  auto w = make();
  REQUIRE(w->setSetting("threads", std::to_string(threads)));
  if (tasks) w->setTaskSystem(tasks);
  Run r;
  const int every = std::max(1, steps / 4);
  for (int i = 0; i < steps; ++i) {
    REQUIRE(w->step(w->settings().dt));
    if ((i + 1) % every == 0) r.hashes.push_back(w->stateHash());
  }
  r.contacts = w->stats().contacts;
  r.awake = w->stats().awakeBodies;
  return r;
}

// The hashes at every thread count (and in reverse chunk order) equal the serial ones. Returns the
// serial run. `split`: the scene is big enough for the solver to split some loops (colours of 32
// rows, 128 bodies); in smaller ones the parallel path still runs, each loop inline.
Run checkAllThreadCounts(const Make& make, int steps, bool split = true) {
  const Run serial = run(make, steps, 1);
  for (int threads : {2, 3, 4, 8}) {
    INFO("threads " << threads);
    CHECK(run(make, steps, threads).hashes == serial.hashes);
  }
  ReverseTasks reverse;
  CHECK(run(make, steps, 1, &reverse).hashes == serial.hashes);
  if (split) CHECK(reverse.splitLoops > 0);
  return serial;
}

}  // namespace

TEST_CASE("parallel solver: a 1000-box heap, same bits at 1, 2, 3, 4, 8 threads",
          "[parallel][determinism]") {
  const std::string text = readScene("heap_boxes_1000");
  const int steps = scaled(140);
  const Run serial =
      checkAllThreadCounts([&] { return fromText(text, "heap_boxes_1000.json"); }, steps);
  // The heap has landed (in optimised builds; the others stop while it falls): thousands of
  // contacts in many colours.
  CHECK(serial.contacts > (steps == 140 ? 3000 : 0));
}

TEST_CASE("parallel solver: a base-40 cut of large_pyramid, same bits at any thread count",
          "[parallel][determinism]") {
  nlohmann::json doc = nlohmann::json::parse(readScene("large_pyramid"));
  REQUIRE(doc["generators"][0]["count"] == 100);
  doc["generators"][0]["count"] = 40;  // 820 boxes
  const std::string text = doc.dump();
  const Run serial = checkAllThreadCounts(
      [&] { return fromText(text, "large_pyramid.json (base 40)"); }, scaled(100));
  CHECK(serial.contacts > 1500);
}

TEST_CASE("parallel solver: ragdolls and the bridge (joints), same bits at any thread count",
          "[parallel][determinism][joints]") {
  for (const char* name : {"ragdolls", "bridge"}) {
    INFO(name);
    const std::string text = readScene(name);
    const bool big = std::string(name) == "ragdolls";  // 231 bodies; the bridge has 63
    const Run serial = checkAllThreadCounts([&] { return fromText(text, name); }, scaled(240), big);
    CHECK(serial.contacts > 0);
  }
}

TEST_CASE("parallel solver: the car, same bits at any thread count", "[parallel][determinism]") {
  const std::string text = readScene("car");
  const Run serial =
      checkAllThreadCounts([&] { return fromText(text, "car.json"); }, scaled(240), false);
  CHECK(serial.contacts > 0);
}

TEST_CASE("parallel solver: boxes on a turning kinematic plate, same bits at any thread count",
          "[parallel][determinism][kinematic]") {
  // 400 boxes rest on one kinematic plate that turns about the vertical: in every colour many
  // rows share the plate, which they read and never write.
  const Make make = [] {
    auto w = std::make_unique<World>(Settings{});
    BodyDef plate;
    plate.type = BodyType::Kinematic;
    plate.shape = test::boxHull(Vec3(15.0, 0.5, 15.0));
    plate.angularVelocity = Vec3(0.0, 0.4, 0.0);
    REQUIRE(w->createBody(plate));
    for (int i = 0; i < 20; ++i)
      for (int k = 0; k < 20; ++k) {
        BodyDef box;
        box.shape = test::boxHull(Vec3(0.4));
        box.position = Vec3(-13.3 + 1.4 * i, 0.95, -13.3 + 1.4 * k);
        REQUIRE(w->createBody(box));
      }
    return w;
  };
  const Run serial = checkAllThreadCounts(make, scaled(120));
  CHECK(serial.contacts >= 3 * 400);  // the boxes stand on the plate (most on four points)
  CHECK(serial.awake == 400);         // carried round, never asleep
}

TEST_CASE(
    "constraint graph: first-fit colours against a plain reimplementation, no body twice in a "
    "colour",
    "[parallel]") {
  // Random graphs over 300 bodies (a fifth not coloured: static or asleep), dense enough that
  // some bodies run out of the 24 colours (the overflow). The reference keeps each body's colours
  // in a std::set and walks the colours one by one: the first free for both dynamic bodies, from
  // colour 1 for a constraint with one dynamic body, colour 0 with none, the overflow past 23.
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const int bodyCount = 300, n = 400 + 300 * round;
    std::vector<char> dynamic(bodyCount);
    for (char& d : dynamic) d = rng() % 5 != 0;
    std::vector<int> bodies(2 * static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      // Half the constraints among the first 20 bodies: those run out of colours.
      const int range = i % 2 ? 20 : bodyCount;
      bodies[2 * i] = static_cast<int>(rng() % range);
      do bodies[2 * i + 1] = static_cast<int>(rng() % range);
      while (bodies[2 * i + 1] == bodies[2 * i]);
    }
    ConstraintGraph graph;
    graph.build(bodies, dynamic, bodyCount);
    std::vector<std::set<int>> used(bodyCount);
    std::vector<int> expected(static_cast<size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
      const int a = bodies[2 * i], b = bodies[2 * i + 1];
      int chosen = -1;
      if (!dynamic[a] && !dynamic[b]) {
        chosen = 0;
      } else {
        for (int c = dynamic[a] && dynamic[b] ? 0 : 1; c < ConstraintGraph::kColors; ++c)
          if ((!dynamic[a] || !used[a].count(c)) && (!dynamic[b] || !used[b].count(c))) {
            chosen = c;
            break;
          }
      }
      expected[static_cast<size_t>(i)] = chosen;
      if (chosen < 0) continue;
      if (dynamic[a]) used[a].insert(chosen);
      if (dynamic[b]) used[b].insert(chosen);
    }
    std::vector<int> got(static_cast<size_t>(n), -2);
    for (int c = 0; c < graph.colorCount(); ++c) {
      std::set<int> seen;
      for (int i : graph.color(c)) {
        got[static_cast<size_t>(i)] = c;
        for (int body : {bodies[2 * i], bodies[2 * i + 1]})
          if (dynamic[body]) CHECK(seen.insert(body).second);  // no dynamic body twice
      }
    }
    for (int i : graph.overflow()) got[static_cast<size_t>(i)] = -1;
    CHECK(got == expected);
    if (round == 19) CHECK(graph.overflowCount() > 0);
  }
}
