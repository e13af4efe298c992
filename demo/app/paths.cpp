#include "paths.h"

#include <cstdlib>
#include <system_error>

#include <SDL.h>

namespace tumble::demo {
namespace {

std::filesystem::path executableDir() {
  // SDL_GetBasePath works before SDL_Init and resolves /proc/self/exe on Linux.
  char* base = SDL_GetBasePath();
  if (!base) return std::filesystem::current_path();
  std::filesystem::path dir(base);
  SDL_free(base);
  return dir;
}

}  // namespace

DemoPaths locatePaths() {
  DemoPaths p;
  const std::filesystem::path exe = executableDir();
  p.shaders = exe / "shaders";
  std::error_code ec;
  if (const char* env = std::getenv("TUMBLE_ASSETS"); env && *env) {
    p.assets = env;
  } else if (const auto installed = exe / ".." / "share" / "tumble" / "assets";
             std::filesystem::is_directory(installed, ec)) {
    p.assets = installed.lexically_normal();
  } else {
    p.assets = TUMBLE_SOURCE_ASSETS;
  }
  return p;
}

}  // namespace tumble::demo
