// OBJ meshes (tinyobjloader) and height-field images (stb_image, compiled here with static
// linkage so that an application with its own copy does not clash).
#include "tumble/mesh_file.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

// stb_image allocates as a compressed stream asks: a crafted 87-byte PNG made it ask for 2 GiB
// (found by fuzzing). Its allocations go through these, which refuse anything over 512 MiB (a
// 4097 x 4097 16-bit RGBA image is 134 MiB), so such a file is an out-of-memory error, not a
// process that swaps or dies.
namespace {
constexpr size_t kStbAllocationCap = size_t{512} << 20;
void* stbMalloc(size_t size) {
  return size > kStbAllocationCap ? nullptr : std::malloc(size);
}
void* stbRealloc(void* p, size_t size) {
  return size > kStbAllocationCap ? nullptr : std::realloc(p, size);
}
}  // namespace
#define STBI_MALLOC(size) stbMalloc(size)
#define STBI_REALLOC(p, size) stbRealloc(p, size)
#define STBI_FREE(p) std::free(p)
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_MAX_DIMENSIONS 4097  // a 4096 x 4096-cell field at most
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace tumble {

namespace {

// The whole file, or an error naming it.
Expected<std::string> readAll(const std::filesystem::path& file) {
  std::FILE* f = std::fopen(file.string().c_str(), "rb");
  if (f == nullptr)
    return Expected<std::string>::failure(file.string() + ": cannot open: " + std::strerror(errno));
  std::string out;
  char buf[65536];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  const bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) return Expected<std::string>::failure(file.string() + ": read failed");
  return out;
}

}  // namespace

Expected<Shape> loadObjMesh(const std::filesystem::path& file, Real scale) {
  const Expected<std::string> text = readAll(file);
  if (!text) return Expected<Shape>::failure(text.error());
  return parseObjMesh(*text, file.string(), scale);
}

Expected<Shape> loadHeightFieldImage(const std::filesystem::path& file, Real dx, Real dz,
                                     Real heightScale) {
  const Expected<std::string> bytes = readAll(file);
  if (!bytes) return Expected<Shape>::failure(bytes.error());
  return decodeHeightFieldImage({reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size()},
                                file.string(), dx, dz, heightScale);
}

Expected<Shape> parseObjMesh(std::string_view text, const std::string& name, Real scale) {
  using E = Expected<Shape>;
  if (!(std::isfinite(scale) && scale > 0.0))
    return E::failure(name + ": scale " + std::to_string(scale) + " (expected finite and > 0)");
  tinyobj::ObjReaderConfig config;
  config.triangulate = true;
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  // No material library: a "mtllib" line reads from an empty text.
  if (!reader.ParseFromString(std::string(text), std::string(), config)) {
    std::string why = reader.Error();
    while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
    return E::failure(name + ": " + (why.empty() ? "not an OBJ file" : why));
  }
  const auto& attrib = reader.GetAttrib();
  std::vector<Vec3> vertices;
  vertices.reserve(attrib.vertices.size() / 3);
  for (size_t i = 0; i + 2 < attrib.vertices.size(); i += 3)
    vertices.emplace_back(scale * attrib.vertices[i], scale * attrib.vertices[i + 1],
                          scale * attrib.vertices[i + 2]);
  std::vector<std::array<int, 3>> triangles;
  for (const auto& shape : reader.GetShapes()) {
    const auto& idx = shape.mesh.indices;
    size_t at = 0;
    for (const unsigned char n : shape.mesh.num_face_vertices) {
      // Triangulated on load; a face tinyobjloader could not split is fanned here.
      for (unsigned k = 1; k + 1 < n; ++k)
        triangles.push_back(
            {idx[at].vertex_index, idx[at + k].vertex_index, idx[at + k + 1].vertex_index});
      at += n;
    }
  }
  if (triangles.empty()) return E::failure(name + ": no faces (expected f lines)");
  E mesh = makeMesh(std::move(vertices), std::move(triangles));
  if (!mesh) return E::failure(name + ": " + mesh.error());
  return mesh;
}

namespace {

// A PNG's bytes less its empty IDAT chunks. stb_image copies an IDAT chunk's data with memcpy
// into a buffer it allocates at the first non-empty one, so an empty first IDAT passes memcpy a
// null pointer (undefined behaviour, if harmless with 0 bytes; UBSan stops there). Empty chunks
// carry no data: dropping them changes no image. From the first chunk that does not fit in the
// bytes on, the rest is kept as it is, for stb_image to refuse.
std::span<const uint8_t> withoutEmptyIdat(std::span<const uint8_t> bytes,
                                          std::vector<uint8_t>& scratch) {
  static constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (bytes.size() < 8 || !std::equal(kSignature, kSignature + 8, bytes.begin())) return bytes;
  scratch.assign(bytes.begin(), bytes.begin() + 8);
  bool dropped = false;
  size_t at = 8;
  while (bytes.size() - at >= 12) {
    const uint32_t length = (uint32_t{bytes[at]} << 24) | (uint32_t{bytes[at + 1]} << 16) |
                            (uint32_t{bytes[at + 2]} << 8) | uint32_t{bytes[at + 3]};
    if (length > bytes.size() - at - 12) break;
    const auto chunk = bytes.begin() + static_cast<std::ptrdiff_t>(at);
    if (length == 0 && std::equal(chunk + 4, chunk + 8, "IDAT"))
      dropped = true;
    else
      scratch.insert(scratch.end(), chunk, chunk + static_cast<std::ptrdiff_t>(12 + length));
    at += 12 + length;
  }
  if (!dropped) return bytes;
  scratch.insert(scratch.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
  return scratch;
}

}  // namespace

Expected<Shape> decodeHeightFieldImage(std::span<const uint8_t> raw, const std::string& name,
                                       Real dx, Real dz, Real heightScale) {
  std::vector<uint8_t> scratch;
  const std::span<const uint8_t> bytes = withoutEmptyIdat(raw, scratch);
  using E = Expected<Shape>;
  if (!(std::isfinite(heightScale) && heightScale > 0.0))
    return E::failure(name + ": height_scale " + std::to_string(heightScale) +
                      " (expected finite and > 0 m)");
  int w = 0, h = 0, channels = 0;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
    return E::failure(name + ": too large");
  stbi_us* pixels =
      stbi_load_16_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 1);
  if (pixels == nullptr)
    return E::failure(name + ": cannot read the image (" + stbi_failure_reason() +
                      "; expected a greyscale PNG)");
  if (w < 2 || h < 2) {
    stbi_image_free(pixels);
    return E::failure(name + ": " + std::to_string(w) + " x " + std::to_string(h) +
                      " pixels (expected at least 2 x 2)");
  }
  std::vector<std::vector<Real>> heights(static_cast<size_t>(h), std::vector<Real>(w));
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c)
      heights[r][c] = heightScale * pixels[static_cast<size_t>(r) * w + c] / 65535.0;
  stbi_image_free(pixels);
  E field = makeHeightField(heights, dx, dz);
  if (!field) return E::failure(name + ": " + field.error());
  return field;
}

}  // namespace tumble
