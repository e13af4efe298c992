#include "app.h"

#include <time.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <system_error>

#include <SDL.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>
#include <unistd.h>

#include "gl_util.h"
#include "sample_gjk_viewer.h"
#include "tumble/shape_file.h"
#include "tumble/world.h"
#include "world_sample.h"

namespace tumble::demo {
namespace {

// CPU time of the whole process (every thread, so also Mesa llvmpipe's rasteriser threads), ms.
double processCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

double msSince(Uint64 start) {
  return 1000.0 * static_cast<double>(SDL_GetPerformanceCounter() - start) /
         static_cast<double>(SDL_GetPerformanceFrequency());
}

constexpr float kKeyOrbitPixels = 12.0f;  // an arrow key turns like a 12-pixel drag

}  // namespace

App::App(Options options)
    : options_(std::move(options)), paths_(locatePaths()), samples_(listSamples(paths_.assets)) {
  paused_ = options_.paused;
}

App::~App() {
  saveState();
  scene_.reset();
  debugView_.reset();
  renderer_.reset();  // GL objects go while the context is still current
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  if (glContext_) SDL_GL_DeleteContext(glContext_);
  if (window_) SDL_DestroyWindow(window_);
  SDL_Quit();
  std::error_code ec;
  if (!crosscheckLog_.empty()) std::filesystem::remove(crosscheckLog_, ec);
}

Expected<void> App::open() {
  if (options_.headless) {
    // Must be set before SDL_Init: SDL's offscreen driver makes an EGL context on Mesa's llvmpipe,
    // with no X server or Wayland compositor.
    setenv("SDL_VIDEODRIVER", "offscreen", 1);
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  }
  // Headless runs (tests, CI) neither read nor write the user's config unless asked to.
  const char* envDir = std::getenv("TUMBLE_CONFIG_DIR");
  if (!options_.headless || !options_.configDir.empty() || (envDir && *envDir)) {
    configDir_ = configDirectory(options_.configDir);
  }
  if (configDir_) {
    auto state = loadUiState(*configDir_ / "state.json");
    if (state) {
      ui_ = *state;
    } else {
      std::fprintf(stderr, "tumble-demo: %s (using defaults)\n", state.error().c_str());
    }
  }
  if (options_.headless) ui_.showHelp = false;

  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    return Expected<void>::failure(std::string("SDL_Init failed: ") + SDL_GetError());
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
    return Expected<void>::failure("no usable display: SDL could open neither X11 nor Wayland");
  }
  Uint32 flags = SDL_WINDOW_OPENGL;
  if (!options_.headless) flags |= SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  window_ = SDL_CreateWindow("Tumble", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                             options_.width, options_.height, flags);
  if (!window_)
    return Expected<void>::failure(std::string("SDL_CreateWindow failed: ") + SDL_GetError());
  glContext_ = SDL_GL_CreateContext(window_);
  if (!glContext_) {
    return Expected<void>::failure(std::string("cannot create an OpenGL 3.3 core context: ") +
                                   SDL_GetError());
  }
  SDL_GL_MakeCurrent(window_, glContext_);
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) {
    return Expected<void>::failure("gladLoadGL failed: no OpenGL 3.3 core functions");
  }
  SDL_GL_SetSwapInterval(options_.headless || !ui_.vsync ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  if (configDir_) {
    std::error_code ec;
    std::filesystem::create_directories(*configDir_, ec);
    imguiIni_ = (*configDir_ / "imgui.ini").string();
    io.IniFilename = imguiIni_.c_str();
  } else {
    io.IniFilename = nullptr;  // headless: every run starts the same
  }
  io.FontGlobalScale = ui_.fontScale;
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(window_, glContext_);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  imguiReady_ = true;

  renderer_ = std::make_unique<Renderer>();
  if (auto error = renderer_->init(paths_.shaders); !error) return error;
  debugView_ = std::make_unique<DebugView>(*renderer_);
  context_ = std::make_unique<SampleContext>(SampleContext{
      settings_, *renderer_, camera_, paths_.assets, shapeNames_, ui_.spawnShape, ui_.debug.sleep,
      options_.width, options_.height, ViewRegion{}, 0, 0, &paused_});
  updateViewContext();
  if (auto shapes = loadShapeLibrary(paths_.assets / "shapes")) {
    for (const ShapeDef& s : *shapes) shapeNames_.push_back(s.name);
  }
  const auto tmp = std::filesystem::temp_directory_path();
  crosscheckLog_ = tmp / ("tumble-demo-crosscheck-" + std::to_string(getpid()) + ".jsonl");
  checkGl("App::open");
  return tumble::ok();
}

Expected<void> App::switchScene(std::string_view name) {
  const SampleEntry* entry = findSample(samples_, name);
  if (!entry)
    return Expected<void>::failure("unknown scene '" + std::string(name) + "' (see --list-scenes)");
  scene_.reset();
  sceneDrag_ = false;
  renderer_->clearMeshes();
  camera_.reset();
  sceneName_ = std::string(name);
  haveStats_ = false;
  std::error_code ec;
  std::filesystem::remove(crosscheckLog_, ec);
  debugView_->clearDisagreements();
  viewerQuery_.reset();
  std::unique_ptr<Sample> scene = makeSample(*entry);
  // Settings: the defaults, then the scene's own (create may set them), then --set.
  settings_ = Settings{};
  Expected<void> created = scene->create(*context_);
  // run() refused bad --set values before any scene was made.
  for (const std::string& assignment : options_.set)
    (void)setSettingAssignment(settings_, assignment);
  if (!created) {
    renderer_->clearMeshes();
    sceneError_ = "scene " + sceneName_ + ": " + created.error();
    return Expected<void>::failure(sceneError_);
  }
  sceneError_.clear();
  homeCamera_ = camera_;
  scene_ = std::move(scene);
  if (World* world = scene_->world()) world->setCrossCheckLog(crosscheckLog_.string());
  ui_.lastScene = sceneName_;
  return tumble::ok();
}

void App::restartScene() {
  // Box2D's samples keep the panel's settings over a restart; so does this.
  const Settings kept = settings_;
  const OrbitCamera camera = camera_;
  if (viewerQuery_) {
    // A disagreement opened in the viewer restarts as that pair, not the viewer's default one.
    const CollideQuery query = *viewerQuery_;
    openInViewer(query);
    settings_ = kept;
    camera_ = camera;
    return;
  }
  if (auto error = switchScene(sceneName_); !error) {
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
    return;
  }
  settings_ = kept;
  camera_ = camera;
}

void App::cycleScene(int delta) {
  const auto& table = samples_;
  const int n = static_cast<int>(table.size());
  int index = 0;
  for (int i = 0; i < n; ++i)
    if (table[static_cast<size_t>(i)].name == sceneName_) index = i;
  index = ((index + delta) % n + n) % n;
  if (auto error = switchScene(table[static_cast<size_t>(index)].name); !error)
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
}

void App::openInViewer(const CollideQuery& query) {
  scene_.reset();
  sceneDrag_ = false;
  renderer_->clearMeshes();
  camera_.reset();
  std::unique_ptr<Sample> scene = makeGjkViewerSample(query);
  if (auto error = scene->create(*context_); !error) {
    sceneError_ = "gjk viewer: " + error.error();
    return;
  }
  sceneError_.clear();
  sceneName_ = "gjk";
  haveStats_ = false;
  homeCamera_ = camera_;
  scene_ = std::move(scene);
  viewerQuery_ = query;
}

Ray App::mouseRay(int x, int y) const {
  int w = 0, h = 0;
  SDL_GetWindowSize(window_, &w, &h);  // mouse events are in window (not drawable) pixels
  glm::vec3 origin, direction;
  camera_.pixelRay(static_cast<float>(x), static_cast<float>(y), w, h, origin, direction);
  return Ray{Vec3(origin), glm::normalize(Vec3(direction))};
}

void App::mouseButton(int x, int y, bool down, bool shift) {
  mouseX_ = x;
  mouseY_ = y;
  if (!down) {
    leftDown_ = false;
    if (sceneDrag_) {
      sceneDrag_ = false;
      if (scene_) scene_->onMouseUp(*context_);
    }
    return;
  }
  leftDown_ = true;
  if (shift || !scene_) return;
  const Ray ray = mouseRay(x, y);
  if (ui_.debug.crosscheck && scene_->world()) {
    if (auto query = debugView_->pickDisagreement(ray.origin, ray.direction)) {
      leftDown_ = false;
      openInViewer(*query);
      return;
    }
  }
  sceneDrag_ = scene_->onMouseDown(*context_, ray);
}

void App::mouseMotion(int x, int y, int dx, int dy, bool left, bool right, bool shift) {
  mouseX_ = x;
  mouseY_ = y;
  if (sceneDrag_ && scene_) {
    scene_->onMouseDrag(*context_, mouseRay(x, y));
    return;
  }
  if (right || (left && shift)) {
    int w = 0, h = 0;
    SDL_GetWindowSize(window_, &w, &h);
    camera_.pan(static_cast<float>(dx), static_cast<float>(dy), h);
  } else if (left) {
    camera_.orbit(static_cast<float>(dx), static_cast<float>(dy));
  }
}

void App::pressKey(int key, bool shift) {
  switch (key) {
    case SDLK_ESCAPE:
      quit_ = true;
      return;
    case SDLK_F1:
      ui_.showHelp = !ui_.showHelp;
      return;
    case SDLK_F2:
      ui_.showStats = !ui_.showStats;
      return;
    case SDLK_F5:
      // Hot reload: edit shaders/*.{vert,frag} next to the executable, press F5.
      if (auto error = renderer_->reloadShaders(); !error) {
        sceneError_ = error.error();
      } else {
        sceneError_.clear();
      }
      return;
    case SDLK_F12: {
      char name[64];
      const std::time_t now = std::time(nullptr);
      std::strftime(name, sizeof name, "tumble-%Y%m%d-%H%M%S.png", std::localtime(&now));
      pendingScreenshot_ = name;
      return;
    }
    case SDLK_PAGEUP:
      cycleScene(-1);
      return;
    case SDLK_PAGEDOWN:
      cycleScene(+1);
      return;
    case SDLK_r:
      restartScene();
      return;
    case SDLK_p:
      paused_ = !paused_;
      stepsWhilePaused_ = 0;
      return;
    case SDLK_o:
      if (!paused_) stepsWhilePaused_ = 0;
      paused_ = true;
      stepOnce_ = true;
      return;
    case SDLK_c:
      camera_ = homeCamera_;
      return;
    default:
      break;
  }
  if (scene_ && scene_->onKey(*context_, key)) return;
  // Keys the scene left: the camera.
  int w = 0, h = 0;
  SDL_GetWindowSize(window_, &w, &h);
  const float step = kKeyOrbitPixels;
  switch (key) {
    case SDLK_LEFT:
      shift ? camera_.pan(-step, 0, h) : camera_.orbit(-step, 0);
      break;
    case SDLK_RIGHT:
      shift ? camera_.pan(step, 0, h) : camera_.orbit(step, 0);
      break;
    case SDLK_UP:
      shift ? camera_.pan(0, -step, h) : camera_.orbit(0, -step);
      break;
    case SDLK_DOWN:
      shift ? camera_.pan(0, step, h) : camera_.orbit(0, step);
      break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS:
      camera_.zoom(1.0f);
      break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      camera_.zoom(-1.0f);
      break;
    case SDLK_HOME:
      camera_ = homeCamera_;
      break;
    default:
      break;
  }
}

void App::handleEvents() {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    ImGui_ImplSDL2_ProcessEvent(&e);
    const ImGuiIO& io = ImGui::GetIO();
    const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
    switch (e.type) {
      case SDL_QUIT:
        quit_ = true;
        break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_CLOSE) quit_ = true;
        break;
      case SDL_MOUSEBUTTONDOWN:
        if (!io.WantCaptureMouse && e.button.button == SDL_BUTTON_LEFT)
          mouseButton(e.button.x, e.button.y, true, shift);
        break;
      case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_LEFT && (leftDown_ || sceneDrag_))
          mouseButton(e.button.x, e.button.y, false, shift);
        break;
      case SDL_MOUSEMOTION:
        if (io.WantCaptureMouse && !sceneDrag_ && !leftDown_) break;
        mouseMotion(e.motion.x, e.motion.y, e.motion.xrel, e.motion.yrel,
                    (e.motion.state & SDL_BUTTON_LMASK) && leftDown_,
                    (e.motion.state & SDL_BUTTON_RMASK) && !io.WantCaptureMouse, shift);
        break;
      case SDL_MOUSEWHEEL:
        if (!io.WantCaptureMouse) camera_.zoom(static_cast<float>(e.wheel.y));
        break;
      case SDL_KEYDOWN:
        if (io.WantCaptureKeyboard) break;
        pressKey(e.key.keysym.sym, shift);
        break;
      default:
        break;
    }
  }
}

void App::updateViewContext() {
  // The panel's pixels are the window's (not the drawable's, which differ on high-DPI screens).
  int w = options_.width, h = options_.height;
  if (window_) SDL_GetWindowSize(window_, &w, &h);
  context_->windowWidth = w;
  context_->windowHeight = h;
  context_->besidePanel = regionBesidePanel(panelX0_, panelX1_, static_cast<float>(w));
  context_->mouseX = mouseX_;
  context_->mouseY = mouseY_;
}

void App::stepSimulation() {
  if (!scene_ || (paused_ && !stepOnce_)) return;
  const Uint64 start = SDL_GetPerformanceCounter();
  scene_->step(*context_);
  stepMs_ = msSince(start);
  if (paused_) ++stepsWhilePaused_;
  stepOnce_ = false;
  ++stepsTaken_;
  stepHistory_.push(static_cast<float>(stepMs_));
  if (World* world = scene_->world()) {
    stats_ = world->stats();
    haveStats_ = true;
    broadHistory_.push(static_cast<float>(stats_.broadphaseMs));
    narrowHistory_.push(static_cast<float>(stats_.narrowphaseMs));
    solverHistory_.push(static_cast<float>(stats_.solverMs));
    islandsHistory_.push(static_cast<float>(stats_.islandsMs));
    stepThreads_ = world->threadCount();
    if (settings_.crosscheck != CrossCheckMode::Off) debugView_->pollDisagreements(crosscheckLog_);
  }
}

void App::takeScreenshot(const std::string& file, int width, int height) {
  // writeScreenshot replaces the file atomically: a reader never sees half a PNG.
  if (auto error = writeScreenshot(file, width, height); !error) {
    sceneError_ = error.error();
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
  } else {
    std::printf("tumble-demo: wrote %s\n", file.c_str());
  }
}

void App::saveState() {
  if (!configDir_ || !imguiReady_) return;
  if (auto error = saveUiState(*configDir_ / "state.json", ui_); !error)
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
}

int App::run() {
  for (const std::string& assignment : options_.set) {
    if (auto error = setSettingAssignment(settings_, assignment); !error) {
      std::fprintf(stderr, "tumble-demo: --set %s: %s\n", assignment.c_str(),
                   error.error().c_str());
      return 1;
    }
  }
  if (!options_.script.empty()) {
    auto script = loadScript(options_.script);
    if (!script) {
      std::fprintf(stderr, "tumble-demo: %s\n", script.error().c_str());
      return 1;
    }
    script_ = std::move(*script);
  }
  if (auto error = open(); !error) {
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
    if (!options_.headless) {
      std::fprintf(stderr,
                   "tumble-demo: without a usable display, render offscreen instead:\n  %s\n",
                   headlessCommand("tumble-demo", std::string(kDefaultSample), "out.png").c_str());
    }
    return 2;
  }
  std::string start = options_.scene;
  if (start.empty() && findSample(samples_, ui_.lastScene)) start = ui_.lastScene;
  if (start.empty()) start = std::string(kDefaultSample);
  if (auto error = switchScene(start); !error) {
    std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
    return 2;
  }
  if (!options_.loadSnapshot.empty()) {
    auto* sample = dynamic_cast<WorldSample*>(scene_.get());
    const Expected<void> loaded =
        sample ? sample->restoreSnapshot(*context_, options_.loadSnapshot)
               : Expected<void>::failure("scene " + start + " has no world (choose a World scene)");
    if (!loaded) {
      std::fprintf(stderr, "tumble-demo: --load-snapshot %s\n", loaded.error().c_str());
      return 2;
    }
  }

  Uint64 last = SDL_GetPerformanceCounter();
  for (bool lastFrame = false; !lastFrame;) {
    handleEvents();  // a quit request still draws this frame, so --screenshot gets it
    updateViewContext();
    runScript();
    const Uint64 now = SDL_GetPerformanceCounter();
    frameMs_ = 1000.0 * static_cast<double>(now - last) /
               static_cast<double>(SDL_GetPerformanceFrequency());
    last = now;
    if (frame_ > 0) frameHistory_.push(static_cast<float>(frameMs_));

    // One fixed step of settings.dt per frame: the same frames give the same pictures.
    stepSimulation();

    // Render time: the scene's draw calls, the debug view, the renderer, the panel, and a
    // glFinish so that the GL driver's work is inside the measurement.
    const Uint64 renderStart = SDL_GetPerformanceCounter();
    const double renderCpuStart = processCpuMs();
    int width = 0, height = 0;
    SDL_GL_GetDrawableSize(window_, &width, &height);
    renderer_->setBodyStyle(ui_.debug.faces, ui_.debug.edges);
    context_->dimSleeping = ui_.debug.sleep;
    if (scene_) scene_->draw(*context_);
    if (scene_ && scene_->world()) debugView_->draw(*scene_->world(), ui_.debug);
    renderer_->render(camera_, width, height);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    drawPanel();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    checkGl("ImGui render");
    glFinish();
    renderMs_ = msSince(renderStart);
    renderCpuMs_ = processCpuMs() - renderCpuStart;
    renderHistory_.push(static_cast<float>(renderMs_));
    renderCpuHistory_.push(static_cast<float>(renderCpuMs_));

    ++frame_;
    lastFrame = quit_ || (options_.frames > 0 && frame_ >= options_.frames);
    if (!pendingScreenshot_.empty()) {
      takeScreenshot(pendingScreenshot_, width, height);
      pendingScreenshot_.clear();
    }
    if (lastFrame && !options_.screenshot.empty()) {
      if (auto error = writeScreenshot(options_.screenshot, width, height); !error) {
        std::fprintf(stderr, "tumble-demo: %s\n", error.error().c_str());
        return 2;
      }
      std::printf("tumble-demo: wrote %s (%dx%d, scene %s, %lld frames)\n",
                  options_.screenshot.c_str(), width, height, sceneName_.c_str(), frame_);
    }
    SDL_GL_SwapWindow(window_);
  }
  if (!options_.dumpState.empty()) {
    if (auto error = writeFileAtomically(options_.dumpState, stateJson()); !error) {
      std::fprintf(stderr, "tumble-demo: --dump-state: %s\n", error.error().c_str());
      return 4;
    }
  }
  if (!scriptError_.empty()) {
    std::fprintf(stderr, "tumble-demo: script: %s\n", scriptError_.c_str());
    return 4;
  }
  if (glErrorCount() > 0) {
    std::fprintf(stderr, "tumble-demo: %d OpenGL errors (see above)\n", glErrorCount());
    return 3;
  }
  return 0;
}

}  // namespace tumble::demo
