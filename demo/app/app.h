#pragma once
// The demo application: SDL2 window, OpenGL 3.3 core context (glad), Dear ImGui, the orbit camera
// and the current scene, run frame by frame.
#include <memory>
#include <string>

#include "camera.h"
#include "options.h"
#include "paths.h"
#include "renderer.h"
#include "scene.h"
#include "tumble/settings.h"

struct SDL_Window;

namespace tumble::demo {

class App {
 public:
  explicit App(Options options);
  App(const App&) = delete;
  App& operator=(const App&) = delete;
  ~App();

  /// Opens the window (or the offscreen surface) and runs until the window closes or the frame
  /// count is reached. Returns the process exit status: 0 ok, 2 a start-up failure (printed).
  int run();

 private:
  std::optional<std::string> open();
  std::optional<std::string> switchScene(std::string_view name);
  void handleEvents();
  Ray mouseRay(int x, int y) const;
  void drawPanel(double frameMs);
  void drawSettings();

  Options options_;
  DemoPaths paths_;
  Settings settings_;
  OrbitCamera camera_;
  OrbitCamera homeCamera_;  ///< where the scene put the camera; R returns there
  SDL_Window* window_ = nullptr;
  void* glContext_ = nullptr;
  bool imguiReady_ = false;
  bool offscreen_ = false;  ///< SDL's offscreen video driver (EGL pbuffer, no window)
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<SceneContext> context_;
  std::unique_ptr<Scene> scene_;
  std::string sceneName_;
  std::string sceneError_;
  std::string settingsError_;
  bool quit_ = false;
  bool paused_ = false;
  bool stepOnce_ = false;
  bool sceneDrag_ = false;  ///< the scene took the current left-button drag
  double smoothedFrameMs_ = 0.0;
  double stepMs_ = 0.0;
  long long frame_ = 0;
};

}  // namespace tumble::demo
