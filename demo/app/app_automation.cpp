// Automation: --script actions (script.h), preset files and --dump-state.
#include <cstdio>
#include <string>

#include <SDL.h>
#include <nlohmann/json.hpp>

#include "app.h"
#include "tumble/world.h"

namespace tumble::demo {

void App::runScript() {
  if (scriptDrag_) {
    // A scripted drag moves once a frame, by equal steps, and lets go at its end.
    ScriptDrag& d = *scriptDrag_;
    ++d.done;
    const auto at = [&](int a, int b) { return a + (b - a) * d.done / d.frames; };
    const int x = at(d.x0, d.x1), y = at(d.y0, d.y1);
    mouseMotion(x, y, x - mouseX_, y - mouseY_, leftDown_, false, false);
    if (d.done >= d.frames) {
      if (d.release) mouseButton(x, y, false, false);
      scriptDrag_.reset();
    }
  }
  while (scriptNext_ < script_.size() && script_[scriptNext_].frame <= frame_) {
    const ScriptAction& a = script_[scriptNext_++];
    const std::string where = options_.script + ":" + std::to_string(a.line) + ": ";
    auto arg = [&](size_t i) { return std::stoi(a.args[i]); };
    if (a.verb == "set") {
      setSettingFromUi(a.args[0], a.args[1]);
      if (!settingsError_.empty()) scriptError_ = where + settingsError_;
    } else if (a.verb == "reset") {
      static const Settings kDefaults{};
      if (a.args[0] == "all") {
        settings_ = kDefaults;
      } else if (const SettingInfo* info = findSetting(a.args[0])) {
        setSettingFromUi(info->key, settingValue(kDefaults, *info));
      } else {
        scriptError_ = where + "reset: unknown setting '" + a.args[0] + "'";
      }
    } else if (a.verb == "key") {
      const SDL_Keycode key = SDL_GetKeyFromName(a.args[0].c_str());
      if (key == SDLK_UNKNOWN) {
        scriptError_ = where + "key: unknown key name '" + a.args[0] + "' (SDL key names)";
      } else {
        pressKey(key, false);
      }
    } else if (a.verb == "click") {
      mouseButton(arg(0), arg(1), true, false);
      mouseButton(arg(0), arg(1), false, false);
    } else if (a.verb == "drag") {
      ScriptDrag d{arg(0), arg(1), arg(2), arg(3), a.args.size() > 4 ? std::max(1, arg(4)) : 1, 0};
      mouseButton(d.x0, d.y0, true, false);
      scriptDrag_ = d;
    } else if (a.verb == "mousedown") {
      mouseButton(arg(0), arg(1), true, false);
    } else if (a.verb == "mousemove") {
      scriptDrag_ = ScriptDrag{
          mouseX_, mouseY_, arg(0), arg(1), a.args.size() > 2 ? std::max(1, arg(2)) : 1, 0, false};
    } else if (a.verb == "mouseup") {
      mouseButton(mouseX_, mouseY_, false, false);
    } else if (a.verb == "preset-save") {
      savePresetTo(a.args[0]);
    } else if (a.verb == "preset-load") {
      loadPresetFrom(a.args[0]);
    } else if (a.verb == "scene") {
      if (auto error = switchScene(a.args[0]); !error) scriptError_ = where + error.error();
    } else if (a.verb == "screenshot") {
      pendingScreenshot_ = a.args[0];
    } else if (a.verb == "quit") {
      quit_ = true;
    }
  }
}

void App::savePresetTo(const std::string& file) {
  if (auto error = savePreset(file, settings_); !error) {
    presetFailed_ = true;
    presetMessage_ = "preset not saved: " + error.error();
  } else {
    presetFailed_ = false;
    presetMessage_ = "saved " + file;
  }
  presetFile_ = file;
}

void App::loadPresetFrom(const std::string& file) {
  auto loaded = loadPreset(file, settings_);
  presetFile_ = file;
  if (!loaded) {
    // Nothing changes; the panel shows why.
    presetFailed_ = true;
    presetMessage_ = "preset not loaded, settings unchanged: " + loaded.error();
    std::fprintf(stderr, "tumble-demo: %s\n", presetMessage_.c_str());
    return;
  }
  settings_ = *loaded;
  settingsError_.clear();
  presetFailed_ = false;
  presetMessage_ = "loaded " + file;
}

std::string App::stateJson() {
  using Json = nlohmann::ordered_json;
  Json settings = Json::object();
  for (const SettingInfo& info : settingsTable())
    settings[std::string(info.key)] = Json::parse(settingJsonValue(settings_, info));
  Json j;
  j["scene"] = sceneName_;
  j["frames"] = frame_;
  j["paused"] = paused_;
  j["steps"] = stepsTaken_;
  j["steps_while_paused"] = stepsWhilePaused_;
  j["settings"] = settings;
  Json stats;
  stats["bodies"] = scene_ ? scene_->bodyCount() : 0;
  if (haveStats_) {
    const StepStats& s = stats_;
    stats["awake"] = s.awakeBodies;
    stats["pairs"] = s.pairs;
    stats["manifolds"] = s.manifolds;
    stats["contacts"] = s.contacts;
    stats["islands"] = s.islands;
    stats["gjk_iterations_mean"] = s.gjkIterationsMean;
    stats["gjk_iterations_max"] = s.gjkIterationsMax;
    stats["epa_iterations_mean"] = s.epaIterationsMean;
    stats["epa_iterations_max"] = s.epaIterationsMax;
    stats["lp_pivots"] = s.lpPivots;
    stats["crosscheck_checked"] = s.crosscheckChecked;
    stats["crosscheck_disagreed"] = s.crosscheckDisagreed;
    stats["broadphase_ms"] = s.broadphaseMs;
    stats["narrowphase_ms"] = s.narrowphaseMs;
    stats["solver_ms"] = s.solverMs;
    stats["islands_ms"] = s.islandsMs;
    stats["solver_stages_ms"] = {
        {"prepare", s.solverPrepareMs},     {"warm_start", s.solverWarmStartMs},
        {"solve", s.solverSolveMs},         {"relax", s.solverRelaxMs},
        {"integrate", s.solverIntegrateMs}, {"store", s.solverStoreMs}};
  }
  if (const World* world = scene_ ? scene_->world() : nullptr)
    stats["step_count"] = world->stepCount();
  j["stats"] = stats;
  // Medians beside means: the first frames (shader compilation, the scene's first contacts) are
  // slow. render_cpu is the CPU time of all threads during the render (llvmpipe rasterises on
  // several), a figure that a busy machine does not inflate the way it does wall time.
  auto summary = [](const History& h) {
    return Json{{"mean", h.mean()}, {"median", h.median()}, {"max", h.max()}};
  };
  j["timing_ms"] = {{"frame", summary(frameHistory_)},
                    {"render", summary(renderHistory_)},
                    {"render_cpu", summary(renderCpuHistory_)},
                    {"step", summary(stepHistory_)},
                    {"frames_measured", renderHistory_.size()}};
  j["render"] = {{"bodies", renderer_ ? renderer_->lastBodyCount() : 0},
                 {"draw_calls", renderer_ ? renderer_->lastDrawCalls() : 0}};
  j["disagreements_outlined"] = debugView_ ? debugView_->disagreements().size() : 0;
  j["preset"] = {{"file", presetFile_}, {"message", presetMessage_}, {"failed", presetFailed_}};
  j["settings_error"] = settingsError_;
  j["scene_error"] = sceneError_;
  j["scene_state"] = Json::parse(scene_ ? scene_->stateJson() : std::string("{}"), nullptr, false);
  j["camera"] = {{"target", {camera_.target().x, camera_.target().y, camera_.target().z}},
                 {"eye", {camera_.eye().x, camera_.eye().y, camera_.eye().z}}};
  return j.dump(2) + "\n";
}

}  // namespace tumble::demo
