#include "app.h"

#include <cstdio>
#include <cstdlib>

#include <SDL.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include "gl_util.h"

namespace tumble::demo {
namespace {

double secondsSince(Uint64 start) {
  return static_cast<double>(SDL_GetPerformanceCounter() - start) /
         static_cast<double>(SDL_GetPerformanceFrequency());
}

}  // namespace

App::App(Options options) : options_(std::move(options)), paths_(locatePaths()) {}

App::~App() {
  scene_.reset();
  renderer_.reset();  // GL objects go while the context is still current
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  if (glContext_) SDL_GL_DeleteContext(glContext_);
  if (window_) SDL_DestroyWindow(window_);
  SDL_Quit();
}

std::optional<std::string> App::open() {
  if (options_.headless) {
    // Must be set before SDL_Init: SDL's offscreen driver makes an EGL context on Mesa's llvmpipe,
    // with no X server or Wayland compositor.
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  }
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    return std::string("SDL_Init failed: ") + SDL_GetError();
  }
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  const char* driver = SDL_GetCurrentVideoDriver();
  offscreen_ = driver && std::string_view(driver) == "offscreen";
  if (offscreen_ && !options_.headless) {
    // SDL fell back to its offscreen driver: DISPLAY or WAYLAND_DISPLAY is set but unusable.
    return "no usable display: SDL could open neither X11 nor Wayland";
  }
  Uint32 flags = SDL_WINDOW_OPENGL;
  if (!options_.headless) flags |= SDL_WINDOW_RESIZABLE;
  window_ = SDL_CreateWindow("Tumble", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                             options_.width, options_.height, flags);
  if (!window_) return std::string("SDL_CreateWindow failed: ") + SDL_GetError();
  glContext_ = SDL_GL_CreateContext(window_);
  if (!glContext_) {
    return std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
  }
  SDL_GL_MakeCurrent(window_, glContext_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) {
    return "gladLoadGL failed: no OpenGL 3.3 core functions";
  }
  SDL_GL_SetSwapInterval(options_.headless ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini: every run starts the same
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(window_, glContext_);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;

  renderer_ = std::make_unique<Renderer>();
  if (auto error = renderer_->init(paths_.shaders)) return error;
  context_ =
      std::make_unique<SceneContext>(SceneContext{settings_, *renderer_, camera_, paths_.assets});
  checkGl("App::open");
  return std::nullopt;
}

std::optional<std::string> App::switchScene(std::string_view name) {
  const SceneEntry* entry = findScene(name);
  if (!entry) return "unknown scene '" + std::string(name) + "' (see --list-scenes)";
  scene_.reset();
  sceneDrag_ = false;
  renderer_->clearMeshes();
  camera_.reset();
  sceneName_ = std::string(name);
  std::unique_ptr<Scene> scene = makeScene(*entry);
  // Settings: the defaults, then the scene's own (create may set them), then --set.
  settings_ = Settings{};
  auto error = scene->create(*context_);
  for (const std::string& assignment : options_.set) setSettingAssignment(settings_, assignment);
  if (error) {
    renderer_->clearMeshes();
    sceneError_ = "scene " + sceneName_ + ": " + *error;
    return sceneError_;
  }
  sceneError_.clear();
  homeCamera_ = camera_;
  scene_ = std::move(scene);
  return std::nullopt;
}

Ray App::mouseRay(int x, int y) const {
  int w = 0, h = 0;
  SDL_GetWindowSize(window_, &w, &h);  // mouse events are in window (not drawable) pixels
  glm::vec3 origin, direction;
  camera_.pixelRay(static_cast<float>(x), static_cast<float>(y), w, h, origin, direction);
  return Ray{Vec3(origin), glm::normalize(Vec3(direction))};
}

void App::handleEvents() {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
      case SDL_QUIT:
        quit_ = true;
        break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
        break;
      case SDL_MOUSEBUTTONDOWN:
        if (!io.WantCaptureMouse && e.button.button == SDL_BUTTON_LEFT && scene_ &&
            !(SDL_GetModState() & KMOD_SHIFT)) {
          sceneDrag_ = scene_->onMouseDown(*context_, mouseRay(e.button.x, e.button.y));
        }
        break;
      case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_LEFT && sceneDrag_) {
          sceneDrag_ = false;
          if (scene_) scene_->onMouseUp(*context_);
        }
        break;
      case SDL_MOUSEMOTION:
        if (sceneDrag_ && scene_) {
          scene_->onMouseDrag(*context_, mouseRay(e.motion.x, e.motion.y));
          break;
        }
        if (io.WantCaptureMouse) break;
        if ((e.motion.state & SDL_BUTTON_RMASK) ||
            ((e.motion.state & SDL_BUTTON_LMASK) && (SDL_GetModState() & KMOD_SHIFT))) {
          int w = 0, h = 0;
          SDL_GL_GetDrawableSize(window_, &w, &h);
          camera_.pan(static_cast<float>(e.motion.xrel), static_cast<float>(e.motion.yrel), h);
        } else if (e.motion.state & SDL_BUTTON_LMASK) {
          camera_.orbit(static_cast<float>(e.motion.xrel), static_cast<float>(e.motion.yrel));
        }
        break;
      case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse) camera_.zoom(static_cast<float>(e.wheel.y));
        break;
      case SDL_KEYDOWN:
        if (io.WantCaptureKeyboard) break;
        switch (e.key.keysym.sym) {
          case SDLK_ESCAPE:
            quit_ = true;
            break;
          case SDLK_r:
            camera_ = homeCamera_;
            break;
          case SDLK_SPACE:
            paused_ = !paused_;
            break;
          case SDLK_s:
            stepOnce_ = true;
            break;
          case SDLK_F5:
            // Hot reload: edit shaders/*.{vert,frag} next to the executable, press F5.
            if (auto error = renderer_->reloadShaders()) {
              sceneError_ = *error;
            } else {
              sceneError_.clear();
            }
            break;
          default:
            if (scene_) scene_->onKey(*context_, e.key.keysym.sym);
        }
        break;
      default:
        break;
    }
  }
}

void App::drawSettings() {
  // A few keys open by default, all of them under "All settings"; the same names as scene files
  // and `tumble-cli --set`. Edits go through setSetting, which enforces each key's range.
  auto row = [&](const SettingInfo& info) {
    ImGui::PushID(info.key.data());
    const std::string label(info.key);
    std::optional<std::string> error;
    switch (info.kind) {
      case SettingKind::Number: {
        double v = *info.real(settings_);
        if (ImGui::InputDouble(label.c_str(), &v, 0.0, 0.0, "%.6g",
                               ImGuiInputTextFlags_EnterReturnsTrue)) {
          error = setSetting(settings_, info.key, std::to_string(v));
        }
        break;
      }
      case SettingKind::Integer: {
        int v = *info.integer(settings_);
        if (ImGui::InputInt(label.c_str(), &v)) {
          error = setSetting(settings_, info.key, std::to_string(v));
        }
        break;
      }
      case SettingKind::Vector: {
        double* first = info.real(settings_);
        double v[3] = {first[0], first[1], first[2]};
        if (ImGui::InputScalarN(label.c_str(), ImGuiDataType_Double, v, 3, nullptr, nullptr, "%.3g",
                                ImGuiInputTextFlags_EnterReturnsTrue)) {
          error = setSetting(
              settings_, info.key,
              std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]));
        }
        break;
      }
      case SettingKind::Boolean: {
        bool v = settingValue(settings_, info) == "true";
        if (ImGui::Checkbox(label.c_str(), &v)) {
          error = setSetting(settings_, info.key, v ? "true" : "false");
        }
        break;
      }
      case SettingKind::CrossCheck: {
        const char* modes[] = {"off", "sample", "all"};
        const std::string current = settingValue(settings_, info);
        int index = current == "all" ? 2 : current == "sample" ? 1 : 0;
        if (ImGui::Combo(label.c_str(), &index, modes, 3)) {
          error = setSetting(settings_, info.key, modes[index]);
        }
        break;
      }
    }
    if (error) settingsError_ = *error;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("%.*s [%.*s]", static_cast<int>(info.description.size()),
                        info.description.data(), static_cast<int>(info.unit.size()),
                        info.unit.data());
    }
    ImGui::PopID();
  };

  ImGui::PushItemWidth(150.0f);
  if (ImGui::CollapsingHeader("Settings", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const char* key : {"gravity", "dt", "solver.substeps", "solver.velocity_iterations",
                            "contact.slop", "crosscheck"}) {
      if (const SettingInfo* info = findSetting(key)) row(*info);
    }
  }
  if (ImGui::CollapsingHeader("All settings")) {
    for (const SettingInfo& info : settingsTable()) row(info);
  }
  ImGui::PopItemWidth();
  if (!settingsError_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", settingsError_.c_str());
    ImGui::PopTextWrapPos();
  }
}

void App::drawPanel(double frameMs) {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380.0f, 0.0f), ImGuiCond_FirstUseEver);
  ImGui::Begin("Tumble");
  ImGui::Text("%.1f FPS  %.2f ms/frame  step %.3f ms", frameMs > 0.0 ? 1000.0 / frameMs : 0.0,
              frameMs, stepMs_);
  const std::string current = sceneName_;
  if (ImGui::BeginCombo("scene", current.c_str())) {
    for (const SceneEntry& e : sceneTable()) {
      const bool selected = e.name == current;
      if (ImGui::Selectable(std::string(e.name).c_str(), selected)) {
        if (auto error = switchScene(e.name))
          std::fprintf(stderr, "tumble-demo: %s\n", error->c_str());
      }
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%.*s", static_cast<int>(e.description.size()), e.description.data());
      }
    }
    ImGui::EndCombo();
  }
  ImGui::Text("bodies %d  frame %lld%s", scene_ ? scene_->bodyCount() : 0, frame_,
              paused_ ? "  (paused)" : "");
  if (!sceneError_.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", sceneError_.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::TextDisabled("drag orbit/grab, right drag pan, wheel zoom, R reset");
  drawSettings();
  if (scene_) scene_->drawPanel(*context_);
  ImGui::End();
}

int App::run() {
  for (const std::string& assignment : options_.set) {
    if (auto error = setSettingAssignment(settings_, assignment)) {
      std::fprintf(stderr, "tumble-demo: --set %s: %s\n", assignment.c_str(), error->c_str());
      return 1;
    }
  }
  if (auto error = open()) {
    std::fprintf(stderr, "tumble-demo: %s\n", error->c_str());
    if (!options_.headless) {
      std::fprintf(stderr,
                   "tumble-demo: without a usable display, render offscreen instead:\n  %s\n",
                   headlessCommand("tumble-demo", std::string(kDefaultScene), "out.png").c_str());
    }
    return 2;
  }
  const std::string start = options_.scene.empty() ? std::string(kDefaultScene) : options_.scene;
  if (auto error = switchScene(start)) {
    std::fprintf(stderr, "tumble-demo: %s\n", error->c_str());
    return 2;
  }

  Uint64 last = SDL_GetPerformanceCounter();
  for (bool lastFrame = false; !lastFrame;) {
    handleEvents();  // a quit request still draws this frame, so --screenshot gets it
    const Uint64 now = SDL_GetPerformanceCounter();
    const double frameMs = 1000.0 * static_cast<double>(now - last) /
                           static_cast<double>(SDL_GetPerformanceFrequency());
    last = now;
    smoothedFrameMs_ = frame_ == 0 ? frameMs : 0.9 * smoothedFrameMs_ + 0.1 * frameMs;

    // One fixed step of settings.dt per frame: the same frames give the same pictures.
    if (scene_ && (!paused_ || stepOnce_)) {
      const Uint64 stepStart = SDL_GetPerformanceCounter();
      scene_->step(*context_);
      stepMs_ = 1000.0 * secondsSince(stepStart);
      stepOnce_ = false;
    }

    int width = 0, height = 0;
    SDL_GL_GetDrawableSize(window_, &width, &height);
    if (scene_) scene_->draw(*context_);
    renderer_->render(camera_, width, height);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    drawPanel(smoothedFrameMs_);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    checkGl("ImGui render");

    ++frame_;
    lastFrame = quit_ || (options_.frames > 0 && frame_ >= options_.frames);
    if (lastFrame && !options_.screenshot.empty()) {
      if (auto error = writeScreenshot(options_.screenshot, width, height)) {
        std::fprintf(stderr, "tumble-demo: %s\n", error->c_str());
        return 2;
      }
      std::printf("tumble-demo: wrote %s (%dx%d, scene %s, %lld frames)\n",
                  options_.screenshot.c_str(), width, height, sceneName_.c_str(), frame_);
    }
    SDL_GL_SwapWindow(window_);
    // SDL's offscreen driver draws into an EGL pbuffer, where swapping is a no-op: without a
    // flush Mesa keeps queueing every frame's commands and memory grows by ~0.6 MB a frame.
    if (offscreen_) glFinish();
  }
  if (glErrorCount() > 0) {
    std::fprintf(stderr, "tumble-demo: %d OpenGL errors (see above)\n", glErrorCount());
    return 3;
  }
  return 0;
}

}  // namespace tumble::demo
