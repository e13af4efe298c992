#include "controls.h"

namespace tumble::demo {

std::span<const Control> controlsTable() {
  static const Control kControls[] = {
      {"left drag on a body", "pull it with the engine's drag constraint (ray-cast pick)"},
      {"click on a red outline", "open that cross-check disagreement in the GJK viewer"},
      {"left drag elsewhere", "orbit the camera"},
      {"right drag, shift + left drag", "pan the camera"},
      {"mouse wheel", "zoom"},
      {"arrow keys", "orbit (shift: pan), when the scene does not use them"},
      {"+ / -", "zoom in / out"},
      {"C, Home", "reset the camera to the scene's view (Home when the scene does not use it)"},
      {"PageUp / PageDown", "previous / next scene of the browser"},
      {"R", "restart the scene (the panel's settings are kept)"},
      {"P", "pause / resume"},
      {"O", "single step (pauses)"},
      {",",
       "one recorded step back (pauses; World scenes: the panel's Timeline rewinds and scrubs)"},
      {"V", "spawn a body of the chosen shape above the scene (World scenes)"},
      {"B",
       "shoot a body of the chosen shape, speed, mass and bullet flag from the camera (World "
       "scenes)"},
      {"X",
       "explosion tool on / off: a left click blasts the bodies near the clicked point "
       "(World scenes)"},
      {"M",
       "probe under the mouse: off, ray (all hits), shape cast, overlap; hits listed (World "
       "scenes)"},
      {"F1", "this help"},
      {"F2", "statistics window"},
      {"F5", "reload the shaders"},
      {"F12", "screenshot to tumble-YYYYMMDD-HHMMSS.png in the working folder"},
      {"Esc", "quit"},
      {"D", "drop one more body like the scene's first dynamic one (World scenes)"},
      {"character scene",
       "W A S D walk relative to the camera, space jumps; the camera follows (drag to orbit)"},
      {"chain scene", "click a joint and drag to fold; [ ] joint, x y z axis, a d / q e fold"},
      {"gjk scene",
       "drag a hull to move it, Ctrl + drag to turn it; Left / Right step GJK, Home / End first / "
       "last"},
  };
  return kControls;
}

std::string controlsMarkdown() {
  std::string out = "| Input | Action |\n|---|---|\n";
  for (const Control& c : controlsTable())
    out += "| " + std::string(c.input) + " | " + std::string(c.action) + " |\n";
  return out;
}

}  // namespace tumble::demo
