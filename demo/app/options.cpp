#include "options.h"

#include <charconv>

namespace tumble::demo {
namespace {

bool parseInt(const std::string& text, int lo, int hi, int& out) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace

std::string usage() {
  return "usage: tumble-demo [options]\n"
         "Shows Tumble's scenes in an SDL2 window (OpenGL 3.3 core, Dear ImGui).\n"
         "\n"
         "options:\n"
         "  --scene NAME        start with scene NAME (see --list-scenes)\n"
         "  --frames N          quit after N frames (N >= 1)\n"
         "  --screenshot FILE   write the last frame (at --frames N or on quit) as a PNG to FILE\n"
         "  --headless          render offscreen with software GL; no display needed\n"
         "  --size WxH          window size in pixels (default 1280x720)\n"
         "  --set key=value     change a setting (the keys of tumble-cli and scene files)\n"
         "  --viewer-pair FILE[:LINE]  open line LINE (default: the first) of a collide-format\n"
         "                      file (e.g. a saved cross-check disagreement) in the gjk scene\n"
         "  --paused            start with the simulation paused\n"
         "  --script FILE       replay timed UI actions (see README: 'Scripts')\n"
         "  --dump-state FILE   write the final settings and statistics as JSON on exit\n"
         "  --load-snapshot FILE  restore a world snapshot (tumble/snapshot.h) into the first\n"
         "                      scene (a World scene) and go on from it\n"
         "  --config-dir DIR    where imgui.ini and state.json are kept (default\n"
         "                      $TUMBLE_CONFIG_DIR, $XDG_CONFIG_HOME/tumble, ~/.config/tumble;\n"
         "                      headless runs use none unless this or TUMBLE_CONFIG_DIR is set)\n"
         "  --list-scenes       print the scene names and quit\n"
         "  --controls-markdown print the controls table (README) and quit\n"
         "  --help              print this help\n"
         "\n"
         "controls (F1 shows them all): left drag orbits or pulls a body, right drag pans, the\n"
         "wheel zooms, C resets the camera, R restarts, P pauses, O steps once, PageUp/PageDown\n"
         "change scene, V spawns, B shoots, X blasts, F12 screenshot, F5 reloads the shaders, Esc "
         "quits.\n"
         "With no display (DISPLAY and WAYLAND_DISPLAY unset) and no --headless, the demo says "
         "so,\n"
         "renders the scene headless and writes a screenshot instead of opening a window.\n";
}

std::string headlessCommand(const std::string& program, const std::string& scene,
                            const std::string& png) {
  return program + " --headless --scene " + scene + " --frames 30 --screenshot " + png;
}

std::optional<Options> parseOptions(const std::vector<std::string>& args, std::string& error) {
  Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* what) -> const std::string* {
      if (i + 1 >= args.size()) {
        error = a + " needs " + what;
        return nullptr;
      }
      return &args[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--headless") {
      o.headless = true;
    } else if (a == "--list-scenes") {
      o.listScenes = true;
    } else if (a == "--controls-markdown") {
      o.controlsMarkdown = true;
    } else if (a == "--paused") {
      o.paused = true;
    } else if (a == "--script" || a == "--dump-state" || a == "--config-dir" ||
               a == "--load-snapshot") {
      const std::string* v = value("a file name");
      if (!v) return std::nullopt;
      (a == "--script"          ? o.script
       : a == "--dump-state"    ? o.dumpState
       : a == "--load-snapshot" ? o.loadSnapshot
                                : o.configDir) = *v;
    } else if (a == "--scene") {
      const std::string* v = value("a scene name");
      if (!v) return std::nullopt;
      o.scene = *v;
    } else if (a == "--frames") {
      const std::string* v = value("a frame count");
      if (!v) return std::nullopt;
      if (!parseInt(*v, 1, 100000000, o.frames)) {
        error = "--frames " + *v + ": expected an integer >= 1";
        return std::nullopt;
      }
    } else if (a == "--screenshot") {
      const std::string* v = value("a PNG file name");
      if (!v) return std::nullopt;
      o.screenshot = *v;
    } else if (a == "--size") {
      const std::string* v = value("WxH");
      if (!v) return std::nullopt;
      const size_t x = v->find('x');
      if (x == std::string::npos || !parseInt(v->substr(0, x), 64, 8192, o.width) ||
          !parseInt(v->substr(x + 1), 64, 8192, o.height)) {
        error = "--size " + *v + ": expected WxH with each side in [64, 8192], e.g. 1280x720";
        return std::nullopt;
      }
    } else if (a == "--viewer-pair") {
      const std::string* v = value("FILE[:LINE] (a collide-format JSON Lines file)");
      if (!v) return std::nullopt;
      o.viewerPair = *v;
    } else if (a == "--set") {
      const std::string* v = value("key=value");
      if (!v) return std::nullopt;
      o.set.push_back(*v);
    } else {
      error = "unknown option '" + a + "' (see --help)";
      return std::nullopt;
    }
  }
  if (!o.viewerPair.empty() && o.scene.empty()) o.scene = "gjk";
  return o;
}

}  // namespace tumble::demo
