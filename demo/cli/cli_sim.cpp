// tumble-cli sim SCENE: runs a scene headless and reports its state (docs/ARCHITECTURE.md,
// "Headless runs").
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "sim_churn.h"
#include "tumble/atomic_file.h"
#include "tumble/scene.h"
#include "tumble/snapshot.h"
#include "tumble/timeline.h"
#include "tumble/world.h"

namespace tumble::cli {
namespace {

constexpr Positional kPositionals[] = {
    {.name = "SCENE",
     .help = "a scene file, or a name in assets/scenes such as pile, tower, pyramid,\n"
             "incline, heap_boxes_500 (not with --restore)",
     .required = false},
};

constexpr Flag kFlags[] = {
    {.name = "--steps",
     .metavar = "N",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 10000000,
     .defaultValue = "600",
     .help = "steps to run"},
    settingFlag("change a setting after the scene's own (any settings key)"),
    {.name = "--json",
     .help = "print one JSON object at the end: scene, steps, bodies, sleeping,\n"
             "max_speed, max_penetration, nan, energy {initial, final},\n"
             "timing_ms {step_median, step_max, broadphase, narrowphase, solver,\n"
             "islands, solver_stages {prepare, warm_start, solve, relax, integrate,\n"
             "store}} (wall-clock, phases as means), threads (the workers used),\n"
             "pairs, contacts, crosscheck {checked, disagreed}, state_hash"},
    {.name = "--dump",
     .metavar = "FILE",
     .kind = ValueKind::String,
     .help = "write the final body states as JSON Lines (id, position,\n"
             "orientation [w,x,y,z], linear_velocity, angular_velocity)"},
    {.name = "--events",
     .metavar = "FILE",
     .kind = ValueKind::String,
     .help = "write every contact and sensor event as a JSON line: step, type\n"
             "(begin, end, hit, sensor_begin, sensor_end), a, b (body indices as in\n"
             "the scene file; a sensor event's a is the sensor, with child_a the\n"
             "compound child when a sensor child saw it); begin adds point and\n"
             "normal, hit adds point, normal and speed"},
    {.name = "--save",
     .metavar = "FILE",
     .kind = ValueKind::String,
     .help = "write a snapshot of the world after the steps (README, \"Snapshots\")"},
    {.name = "--restore",
     .metavar = "FILE",
     .kind = ValueKind::String,
     .help = "start from a snapshot instead of a scene: the run continues bit for\n"
             "bit (sim SCENE --steps N --save F, then sim --restore F --steps M,\n"
             "ends with the state_hash of sim SCENE --steps N+M)"},
    {.name = "--timeline-mb",
     .metavar = "MB",
     .kind = ValueKind::Integer,
     .min = 1,
     .max = 65536,
     .help = "record the run in a Timeline of at most MB megabytes (the demo's\n"
             "rewind) and report timeline {budget_mb, peak_mb, end_mb, first_step,\n"
             "last_step, keyframes, seek_ok}: seek_ok says the oldest step still\n"
             "held was reached again with its recorded hash"},
    {.name = "--crosscheck-log",
     .metavar = "FILE",
     .kind = ValueKind::String,
     .help = "append cross-check disagreements (collide format) to FILE"},
    {.name = "--churn",
     .metavar = "SEED",
     .kind = ValueKind::Unsigned,
     .help = "the long run, from a fixed seed\n"
             "Every simulated second remove 1-5 random dynamic bodies and drop as\n"
             "many new ones, every 10 s change a setting; the report adds churn\n"
             "{added, removed, settings_changed, rss_kb {early, end, peak},\n"
             "early_step, rss_kb_per_minute [...], step_ms_median_per_minute [...],\n"
             "step_ms {first_10pct_median, last_10pct_median}}"},
};

constexpr CommandSpec kSpec{
    .name = "sim",
    .positionals = kPositionals,
    .flags = kFlags,
    .description = "Runs a scene for N steps of the scene's dt and prints a summary.\n",
    .epilogue =
        "A body whose state becomes non-finite is removed and reported (nonfinite in --json,\n"
        "a line on stderr); the run then counts as non-finite. --dump writes atomically (a\n"
        "temporary file renamed over FILE: a failed write leaves the old FILE as it was).\n"
        "Exit status: 0, 1 for a usage error, 2 for a bad scene or setting, 3 if a state became\n"
        "non-finite.\n",
};

nlohmann::json vec(const Vec3& v) {
  return {v.x, v.y, v.z};
}

bool finiteBody(const BodyView& b) {
  return isFinite(b.centerOfMass) && isFinite(b.linearVelocity) && isFinite(b.angularVelocity) &&
         std::isfinite(b.rotation.w) && std::isfinite(b.rotation.x) &&
         std::isfinite(b.rotation.y) && std::isfinite(b.rotation.z);
}

// Median of v[from, to) (0 when empty).
Real medianOf(const std::vector<Real>& v, size_t from, size_t to) {
  if (from >= to) return 0.0;
  std::vector<Real> part(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to));
  std::nth_element(part.begin(), part.begin() + static_cast<long>(part.size() / 2), part.end());
  return part[part.size() / 2];
}

// The step's events as JSON lines (README, "tumble-cli sim"): contact begins, ends and hits, then
// sensor begins and ends, each in the World's order.
void writeEvents(std::ostream& out, long step, const World& w) {
  auto line = [&](const char* type, BodyId a, BodyId b) {
    nlohmann::json j;
    j["step"] = step;
    j["type"] = type;
    j["a"] = a.index;
    j["b"] = b.index;
    return j;
  };
  const ContactEvents& c = w.contactEvents();
  for (const ContactBeginEvent& e : c.begin) {
    nlohmann::json j = line("begin", e.a, e.b);
    j["point"] = vec(e.point);
    j["normal"] = vec(e.normal);
    out << j.dump() << '\n';
  }
  for (const ContactEndEvent& e : c.end) out << line("end", e.a, e.b).dump() << '\n';
  for (const ContactHitEvent& e : c.hit) {
    nlohmann::json j = line("hit", e.a, e.b);
    j["point"] = vec(e.point);
    j["normal"] = vec(e.normal);
    j["speed"] = e.approachSpeed;
    out << j.dump() << '\n';
  }
  // A sensor child (CompoundChild::isSensor) adds its index as child_a.
  auto sensor = [&](const char* type, const SensorEvent& e) {
    nlohmann::json j = line(type, e.sensor, e.visitor);
    if (e.sensorChild >= 0) j["child_a"] = e.sensorChild;
    out << j.dump() << '\n';
  };
  for (const SensorEvent& e : w.sensorEvents().begin) sensor("sensor_begin", e);
  for (const SensorEvent& e : w.sensorEvents().end) sensor("sensor_end", e);
}

}  // namespace

int runSim(Args args) {
  const auto parsed = parseArgs(kSpec, args);
  if (auto status = earlyExit(kSpec, parsed)) return *status;
  const std::string sceneArg = parsed->positionals.empty() ? "" : parsed->positionals[0];
  const std::string restorePath = parsed->value("--restore").value_or("");
  const std::string savePath = parsed->value("--save").value_or("");
  const long steps = static_cast<long>(*parsed->integer("--steps"));
  const bool json = parsed->has("--json");
  const std::string dumpPath = parsed->value("--dump").value_or("");
  const std::string logPath = parsed->value("--crosscheck-log").value_or("");
  const std::string eventsPath = parsed->value("--events").value_or("");
  const std::optional<uint64_t> churnSeed = parsed->unsignedInteger("--churn");
  const std::optional<int64_t> timelineMb = parsed->integer("--timeline-mb");

  if (sceneArg.empty() == restorePath.empty()) {
    std::fprintf(stderr,
                 "sim: give a SCENE or --restore FILE (one of them); see tumble-cli sim --help\n");
    return 1;
  }
  if (!restorePath.empty() && churnSeed) {
    std::fprintf(stderr,
                 "sim: --churn needs a SCENE (it drops the scene's bodies), not --restore\n");
    return 1;
  }
  std::optional<LoadedScene> loaded;
  std::unique_ptr<World> restored;
  std::string sceneName;
  if (restorePath.empty()) {
    loaded = loadSceneWorld("sim", sceneArg, *parsed);
    if (!loaded) return 2;
    sceneName = loaded->scene.name;
  } else {
    restored = std::make_unique<World>();
    if (auto err = restoreSnapshotFile(*restored, restorePath); !err) {
      std::fprintf(stderr, "sim: --restore %s\n", err.error().c_str());
      return 2;
    }
    Settings settings = restored->settings();
    if (auto err = applySettingFlags(*parsed, settings); !err) {
      std::fprintf(stderr, "sim: %s\n", err.error().c_str());
      return 2;
    }
    if (auto err = restored->setSettings(settings); !err) {
      std::fprintf(stderr, "sim: %s\n", err.error().c_str());
      return 2;
    }
    sceneName = restorePath;
  }
  World& w = loaded ? *loaded->world : *restored;
  const Real dt = w.settings().dt;
  w.setCrossCheckLog(logPath);
  std::ofstream events;
  if (!eventsPath.empty()) {
    events.open(eventsPath, std::ios::binary | std::ios::trunc);
    if (!events) {
      std::fprintf(stderr, "sim: --events %s: cannot open for writing: %s\n", eventsPath.c_str(),
                   std::strerror(errno));
      return 2;
    }
  }

  std::optional<Timeline> timeline;
  if (timelineMb)
    timeline.emplace(TimelineSettings{.budgetBytes = static_cast<size_t>(*timelineMb) << 20});
  size_t timelinePeak = 0;
  const Energy e0 = w.energy();
  // Every step's time is kept (for the medians); the record is written through up front, so that
  // the resident memory per minute below shows the world's growth, not this record's.
  std::vector<Real> stepMs(static_cast<size_t>(steps), 0.0);
  size_t done = 0;
  Real broad = 0.0, narrow = 0.0, solve = 0.0, islands = 0.0, maxPen = 0.0;
  // The solver's stages (StepStats::solverPrepareMs...), summed like the phases.
  Real stages[6] = {};
  bool nan = false;
  std::optional<Churn> churn;
  if (churnSeed) churn.emplace(*churnSeed, loaded->scene);
  // Memory once the run has settled: after the first simulated minute, or a fifth of a shorter run.
  const long earlyStep = std::min<long>(std::lround(60.0 / dt), steps / 5);
  long earlyRss = 0;
  std::vector<long> rssPerMinute;  // resident memory after each simulated minute (KiB)
  const long stepsPerMinute = std::max(1L, std::lround(60.0 / dt));
  for (long s = 0; s < steps; ++s) {
    if (churn)
      if (auto err = churn->apply(w, s); !err) {
        std::fprintf(stderr, "sim: %s\n", err.error().c_str());
        return 2;
      }
    if (auto err = w.step(dt); !err) {
      std::fprintf(stderr, "sim: step %ld: %s\n", s, err.error().c_str());
      return 2;
    }
    if (events.is_open()) writeEvents(events, s, w);
    if (timeline) {
      timeline->record(w, dt);
      timelinePeak = std::max(timelinePeak, timeline->bytes());
    }
    const StepStats& st = w.stats();
    stepMs[done++] = st.stepMs;
    broad += st.broadphaseMs;
    narrow += st.narrowphaseMs;
    solve += st.solverMs;
    islands += st.islandsMs;
    const std::array<Real, 6> stepStages = st.solverStagesMs();
    for (int k = 0; k < 6; ++k) stages[k] += stepStages[k];
    maxPen = st.maxPenetration;  // of the final state
    if (s + 1 == earlyStep) earlyRss = currentRssKb();
    if (churn && (s + 1) % stepsPerMinute == 0) rssPerMinute.push_back(currentRssKb());
    for (BodyId id : w.bodyIds()) nan = nan || !finiteBody(*w.body(id));
    if (nan) break;
  }
  stepMs.resize(done);
  if (events.is_open()) {
    events.close();
    if (!events) {
      std::fprintf(stderr, "sim: --events %s: write failed\n", eventsPath.c_str());
      return 2;
    }
  }
  for (const NonFiniteEvent& e : w.nonFiniteEvents())
    std::fprintf(stderr, "sim: step %lld: body %d: non-finite %s; the body was removed\n",
                 static_cast<long long>(e.step), e.body.index, e.quantity);
  nan = nan || !w.nonFiniteEvents().empty();
  const auto ids = w.bodyIds();
  const Energy e1 = w.energy();
  int sleeping = 0;
  Real maxSpeed = 0.0;
  for (BodyId id : ids) {
    const BodyView b = *w.body(id);
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
    std::string out;
    for (BodyId id : ids) {
      const BodyView b = *w.body(id);
      const Transform xf = b.transform();
      nlohmann::json line;
      line["id"] = id.index;
      line["position"] = vec(xf.position);
      line["orientation"] = {xf.rotation.w, xf.rotation.x, xf.rotation.y, xf.rotation.z};
      line["linear_velocity"] = vec(b.linearVelocity);
      line["angular_velocity"] = vec(b.angularVelocity);
      out += line.dump() + "\n";
    }
    if (auto err = writeFileAtomic(dumpPath, out); !err) {
      std::fprintf(stderr, "sim: --dump %s\n", err.error().c_str());
      return 2;
    }
  }
  if (!savePath.empty())
    if (auto err = saveSnapshotFile(w, savePath); !err) {
      std::fprintf(stderr, "sim: --save %s\n", err.error().c_str());
      return 2;
    }
  std::vector<Real> minuteMedians;  // median step time of each simulated minute
  for (size_t from = 0; churn && from + stepsPerMinute <= stepMs.size(); from += stepsPerMinute)
    minuteMedians.push_back(medianOf(stepMs, from, from + stepsPerMinute));
  const size_t tenth = stepMs.size() / 10;
  const Real firstTenth = medianOf(stepMs, 0, tenth),
             lastTenth = medianOf(stepMs, stepMs.size() - tenth, stepMs.size());

  if (json) {
    nlohmann::json j;
    j["scene"] = sceneName;
    j["steps"] = static_cast<long>(stepMs.size());
    j["bodies"] = w.bodyCount();
    j["sleeping"] = sleeping;
    j["max_speed"] = maxSpeed;
    j["max_penetration"] = maxPen;
    j["nan"] = nan;
    j["energy"] = {{"initial", e0.total()}, {"final", e1.total()}};
    j["timing_ms"] = {{"step_median", median},     {"step_max", worst},   {"broadphase", broad / n},
                      {"narrowphase", narrow / n}, {"solver", solve / n}, {"islands", islands / n}};
    j["timing_ms"]["solver_stages"] = {{"prepare", stages[0] / n},   {"warm_start", stages[1] / n},
                                       {"solve", stages[2] / n},     {"relax", stages[3] / n},
                                       {"integrate", stages[4] / n}, {"store", stages[5] / n}};
    j["threads"] = w.threadCount();
    j["pairs"] = st.pairs;
    j["contacts"] = st.contacts;
    j["crosscheck"] = {{"checked", st.crosscheckChecked}, {"disagreed", st.crosscheckDisagreed}};
    j["gjk"] = {{"iterations_mean", st.gjkIterationsMean}, {"iterations_max", st.gjkIterationsMax}};
    j["epa"] = {{"iterations_mean", st.epaIterationsMean}, {"iterations_max", st.epaIterationsMax}};
    j["state_hash"] = hash;
    j["nonfinite"] = nlohmann::json::array();
    for (const NonFiniteEvent& e : w.nonFiniteEvents())
      j["nonfinite"].push_back(
          {{"body", e.body.index}, {"step", e.step}, {"quantity", e.quantity}});
    if (timeline) {
      const Real mb = 1.0 / (1 << 20);
      const size_t endBytes = timeline->bytes();
      const int64_t firstStep = timeline->firstStep(), lastStep = timeline->lastStep();
      const int keyframes = timeline->keyframeCount();
      World scratch;
      const bool seekOk = !timeline->empty() && timeline->seek(scratch, firstStep).ok();
      j["timeline"] = {{"budget_mb", *timelineMb},
                       {"peak_mb", static_cast<Real>(timelinePeak) * mb},
                       {"end_mb", static_cast<Real>(endBytes) * mb},
                       {"first_step", firstStep},
                       {"last_step", lastStep},
                       {"keyframes", keyframes},
                       {"seek_ok", seekOk}};
    }
    if (churn)
      j["churn"] = {
          {"seed", *churnSeed},
          {"added", churn->added()},
          {"removed", churn->removed()},
          {"settings_changed", churn->settingsChanged()},
          {"early_step", earlyStep},
          {"rss_kb", {{"early", earlyRss}, {"end", currentRssKb()}, {"peak", peakRssKb()}}},
          {"rss_kb_per_minute", rssPerMinute},
          {"step_ms_median_per_minute", minuteMedians},
          {"step_ms", {{"first_10pct_median", firstTenth}, {"last_10pct_median", lastTenth}}}};
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf(
        "%s: %ld steps, %d bodies, %d sleeping, max speed %.4g m/s, max penetration %.4g m,\n"
        "energy %.6g -> %.6g J, step median %.3f ms (max %.3f), pairs %d, contacts %d%s\n"
        "state hash %s\n",
        sceneName.c_str(), static_cast<long>(stepMs.size()), w.bodyCount(), sleeping, maxSpeed,
        maxPen, e0.total(), e1.total(), median, worst, st.pairs, st.contacts,
        nan ? ", NON-FINITE STATE" : "", hash);
    if (churn)
      std::printf(
          "churn: %ld added, %ld removed, %ld settings changed; RSS %ld KiB after step %ld, "
          "%ld KiB at the end, peak %ld KiB; step median %.3f ms in the first tenth, "
          "%.3f ms in the last\n",
          churn->added(), churn->removed(), churn->settingsChanged(), earlyRss, earlyStep,
          currentRssKb(), peakRssKb(), firstTenth, lastTenth);
  }
  return nan ? 3 : 0;
}

}  // namespace tumble::cli
