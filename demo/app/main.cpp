// tumble-demo: Tumble's scenes in an SDL2 window with OpenGL 3.3 core and Dear ImGui.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app.h"
#include "controls.h"
#include "options.h"
#include "paths.h"
#include "sample.h"
#include "sample_gjk_viewer.h"

namespace {

bool hasDisplay() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 && *x11) || (wayland && *wayland);
}

// Written to the working directory when the demo falls back to a headless run.
constexpr const char* kFallbackScreenshot = "tumble-demo-headless.png";

}  // namespace

int main(int argc, char** argv) {
  using namespace tumble::demo;
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  auto options = parseOptions(args, error);
  if (!options) {
    std::fprintf(stderr, "tumble-demo: %s\n", error.c_str());
    return 1;
  }
  // The gjk scene reads the pair from the environment (no app plumbing; see sample_gjk_viewer.h).
  if (!options->viewerPair.empty()) setenv(kViewerPairEnv, options->viewerPair.c_str(), 1);
  if (options->help) {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  if (options->controlsMarkdown) {
    std::fputs(controlsMarkdown().c_str(), stdout);
    return 0;
  }
  // The scene files of assets/scenes (by name) and the sample classes.
  const std::vector<SampleEntry> samples = listSamples(locatePaths().assets);
  if (options->listScenes) {
    for (const SampleEntry& e : samples) {
      const std::string text = e.problem.empty() ? e.description : "(" + e.problem + ")";
      std::printf("%-17s %-9s %s\n", e.name.c_str(), e.category.c_str(), text.c_str());
    }
    return 0;
  }
  if (!options->scene.empty() && !findSample(samples, options->scene)) {
    std::fprintf(stderr, "tumble-demo: unknown scene '%s'; known scenes:", options->scene.c_str());
    for (const SampleEntry& e : samples) std::fprintf(stderr, " %s", e.name.c_str());
    std::fprintf(stderr, "\n");
    return 1;
  }

  if (!options->headless && !hasDisplay()) {
    // No window can open: render the scene offscreen instead and say where the picture went.
    const std::string scene = options->scene.empty() ? std::string(kDefaultSample) : options->scene;
    if (options->frames == 0) options->frames = 30;
    if (options->screenshot.empty()) options->screenshot = kFallbackScreenshot;
    options->headless = true;
    std::printf(
        "tumble-demo: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window can open.\n"
        "Rendering scene '%s' headless instead (software OpenGL, %d frames) into %s.\n"
        "To run headless yourself:\n  %s\n",
        scene.c_str(), options->frames, options->screenshot.c_str(),
        headlessCommand(argv[0], scene, options->screenshot).c_str());
    std::fflush(stdout);
  }
  App app(std::move(*options));
  return app.run();
}
