// Links the installed tumble::engine and calls it: settings, their validation, and a convex hull.
#include <cmath>
#include <cstdio>
#include <vector>

#include <tumble/hull.h>
#include <tumble/settings.h>

int main() {
  tumble::Settings settings;
  if (auto error = tumble::validate(settings)) {
    std::printf("default settings rejected: %s\n", error->c_str());
    return 1;
  }
  if (!tumble::setSetting(settings, "dt", "2.0")) {
    std::printf("dt = 2.0 should be out of range\n");
    return 1;
  }
  std::vector<tumble::Vec3> cube;
  for (int i = 0; i < 8; ++i)
    cube.emplace_back(i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0);
  auto hull = tumble::ConvexHull::build(cube);
  if (!hull) {
    std::printf("hull failed: %s\n", hull.error().c_str());
    return 1;
  }
  const double volume = hull->massProperties(1.0).volume;
  if (hull->vertices().size() != 8 || hull->faces().size() != 6 || std::abs(volume - 8.0) > 1e-9) {
    std::printf("cube hull: %zu vertices, %zu faces, volume %g; expected 8, 6, 8\n",
                hull->vertices().size(), hull->faces().size(), volume);
    return 1;
  }
  std::printf("consumer ok: %zu settings keys, cube hull with %zu faces and volume %g\n",
              tumble::settingsTable().size(), hull->faces().size(), volume);
  return 0;
}
