#include "gl_util.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include <stb_image_write.h>

#include "tumble/atomic_file.h"

namespace tumble::demo {
namespace {

int gErrorCount = 0;  // GL errors are a per-process fact, reported once at exit

Expected<std::string> readFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return Expected<std::string>::failure(
        "shader file not found: " + file.string() +
        " (shaders are loaded from the 'shaders' folder next to the tumble-demo executable)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Expected<GLuint> compile(GLenum type, const std::filesystem::path& file) {
  auto source = readFile(file);
  if (!source) return Expected<GLuint>::failure(source.error());
  const GLuint shader = glCreateShader(type);
  const char* text = source->c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::vector<char> log(4096);
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteShader(shader);
    return Expected<GLuint>::failure(file.string() + ": compile error:\n" + log.data());
  }
  return shader;
}

}  // namespace

Expected<GLuint> loadProgram(const std::filesystem::path& dir, const std::string& vertexFile,
                             const std::string& fragmentFile) {
  auto vs = compile(GL_VERTEX_SHADER, dir / vertexFile);
  if (!vs) return vs;
  auto fs = compile(GL_FRAGMENT_SHADER, dir / fragmentFile);
  if (!fs) {
    glDeleteShader(*vs);
    return fs;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, *vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::vector<char> log(4096);
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteProgram(program);
    return Expected<GLuint>::failure(vertexFile + " + " + fragmentFile + ": link error:\n" +
                                     log.data());
  }
  checkGl("loadProgram");
  return program;
}

void checkGl([[maybe_unused]] const char* where) {
#ifndef NDEBUG
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    std::fprintf(stderr, "tumble-demo: GL error 0x%04x after %s\n", e, where);
    ++gErrorCount;
  }
#endif
}

int glErrorCount() {
  return gErrorCount;
}

Expected<void> writeScreenshot(const std::string& file, int width, int height) {
  const size_t row = static_cast<size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  checkGl("glReadPixels");
  // GL's rows run bottom-up, PNG's top-down.
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y) {
    std::copy_n(
        pixels.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(y)), row,
        flipped.begin() + static_cast<std::ptrdiff_t>(row * static_cast<size_t>(height - 1 - y)));
  }
  // Encoded straight into writeFileAtomic's temporary file: a reader never sees half a PNG, and a
  // failure leaves the old file and no temporary file. A short fwrite sets the stream's error
  // flag, which writeFileAtomic reports with its reason.
  bool ran = false, encoded = false;
  auto error = writeFileAtomic(file, [&](std::FILE* out) {
    auto put = [](void* context, void* data, int size) {
      std::fwrite(data, 1, static_cast<size_t>(size), static_cast<std::FILE*>(context));
    };
    ran = true;
    encoded =
        stbi_write_png_to_func(put, out, width, height, 3, flipped.data(), static_cast<int>(row));
    return encoded;
  });
  if (error) return tumble::ok();
  if (ran && !encoded)
    return Expected<void>::failure("cannot encode the screenshot '" + file + "' as a PNG (" +
                                   std::to_string(width) + "x" + std::to_string(height) +
                                   "); the old file is unchanged");
  return Expected<void>::failure("cannot write the screenshot: " + error.error());
}

}  // namespace tumble::demo
