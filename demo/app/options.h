#pragma once
// Command-line options of tumble-demo.
#include <optional>
#include <string>
#include <vector>

namespace tumble::demo {

/// What the user asked for on the command line.
struct Options {
  std::string scene;             ///< scene name; empty means the default scene
  int frames = 0;                ///< quit after this many frames; 0 runs until the window closes
  std::string screenshot;        ///< PNG of the last frame; empty for none
  bool headless = false;         ///< SDL offscreen driver and software GL: no display needed
  int width = 1280;              ///< window width in pixels, [64, 8192]
  int height = 720;              ///< window height in pixels, [64, 8192]
  std::vector<std::string> set;  ///< settings assignments "key=value" applied at start
  /// --viewer-pair FILE[:LINE]: a collide-format pair the `gjk` scene opens (the scene when
  /// --scene is not given); passed to the scene as $TUMBLE_VIEWER_PAIR (sample_gjk_viewer.h).
  std::string viewerPair;
  std::string script;        ///< --script: timed UI actions (script.h); empty for none
  std::string dumpState;     ///< --dump-state: JSON of settings and statistics at exit
  std::string configDir;     ///< --config-dir: where imgui.ini and state.json live
  std::string loadSnapshot;  ///< --load-snapshot: a snapshot restored into the first scene
  bool paused = false;       ///< --paused: start with the simulation paused
  bool help = false;
  bool listScenes = false;
  bool controlsMarkdown = false;  ///< print README's controls table and quit
};

/// Parses argv (without the program name). Returns the options, or an error that names the bad
/// argument and what was expected.
std::optional<Options> parseOptions(const std::vector<std::string>& args, std::string& error);

/// The --help text.
std::string usage();

/// The exact command that renders `scene` headless into `png`, for messages.
std::string headlessCommand(const std::string& program, const std::string& scene,
                            const std::string& png);

}  // namespace tumble::demo
