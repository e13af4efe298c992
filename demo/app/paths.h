#pragma once
// Where tumble-demo finds its run-time files.
#include <filesystem>

namespace tumble::demo {

struct DemoPaths {
  /// GLSL files: the 'shaders' folder next to the executable (built or installed).
  std::filesystem::path shaders;
  /// assets/ (shapes, scenes): $TUMBLE_ASSETS if set, else <prefix>/share/tumble/assets next to
  /// an installed executable, else the source tree's assets/ (built executable).
  std::filesystem::path assets;
};

/// Locates the folders; never fails (a missing file is reported by whoever opens it).
DemoPaths locatePaths();

}  // namespace tumble::demo
