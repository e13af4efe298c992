// Fuzz target: the OBJ mesh and height-field image decoders (tumble/mesh_file.h) on arbitrary
// bytes, in memory. The first byte picks the decoder (even: OBJ text, odd: image bytes); the rest
// is the input. Checks: a shape or an error starting with the origin, never a crash; a mesh has
// triangles with in-range indices and unit normals, a height field at least 2 x 2 finite heights
// within [0, height_scale].
#include <cmath>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "tumble/mesh_file.h"

using namespace tumble;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool image = data[0] & 1;
  const std::span<const uint8_t> rest(data + 1, size - 1);
  const std::string origin = "<input>";
  if (!image) {
    const Expected<Shape> mesh = parseObjMesh(
        std::string_view(reinterpret_cast<const char*>(rest.data()), rest.size()), origin, 1.0);
    if (!mesh) {
      TUMBLE_FUZZ_CHECK(mesh.error().rfind(origin + ": ", 0) == 0);
      return 0;
    }
    const TriangleMesh& m = *mesh->mesh();
    TUMBLE_FUZZ_CHECK(!m.triangles.empty());
    for (size_t t = 0; t < m.triangles.size(); ++t) {
      for (int i : m.triangles[t])
        TUMBLE_FUZZ_CHECK(i >= 0 && i < static_cast<int>(m.vertices.size()));
      TUMBLE_FUZZ_CHECK(std::abs(glm::length(m.normals[t]) - 1.0) < 1e-9);
    }
    return 0;
  }
  const Real scale = 3.0;
  const Expected<Shape> field = decodeHeightFieldImage(rest, origin, 1.0, 1.0, scale);
  if (!field) {
    TUMBLE_FUZZ_CHECK(field.error().rfind(origin + ": ", 0) == 0);
    return 0;
  }
  const HeightField& f = *field->heightField();
  TUMBLE_FUZZ_CHECK(f.rows >= 2 && f.columns >= 2);
  TUMBLE_FUZZ_CHECK(f.heights.size() == static_cast<size_t>(f.rows) * f.columns);
  for (Real h : f.heights) TUMBLE_FUZZ_CHECK(std::isfinite(h) && h >= 0.0 && h <= scale);
  return 0;
}
