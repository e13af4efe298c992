// tumble-cli sim SCENE: runs a scene headless and reports its state (DESIGN.md "Headless runs").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace tumble::cli {
namespace {

constexpr const char* kSimHelp =
    "usage: tumble-cli sim SCENE [--steps N] [--set key=value]... [--json] [--dump FILE]\n"
    "                    [--crosscheck-log FILE]\n"
    "Runs a scene (a file, or a name in assets/scenes such as pile, tower, pyramid, incline,\n"
    "heap_boxes_500) for N steps (600) of the scene's dt and prints a summary.\n"
    "\noptions:\n"
    "  --steps N              steps to run (0 to 10000000)\n"
    "  --set key=value        change a setting after the scene's own (any settings key)\n"
    "  --json                 print one JSON object at the end: scene, steps, bodies, sleeping,\n"
    "                         max_speed, max_penetration, nan, energy {initial, final},\n"
    "                         timing_ms {step_median, step_max, broadphase, narrowphase, solver},\n"
    "                         pairs, contacts, crosscheck {checked, disagreed}, state_hash\n"
    "  --dump FILE            write the final body states as JSON Lines (id, position,\n"
    "                         orientation [w,x,y,z], linear_velocity, angular_velocity)\n"
    "  --crosscheck-log FILE  append cross-check disagreements (collide format) to FILE\n"
    "Exit status: 0, 1 for a usage error, 2 for a bad scene or setting, 3 if a state became\n"
    "non-finite.\n";

int usage(const std::string& message) {
  std::fprintf(stderr, "sim: %s\n%s", message.c_str(), kSimHelp);
  return 1;
}

nlohmann::json vec(const Vec3& v) {
  return {v.x, v.y, v.z};
}

bool finiteBody(const Body& b) {
  return isFinite(b.center) && isFinite(b.linearVelocity) && isFinite(b.angularVelocity) &&
         std::isfinite(b.rotation.w) && std::isfinite(b.rotation.x) &&
         std::isfinite(b.rotation.y) && std::isfinite(b.rotation.z);
}

}  // namespace

int runSim(Args args) {
  std::string sceneArg, dumpPath, logPath;
  long steps = 600;
  bool json = false;
  std::vector<std::string> sets;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&](const char* what) -> const std::string* {
      if (i + 1 >= args.size()) return nullptr;
      (void)what;
      return &args[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kSimHelp, stdout);
      return 0;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--steps") {
      const std::string* v = next("N");
      if (!v) return usage("--steps needs a number");
      char* end = nullptr;
      steps = std::strtol(v->c_str(), &end, 10);
      if (end == v->c_str() || *end != '\0' || steps < 0 || steps > 10000000)
        return usage("--steps: expected an integer in [0, 10000000], got '" + *v + "'");
    } else if (a == "--set") {
      const std::string* v = next("key=value");
      if (!v) return usage("--set needs key=value");
      sets.push_back(*v);
    } else if (a == "--dump") {
      const std::string* v = next("FILE");
      if (!v) return usage("--dump needs a file name");
      dumpPath = *v;
    } else if (a == "--crosscheck-log") {
      const std::string* v = next("FILE");
      if (!v) return usage("--crosscheck-log needs a file name");
      logPath = *v;
    } else if (!a.empty() && a[0] == '-') {
      return usage("unknown option '" + a + "'");
    } else if (sceneArg.empty()) {
      sceneArg = a;
    } else {
      return usage("more than one scene given ('" + sceneArg + "', '" + a + "')");
    }
  }
  if (sceneArg.empty()) return usage("no scene given");

  auto file = findSceneFile(sceneArg);
  if (!file) {
    std::fprintf(stderr, "sim: %s\n", file.error().c_str());
    return 2;
  }
  auto scene = loadScene(*file);
  if (!scene) {
    std::fprintf(stderr, "sim: %s\n", scene.error().c_str());
    return 2;
  }
  for (const std::string& s : sets)
    if (auto err = setSettingAssignment(scene->settings, s)) {
      std::fprintf(stderr, "sim: --set %s: %s\n", s.c_str(), err->c_str());
      return 2;
    }
  auto world = buildWorld(*scene);
  if (!world) {
    std::fprintf(stderr, "sim: %s: %s\n", file->string().c_str(), world.error().c_str());
    return 2;
  }
  World& w = **world;
  w.setCrossCheckLog(logPath);

  const Energy e0 = w.energy();
  std::vector<Real> stepMs;
  stepMs.reserve(static_cast<size_t>(steps));
  Real broad = 0.0, narrow = 0.0, solve = 0.0, maxPen = 0.0;
  bool nan = false;
  const auto ids = w.bodyIds();
  for (long s = 0; s < steps; ++s) {
    if (auto err = w.step()) {
      std::fprintf(stderr, "sim: step %ld: %s\n", s, err->c_str());
      return 2;
    }
    const StepStats& st = w.stats();
    stepMs.push_back(st.stepMs);
    broad += st.broadphaseMs;
    narrow += st.narrowphaseMs;
    solve += st.solverMs;
    maxPen = st.maxPenetration;  // of the final state
    for (BodyId id : ids) nan = nan || !finiteBody(w.body(id));
    if (nan) break;
  }
  const Energy e1 = w.energy();
  int sleeping = 0;
  Real maxSpeed = 0.0;
  for (BodyId id : ids) {
    const Body& b = w.body(id);
    if (!b.isDynamic()) continue;
    if (!b.awake) ++sleeping;
    maxSpeed = std::max(maxSpeed, glm::length(b.linearVelocity));
  }
  std::vector<Real> sorted = stepMs;
  std::sort(sorted.begin(), sorted.end());
  const Real median = sorted.empty() ? 0.0 : sorted[sorted.size() / 2];
  const Real worst = sorted.empty() ? 0.0 : sorted.back();
  const Real n = std::max<Real>(1.0, static_cast<Real>(stepMs.size()));
  const StepStats& st = w.stats();
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(w.stateHash()));

  if (!dumpPath.empty()) {
    std::ofstream out(dumpPath);
    if (!out) {
      std::fprintf(stderr, "sim: --dump %s: cannot open for writing\n", dumpPath.c_str());
      return 2;
    }
    for (BodyId id : ids) {
      const Body& b = w.body(id);
      const Transform xf = b.transform();
      nlohmann::json line;
      line["id"] = id.index;
      line["position"] = vec(xf.position);
      line["orientation"] = {xf.rotation.w, xf.rotation.x, xf.rotation.y, xf.rotation.z};
      line["linear_velocity"] = vec(b.linearVelocity);
      line["angular_velocity"] = vec(b.angularVelocity);
      out << line.dump() << "\n";
    }
  }

  if (json) {
    nlohmann::json j;
    j["scene"] = scene->name;
    j["steps"] = static_cast<long>(stepMs.size());
    j["bodies"] = w.bodyCount();
    j["sleeping"] = sleeping;
    j["max_speed"] = maxSpeed;
    j["max_penetration"] = maxPen;
    j["nan"] = nan;
    j["energy"] = {{"initial", e0.total()}, {"final", e1.total()}};
    j["timing_ms"] = {{"step_median", median},
                      {"step_max", worst},
                      {"broadphase", broad / n},
                      {"narrowphase", narrow / n},
                      {"solver", solve / n}};
    j["pairs"] = st.pairs;
    j["contacts"] = st.contacts;
    j["crosscheck"] = {{"checked", st.crosscheckChecked}, {"disagreed", st.crosscheckDisagreed}};
    j["gjk"] = {{"iterations_mean", st.gjkIterationsMean}, {"iterations_max", st.gjkIterationsMax}};
    j["epa"] = {{"iterations_mean", st.epaIterationsMean}, {"iterations_max", st.epaIterationsMax}};
    j["state_hash"] = hash;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf(
        "%s: %ld steps, %d bodies, %d sleeping, max speed %.4g m/s, max penetration %.4g m,\n"
        "energy %.6g -> %.6g J, step median %.3f ms (max %.3f), pairs %d, contacts %d%s\n"
        "state hash %s\n",
        scene->name.c_str(), static_cast<long>(stepMs.size()), w.bodyCount(), sleeping, maxSpeed,
        maxPen, e0.total(), e1.total(), median, worst, st.pairs, st.contacts,
        nan ? ", NON-FINITE STATE" : "", hash);
  }
  return nan ? 3 : 0;
}

}  // namespace tumble::cli
