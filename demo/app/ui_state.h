#pragma once
// What the demo remembers between runs (last scene, panel toggles, font scale, vsync) and settings
// presets: small JSON files, written through writeFileAtomic (tumble/atomic_file.h) so a crash
// or a failed write never leaves half a file or a temporary file behind.
#include <filesystem>
#include <optional>
#include <string>

#include "tumble/result.h"
#include "tumble/settings.h"

namespace tumble::demo {

/// Debug drawing toggles (see debug_view.h).
struct DebugToggles {
  bool faces = true;        ///< body surfaces (hulls flat shaded, round shapes smooth)
  bool edges = true;        ///< hull edges and round shapes' outline circles (shape_mesh.h)
  bool aabbs = false;       ///< broad-phase leaf boxes
  bool tree = false;        ///< internal nodes of the broad-phase tree
  bool contacts = false;    ///< contact points
  bool normals = false;     ///< contact normals
  bool impulses = false;    ///< normal impulses, as lines along the normal
  bool islands = false;     ///< a box around each awake island
  bool sleep = true;        ///< sleeping bodies drawn darker
  bool centers = false;     ///< centres of mass
  bool velocities = false;  ///< linear velocities
  bool crosscheck = true;   ///< cross-check disagreements outlined
  bool joints = true;       ///< joints: centres to anchors, the anchors' gap, axes
  bool shapeTrees = false;  ///< the static trees of meshes and compounds (a height field's box)
  int shapeTreeDepth = 4;   ///< their nodes down to this depth (root 0), [0, kMaxShapeTreeDepth]
};

/// The deepest shape-tree level the panel offers: 2^13 - 1 boxes at most per tree each frame.
inline constexpr int kMaxShapeTreeDepth = 12;

/// The remembered UI state.
struct UiState {
  std::string lastScene;   ///< empty: the default scene
  float fontScale = 1.0f;  ///< ImGui's global font scale, [0.5, 3]
  bool vsync = true;
  bool showStats = false;  ///< the statistics window
  bool showHelp = false;   ///< the F1 overlay
  std::string spawnShape = "box";
  DebugToggles debug;
};

/// The folder for imgui.ini and state.json: $TUMBLE_CONFIG_DIR, else $XDG_CONFIG_HOME/tumble,
/// else $HOME/.config/tumble; `override` (from --config-dir) wins over all. Nullopt when none is
/// known.
std::optional<std::filesystem::path> configDirectory(const std::string& override);

/// Reads state.json; a missing file gives the defaults, a bad one an error naming file and key.
Expected<UiState> loadUiState(const std::filesystem::path& file);
/// Writes state.json atomically (writeFileAtomically). Errors name the file and the reason.
Expected<void> saveUiState(const std::filesystem::path& file, const UiState& state);

/// Writes `text` to `file` with writeFileAtomic (a temporary file beside it, fsync, rename), after
/// creating the parent folder. On failure `file` is unchanged, no temporary file is left, and the
/// error names `file` and the reason ("<file>: cannot create a temporary file in <folder>: Not a
/// directory").
Expected<void> writeFileAtomically(const std::filesystem::path& file, const std::string& text);

/// Every settings key with its value as JSON: numbers, booleans, [x, y, z], "sample".
/// `{"tumble_preset": 1, "settings": {"dt": 0.016666666666666666, ...}}`
std::string presetJson(const Settings& settings);

/// Applies the preset text on top of `base` and validates the result. All or nothing: an unknown
/// key, a wrong type or an out-of-range value is an error naming `origin` and the key, and
/// nothing is applied.
Expected<Settings> applyPresetText(const std::string& text, const Settings& base,
                                   const std::string& origin);

/// Saves `settings` as a preset file (atomically).
Expected<void> savePreset(const std::filesystem::path& file, const Settings& settings);
/// Reads a preset file onto `base` (see applyPresetText).
Expected<Settings> loadPreset(const std::filesystem::path& file, const Settings& base);

/// One setting's value as JSON text (for presets and --dump-state).
std::string settingJsonValue(const Settings& settings, const SettingInfo& info);

}  // namespace tumble::demo
