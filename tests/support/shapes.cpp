#include "shapes.h"

namespace tumble::test {

std::vector<Vec3> boxCorners(const Vec3& half, const Vec3& centre) {
  std::vector<Vec3> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(centre + Vec3((i & 1) ? half.x : -half.x, (i & 2) ? half.y : -half.y,
                                (i & 4) ? half.z : -half.z));
  }
  return out;
}

std::shared_ptr<const ConvexHull> boxHull(const Vec3& half) {
  auto hull = ConvexHull::build(boxCorners(half));
  return std::make_shared<const ConvexHull>(std::move(*hull));
}

}  // namespace tumble::test
