#pragma once
// Small OpenGL helpers: shader programs loaded from files at run time, error checks in debug
// builds, and reading the framebuffer back into a PNG.
#include <filesystem>
#include <optional>
#include <string>

#include <glad/gl.h>

#include "tumble/result.h"

namespace tumble::demo {

/// Compiles and links `dir/vertexFile` and `dir/fragmentFile`. Fails with a message that names a
/// missing or unreadable file, or the file and the compiler's log.
Expected<GLuint> loadProgram(const std::filesystem::path& dir, const std::string& vertexFile,
                             const std::string& fragmentFile);

/// In debug builds (no NDEBUG), reports every pending GL error to stderr naming `where` and
/// counts it; in release builds it does nothing.
void checkGl(const char* where);

/// GL errors reported by checkGl so far.
int glErrorCount();

/// Reads the back buffer (width x height, bottom-up in GL) and writes it top-down as an RGB PNG,
/// atomically (writeFileAtomic: a reader never sees half a PNG; on failure the old file stays and
/// no temporary file is left). Returns an error naming the file and the reason.
Expected<void> writeScreenshot(const std::string& file, int width, int height);

}  // namespace tumble::demo
