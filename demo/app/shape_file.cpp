#include "shape_file.h"

#include "tumble/shape_file.h"

namespace tumble::demo {

Expected<ConvexHull> loadShape(const std::filesystem::path& assets, const std::string& name) {
  const std::filesystem::path file = assets / "shapes" / (name + ".json");
  auto shape = loadShapeFile(file);
  if (!shape) return Expected<ConvexHull>::failure(shape.error());
  auto hull = ConvexHull::build(shape->points);
  if (!hull) return Expected<ConvexHull>::failure(file.string() + ": " + hull.error());
  return hull;
}

}  // namespace tumble::demo
