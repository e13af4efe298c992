#pragma once
// The demo application: SDL2 window, OpenGL 3.3 core context (glad), Dear ImGui, the orbit camera
// and the current scene, run frame by frame. app.cpp has the frame loop and the input,
// app_panel.cpp the ImGui panel, app_automation.cpp --script, presets and --dump-state.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "camera.h"
#include "debug_view.h"
#include "options.h"
#include "paths.h"
#include "renderer.h"
#include "sample.h"
#include "script.h"
#include "stats_history.h"
#include "tumble/collide_format.h"
#include "tumble/settings.h"
#include "tumble/stats.h"
#include "ui_state.h"

struct SDL_Window;

namespace tumble::demo {

class App {
 public:
  explicit App(Options options);
  App(const App&) = delete;
  App& operator=(const App&) = delete;
  ~App();

  /// Opens the window (or the offscreen surface) and runs until the window closes or the frame
  /// count is reached. Returns the process exit status: 0 ok, 2 a start-up failure (printed),
  /// 3 OpenGL errors in a debug build, 4 a script or --dump-state failure.
  int run();

 private:
  // app.cpp: lifetime, scenes, input.
  Expected<void> open();
  Expected<void> switchScene(std::string_view name);
  void restartScene();
  void cycleScene(int delta);
  void openInViewer(const CollideQuery& query);
  void handleEvents();
  /// A key press from the keyboard or a script (SDL keycode).
  void pressKey(int key, bool shift);
  void mouseButton(int x, int y, bool down, bool shift);
  void mouseMotion(int x, int y, int dx, int dy, bool left, bool right, bool shift);
  Ray mouseRay(int x, int y) const;
  void stepSimulation();
  /// The window size and the part the panel leaves free, into the sample context.
  void updateViewContext();
  void takeScreenshot(const std::string& file, int width, int height);
  void saveState();

  // app_panel.cpp: the ImGui windows.
  void drawPanel();
  void drawSceneBrowser();
  void drawSimulation();
  void drawTolerances();
  void drawPresets();
  void drawView();
  void drawStatsWindow();
  void drawHelp();
  /// One settings row (slider or input); returns true when the value changed.
  bool settingRow(const SettingInfo& info, bool slider);
  void setSettingFromUi(std::string_view key, const std::string& value);

  // app_automation.cpp: scripts, presets, --dump-state.
  void runScript();
  void savePresetTo(const std::string& file);
  void loadPresetFrom(const std::string& file);
  std::string stateJson();

  Options options_;
  DemoPaths paths_;
  /// The scenes of the browser: assets/scenes listed at start-up, and the sample classes.
  std::vector<SampleEntry> samples_;
  Settings settings_;
  OrbitCamera camera_;
  OrbitCamera homeCamera_;  ///< where the scene put the camera; C returns there
  SDL_Window* window_ = nullptr;
  void* glContext_ = nullptr;
  bool imguiReady_ = false;
  bool offscreen_ = false;  ///< SDL's offscreen video driver (EGL pbuffer, no window)
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<DebugView> debugView_;
  std::unique_ptr<SampleContext> context_;
  std::unique_ptr<Sample> scene_;
  std::string sceneName_;
  std::optional<CollideQuery> viewerQuery_;  ///< the pair the viewer was opened on, if any
  std::string sceneError_;
  std::string settingsError_;
  std::string presetMessage_;  ///< the last preset save/load result (an error is shown in red)
  bool presetFailed_ = false;
  std::string presetFile_ = "tumble-preset.json";

  // Remembered between runs (config folder), when there is one.
  std::optional<std::filesystem::path> configDir_;
  std::string imguiIni_;
  UiState ui_;

  // Simulation control.
  bool quit_ = false;
  bool paused_ = false;
  bool stepOnce_ = false;
  long long stepsTaken_ = 0;
  long long stepsWhilePaused_ = 0;  ///< steps taken since the last pause began (single steps)
  long long frame_ = 0;

  // Mouse.
  bool sceneDrag_ = false;  ///< the scene took the current left-button drag
  bool leftDown_ = false;
  int mouseX_ = 0, mouseY_ = 0;

  // The panel's horizontal extent in window pixels, as last drawn (at first where it opens):
  // World samples aim the camera at the rest of the window.
  static constexpr float kPanelX = 10.0f;
  static constexpr float kPanelWidth = 390.0f;
  float panelX0_ = kPanelX;
  float panelX1_ = kPanelX + kPanelWidth;

  std::vector<std::string> shapeNames_;  ///< assets/shapes, for the spawn shape

  // Statistics.
  StepStats stats_;
  bool haveStats_ = false;
  double stepMs_ = 0.0;
  double renderMs_ = 0.0;
  double renderCpuMs_ = 0.0;  ///< CPU time of all the process's threads (llvmpipe's too)
  double frameMs_ = 0.0;
  History frameHistory_, stepHistory_, renderHistory_, renderCpuHistory_, broadHistory_,
      narrowHistory_, solverHistory_, islandsHistory_;
  int stepThreads_ = 1;  ///< workers the last step ran on (World::threadCount)

  // Cross-check disagreements: the World writes them here (collide format).
  std::filesystem::path crosscheckLog_;

  // Automation.
  std::vector<ScriptAction> script_;
  size_t scriptNext_ = 0;
  std::string scriptError_;
  struct ScriptDrag {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0, frames = 1, done = 0;
    bool release = true;  ///< button up at the end (drag) or not (mousemove)
  };
  std::optional<ScriptDrag> scriptDrag_;
  std::string pendingScreenshot_;
};

}  // namespace tumble::demo
