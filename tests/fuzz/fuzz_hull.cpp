// Fuzz target: ConvexHull::build on arbitrary points (fuzz_inputs.h, decodeHull: grid or raw
// doubles, NaN and inf included, optionally with a tiny jitter for near-degenerate sets). Checks: a
// hull or an error, never a crash; a hull has >= 4 finite vertices copied from the input, unit face
// normals, positive finite volume, and (grid inputs) every input point inside.
#include <algorithm>
#include <cmath>
#include <vector>

#include "fuzz_inputs.h"
#include "tumble/hull.h"

using namespace tumble;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::HullInput input = fuzz::decodeHull({data, size});
  const std::vector<Vec3>& pts = input.points;
  const bool raw = input.raw;
  auto hull = ConvexHull::build(pts);
  if (!hull) {
    TUMBLE_FUZZ_CHECK(!hull.error().empty());
    return 0;
  }
  const auto& verts = hull->vertices();
  TUMBLE_FUZZ_CHECK(verts.size() >= 4 && verts.size() <= pts.size());
  TUMBLE_FUZZ_CHECK(hull->sourceIndices().size() == verts.size());
  Real extent = 0.0;
  for (size_t i = 0; i < verts.size(); ++i) {
    const int src = hull->sourceIndices()[i];
    TUMBLE_FUZZ_CHECK(src >= 0 && src < static_cast<int>(pts.size()));
    TUMBLE_FUZZ_CHECK(std::memcmp(&verts[i], &pts[src], sizeof(Vec3)) == 0);
    TUMBLE_FUZZ_CHECK(fuzz::finite(verts[i]));
    extent = std::max(extent, glm::length(verts[i] - verts[0]));
  }
  TUMBLE_FUZZ_CHECK(hull->faces().size() >= 4);
  for (const HullFace& f : hull->faces()) {
    TUMBLE_FUZZ_CHECK(f.vertices.size() >= 3);
    TUMBLE_FUZZ_CHECK(std::abs(glm::length(f.normal) - 1.0) < 1e-9);
    for (int v : f.vertices) TUMBLE_FUZZ_CHECK(v >= 0 && v < static_cast<int>(verts.size()));
  }
  if (!raw) {
    // Grid coordinates are below 1e3: every input point lies under every face plane.
    for (const HullFace& f : hull->faces())
      for (const Vec3& p : pts)
        TUMBLE_FUZZ_CHECK(glm::dot(f.normal, p) - f.offset <= 1e-9 * (1.0 + extent));
    const MassProperties m = hull->massProperties(1.0);
    TUMBLE_FUZZ_CHECK(std::isfinite(m.volume) && m.volume > 0.0);
    TUMBLE_FUZZ_CHECK(fuzz::finite(m.centerOfMass));
  }
  return 0;
}
