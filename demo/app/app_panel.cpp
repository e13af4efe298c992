// The demo's ImGui windows: the panel (scene browser, simulation, tolerances and caps, presets,
// view and debug drawing), the statistics window (F2) and the help overlay (F1).
#include <cfloat>
#include <cmath>
#include <cstdio>

#include <SDL.h>
#include <imgui.h>

#include "app.h"
#include "controls.h"
#include "tumble/world.h"

namespace tumble::demo {
namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kOkColor(0.5f, 0.9f, 0.5f, 1.0f);

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

void wrapped(const ImVec4& color, const std::string& text) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextColored(color, "%s", text.c_str());
  ImGui::PopTextWrapPos();
}

// "[unit] in [min, max], default D: description" for a key's tooltip.
void settingTooltip(const SettingInfo& info) {
  static const Settings kDefaults{};
  const std::string unit = info.unit.empty() ? "no unit" : std::string(info.unit);
  ImGui::BeginTooltip();
  ImGui::Text("%s", std::string(info.key).c_str());
  ImGui::Text("%.*s", static_cast<int>(info.description.size()), info.description.data());
  if (info.kind == SettingKind::Boolean) {
    ImGui::Text("true or false; default %s", settingValue(kDefaults, info).c_str());
  } else if (info.kind == SettingKind::CrossCheck) {
    ImGui::Text("off, sample or all; default %s", settingValue(kDefaults, info).c_str());
  } else {
    ImGui::Text("unit: %s; valid range [%g, %g]%s", unit.c_str(), info.min, info.max,
                info.kind == SettingKind::Vector ? " per component" : "");
    ImGui::Text("default %s", settingValue(kDefaults, info).c_str());
  }
  ImGui::TextDisabled("applied on the next step");
  ImGui::EndTooltip();
}

}  // namespace

void App::setSettingFromUi(std::string_view key, const std::string& value) {
  if (auto error = setSetting(settings_, key, value); !error) {
    settingsError_ = error.error();
  } else {
    settingsError_.clear();
  }
}

bool App::settingRow(const SettingInfo& info, bool slider) {
  ImGui::PushID(info.key.data());
  const std::string label(info.key);
  const std::string before = settingValue(settings_, info);
  switch (info.kind) {
    case SettingKind::Number: {
      double v = *info.real(settings_);
      if (slider) {
        const double lo = info.min, hi = info.max;
        if (ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &v, &lo, &hi, "%.4g"))
          setSettingFromUi(info.key, number(v));
      } else if (ImGui::InputDouble(label.c_str(), &v, 0.0, 0.0, "%.6g",
                                    ImGuiInputTextFlags_EnterReturnsTrue)) {
        setSettingFromUi(info.key, number(v));
      }
      break;
    }
    case SettingKind::Integer: {
      int v = *info.integer(settings_);
      if (slider) {
        if (ImGui::SliderInt(label.c_str(), &v, static_cast<int>(info.min),
                             static_cast<int>(std::min(info.max, 100.0))))
          setSettingFromUi(info.key, std::to_string(v));
      } else if (ImGui::InputInt(label.c_str(), &v)) {
        setSettingFromUi(info.key, std::to_string(v));
      }
      break;
    }
    case SettingKind::Vector: {
      double* first = info.real(settings_);
      double v[3] = {first[0], first[1], first[2]};
      if (ImGui::InputScalarN(label.c_str(), ImGuiDataType_Double, v, 3, nullptr, nullptr, "%.3g",
                              ImGuiInputTextFlags_EnterReturnsTrue)) {
        setSettingFromUi(info.key, number(v[0]) + "," + number(v[1]) + "," + number(v[2]));
      }
      break;
    }
    case SettingKind::Boolean: {
      bool v = before == "true";
      if (ImGui::Checkbox(label.c_str(), &v)) setSettingFromUi(info.key, v ? "true" : "false");
      break;
    }
    case SettingKind::CrossCheck: {
      const char* modes[] = {"off", "sample", "all"};
      int index = before == "all" ? 2 : before == "sample" ? 1 : 0;
      if (ImGui::Combo(label.c_str(), &index, modes, 3)) setSettingFromUi(info.key, modes[index]);
      break;
    }
  }
  if (ImGui::IsItemHovered()) settingTooltip(info);
  ImGui::PopID();
  return settingValue(settings_, info) != before;
}

void App::drawSceneBrowser() {
  if (!ImGui::CollapsingHeader("Scenes", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::BeginChild("browser", ImVec2(0.0f, 8.2f * ImGui::GetTextLineHeightWithSpacing()), true);
  for (const std::string_view category : kSampleCategories) {
    ImGui::TextDisabled("%.*s", static_cast<int>(category.size()), category.data());
    for (const SampleEntry& e : samples_) {
      if (e.category != category) continue;
      ImGui::Indent();
      // A scene file that could not be read is listed in red; choosing it shows why.
      if (!e.problem.empty()) ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
      if (ImGui::Selectable(e.name.c_str(), e.name == sceneName_)) {
        if (auto error = switchScene(e.name); !error)
          std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
      }
      if (!e.problem.empty()) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", e.problem.empty() ? e.description.c_str() : e.problem.c_str());
      }
      ImGui::Unindent();
    }
  }
  ImGui::EndChild();
  if (ImGui::Button("< prev")) cycleScene(-1);
  ImGui::SameLine();
  if (ImGui::Button("next >")) cycleScene(+1);
  ImGui::SameLine();
  if (ImGui::Button("restart (R)")) restartScene();
  ImGui::SameLine();
  if (ImGui::Button(paused_ ? "resume (P)" : "pause (P)")) pressKey(SDLK_p, false);
  ImGui::SameLine();
  if (ImGui::Button("step (O)")) pressKey(SDLK_o, false);
}

void App::drawSimulation() {
  if (!ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) return;
  // The step rate is 1 / dt; one step is taken per frame.
  float hertz = static_cast<float>(1.0 / settings_.dt);
  if (ImGui::SliderFloat("step rate (Hz)", &hertz, 10.0f, 240.0f, "%.0f")) {
    setSettingFromUi("dt", number(1.0 / static_cast<double>(std::round(hertz))));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("dt = 1 / rate; one step per frame");
  for (const char* key :
       {"solver.substeps", "solver.velocity_iterations", "solver.position_iterations"}) {
    if (const SettingInfo* info = findSetting(key)) settingRow(*info, true);
  }
  for (const char* key : {"gravity", "sleep.enabled", "solver.warm_starting", "crosscheck"}) {
    if (const SettingInfo* info = findSetting(key)) settingRow(*info, false);
  }
  if (const SettingInfo* info = findSetting("crosscheck.sample_rate")) settingRow(*info, true);
}

void App::drawTolerances() {
  if (!ImGui::CollapsingHeader("Tolerances and caps")) return;
  static const Settings kDefaults{};
  ImGui::TextDisabled("every key; hover for unit and range");
  if (ImGui::Button("reset all to defaults")) {
    settings_ = kDefaults;
    settingsError_.clear();
  }
  ImGui::PushItemWidth(105.0f);  // room for the longest key beside the field
  for (const SettingInfo& info : settingsTable()) {
    ImGui::PushID(info.key.data());
    const std::string defaultValue = settingValue(kDefaults, info);
    const bool isDefault = settingValue(settings_, info) == defaultValue;
    if (isDefault) ImGui::BeginDisabled();
    if (ImGui::SmallButton("reset")) setSettingFromUi(info.key, defaultValue);
    if (isDefault) ImGui::EndDisabled();
    ImGui::SameLine();
    settingRow(info, false);
    ImGui::PopID();
  }
  ImGui::PopItemWidth();
}

void App::drawPresets() {
  if (!ImGui::CollapsingHeader("Presets")) return;
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%s", presetFile_.c_str());
  if (ImGui::InputText("file", buffer, sizeof buffer)) presetFile_ = buffer;
  if (ImGui::Button("save preset")) savePresetTo(presetFile_);
  ImGui::SameLine();
  if (ImGui::Button("load preset")) loadPresetFrom(presetFile_);
  if (!presetMessage_.empty() && !presetFailed_) wrapped(kOkColor, presetMessage_);
}

void App::drawView() {
  if (!ImGui::CollapsingHeader("View and debug drawing")) return;
  if (ImGui::Button("reset camera (C)")) camera_ = homeCamera_;
  ImGui::SameLine();
  ImGui::Checkbox("statistics (F2)", &ui_.showStats);
  ImGui::SameLine();
  ImGui::Checkbox("help (F1)", &ui_.showHelp);
  if (ImGui::SliderFloat("font scale", &ui_.fontScale, 0.5f, 3.0f, "%.2f"))
    ImGui::GetIO().FontGlobalScale = ui_.fontScale;
  if (ImGui::Checkbox("vsync", &ui_.vsync) && !options_.headless)
    SDL_GL_SetSwapInterval(ui_.vsync ? 1 : 0);
  DebugToggles& d = ui_.debug;
  ImGui::Checkbox("faces", &d.faces);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the bodies' surfaces: hulls, triangle meshes and height fields flat shaded, spheres and "
        "capsules smooth, a compound's children each with its own");
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("edges", &d.edges);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "hull edges, a sphere's equator and meridian, a capsule's rims and meridian, a mesh's or "
        "height field's boundary and creases over 20 degrees; with the faces off, wireframes: "
        "hull edges, a round shape's core and the circles at its radius, every triangle's edges");
  ImGui::Checkbox("AABBs", &d.aabbs);
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("broad-phase tree", &d.tree);
  ImGui::Checkbox("contact points", &d.contacts);
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("contact normals", &d.normals);
  ImGui::Checkbox("impulses", &d.impulses);
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("islands", &d.islands);
  ImGui::Checkbox("sleep state", &d.sleep);
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("centres of mass", &d.centers);
  ImGui::Checkbox("joints", &d.joints);
  ImGui::SameLine(190.0f);
  ImGui::Checkbox("velocities", &d.velocities);
  ImGui::Checkbox("cross-check pairs", &d.crosscheck);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "outline pairs where GJK and the LP test disagree; click one to open it "
        "in the GJK viewer (needs crosscheck = sample or all)");
  ImGui::Checkbox("shape trees", &d.shapeTrees);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the static trees (BVH) of triangle meshes and compounds, placed with their bodies: inner "
        "nodes violet, leaves (a triangle, a compound's child) yellow-green; a height field's box");
  if (d.shapeTrees) {
    ImGui::SameLine(190.0f);
    ImGui::SetNextItemWidth(110.0f);
    ImGui::SliderInt("tree depth", &d.shapeTreeDepth, 0, kMaxShapeTreeDepth);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the nodes from the root (0) down to this depth");
  }
  const auto& found = debugView_->disagreements();
  if (!found.empty()) {
    ImGui::TextColored(kErrorColor, "%zu disagreements outlined", found.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("open newest")) openInViewer(found.back().query);
  }
}

void App::drawStatsWindow() {
  if (!ui_.showStats) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 370.0f, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360.0f, 520.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Statistics", &ui_.showStats)) {
    ImGui::End();
    return;
  }
  ImGui::Text("%.1f FPS, frame %.2f ms (mean %.2f)",
              frameHistory_.mean() > 0 ? 1000.0f / frameHistory_.mean() : 0.0f, frameMs_,
              frameHistory_.mean());
  const StepStats& s = stats_;
  if (haveStats_) {
    ImGui::Text("bodies %d, awake %d, islands %d", s.bodies, s.awakeBodies, s.islands);
    ImGui::Text("pairs %d, manifolds %d, contacts %d", s.pairs, s.manifolds, s.contacts);
    ImGui::Text("GJK %d calls, iterations mean %.2f max %d", s.gjkCalls, s.gjkIterationsMean,
                s.gjkIterationsMax);
    ImGui::Text("EPA %d calls, iterations mean %.2f max %d", s.epaCalls, s.epaIterationsMean,
                s.epaIterationsMax);
    ImGui::Text("LP pivots %lld (this step)", static_cast<long long>(s.lpPivots));
    ImGui::Text("cross-check: %lld checked, %lld disagree",
                static_cast<long long>(s.crosscheckChecked),
                static_cast<long long>(s.crosscheckDisagreed));
    ImGui::Text("caps hit: GJK %d, EPA %d; max penetration %.4f m", s.gjkMaxIterationsHit,
                s.epaMaxIterationsHit, s.maxPenetration);
    // The threads setting as a workers slider (0: every core) beside the times it changes; the
    // result is the same at any count.
    if (const SettingInfo* info = findSetting("threads")) {
      int workers = settings_.threads;
      ImGui::PushItemWidth(160.0f);
      if (ImGui::SliderInt("workers", &workers, 0, std::max(8, hardwareThreads()),
                           workers == 0 ? "all cores" : "%d"))
        setSettingFromUi(info->key, std::to_string(workers));
      ImGui::PopItemWidth();
      if (ImGui::IsItemHovered()) settingTooltip(*info);
    }
    ImGui::Text("step %.2f ms (wall) on %d worker%s:", s.stepMs, stepThreads_,
                stepThreads_ == 1 ? "" : "s");
    ImGui::Text("  broad-phase %.2f, narrow-phase %.2f", s.broadphaseMs, s.narrowphaseMs);
    ImGui::Text("  solver %.2f, islands %.2f", s.solverMs, s.islandsMs);
    // The solver's stages, three lines that fit the window's default width.
    ImGui::TextDisabled("  solver: prepare %.2f, warm start %.2f", s.solverPrepareMs,
                        s.solverWarmStartMs);
    ImGui::TextDisabled("    solve %.2f, relax %.2f", s.solverSolveMs, s.solverRelaxMs);
    ImGui::TextDisabled("    integrate %.2f, store %.2f", s.solverIntegrateMs, s.solverStoreMs);
  } else {
    ImGui::TextDisabled("bodies %d (this scene has no World)", scene_ ? scene_->bodyCount() : 0);
  }
  auto series = [&](const char* name, const History& h) {
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "%s %.2f ms (mean %.2f, max %.2f)", name, h.last(),
                  h.mean(), h.max());
    ImGui::PushID(name);
    ImGui::PlotLines("##plot", h.data(), h.size(), h.offset(), overlay, 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, 42.0f));
    ImGui::PopID();
  };
  ImGui::Separator();
  ImGui::TextDisabled("last %d frames", History::kSize);
  series("frame", frameHistory_);
  series("render", renderHistory_);
  series("render CPU", renderCpuHistory_);
  series("step", stepHistory_);
  if (haveStats_) {
    series("broad-phase", broadHistory_);
    series("narrow-phase", narrowHistory_);
    series("solver", solverHistory_);
    series("islands", islandsHistory_);
  }
  ImGui::Text("render: %d bodies in %d draw calls", renderer_->lastBodyCount(),
              renderer_->lastDrawCalls());
  ImGui::End();
}

void App::drawHelp() {
  if (!ui_.showHelp) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (!ImGui::Begin("Controls (F1 closes)", &ui_.showHelp,
                    ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTable("controls", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    for (const Control& c : controlsTable()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%.*s", static_cast<int>(c.input.size()), c.input.data());
      ImGui::TableNextColumn();
      ImGui::Text("%.*s", static_cast<int>(c.action.size()), c.action.data());
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void App::drawPanel() {
  ImGui::SetNextWindowPos(ImVec2(kPanelX, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, 690.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("Tumble");
  // Where the panel is now (a collapsed one covers only its title bar): World samples aim the
  // camera beside it.
  panelX0_ = ImGui::GetWindowPos().x;
  panelX1_ = ImGui::IsWindowCollapsed() ? panelX0_ : panelX0_ + ImGui::GetWindowSize().x;
  // First line: the measured times (left out of the golden-image comparisons).
  ImGui::Text("%.1f FPS  %.2f ms/frame  step %.2f  render %.2f",
              frameMs_ > 0.0 ? 1000.0 / frameMs_ : 0.0, frameMs_, stepMs_, renderMs_);
  ImGui::Text("%s: %d bodies  frame %lld%s", sceneName_.c_str(), scene_ ? scene_->bodyCount() : 0,
              frame_, paused_ ? "  (paused)" : "");
  if (!sceneError_.empty()) wrapped(kErrorColor, sceneError_);
  if (!scriptError_.empty()) wrapped(kErrorColor, "script: " + scriptError_);
  if (presetFailed_) wrapped(kErrorColor, presetMessage_);
  ImGui::TextDisabled("F1 help  drag orbit/grab  right drag pan  wheel zoom");
  ImGui::PushItemWidth(170.0f);
  drawSceneBrowser();
  drawSimulation();
  if (!settingsError_.empty()) wrapped(kErrorColor, settingsError_);
  drawTolerances();
  drawPresets();
  drawView();
  ImGui::PopItemWidth();
  if (scene_) scene_->drawPanel(*context_);
  ImGui::End();
  drawStatsWindow();
  drawHelp();
}

}  // namespace tumble::demo
