#pragma once
// --script FILE: timed UI actions replayed by the demo, for tests and demos. One action a line,
// `FRAME ACTION ARGS...`, run at the start of frame FRAME (0-based, frames counted from the
// start); lines in any order (they are sorted, ties keep file order); `#` starts a comment.
//   set KEY VALUE          change a setting, as the panel does (value in --set's text form)
//   reset KEY | reset all  back to the default value
//   key NAME               press a key (SDL key name: p, o, r, PageDown, F12, Space, ...)
//   click X Y              left click at window pixel (X, Y)
//   drag X1 Y1 X2 Y2 [N]   left button down at (X1, Y1), moved to (X2, Y2) over N frames (1), up
//   mousedown X Y          left button down at (X, Y)
//   mousemove X Y [N]      move (button held or not) to (X, Y) over N frames (1)
//   mouseup                left button up where the mouse is
//   preset-save FILE       save the settings as a preset
//   preset-load FILE       load a preset (a bad one shows its error and changes nothing)
//   scene NAME             switch to a scene
//   screenshot FILE        write a PNG of this frame
//   quit                   end after this frame
#include <optional>
#include <string>
#include <vector>

#include "tumble/result.h"

namespace tumble::demo {

struct ScriptAction {
  long long frame = 0;
  std::string verb;               ///< set, reset, key, click, drag, preset-save, ...
  std::vector<std::string> args;  ///< checked by parseScript: counts and numbers
  int line = 0;                   ///< in the file, for messages
};

/// Parses a script; errors name the file, the line and what was expected.
Expected<std::vector<ScriptAction>> parseScript(const std::string& text, const std::string& origin);

/// Reads and parses a script file.
Expected<std::vector<ScriptAction>> loadScript(const std::string& file);

}  // namespace tumble::demo
