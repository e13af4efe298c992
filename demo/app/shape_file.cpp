#include "shape_file.h"

#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

namespace tumble::demo {

Expected<ConvexHull> loadShape(const std::filesystem::path& assets, const std::string& name) {
  using Result = Expected<ConvexHull>;
  const std::filesystem::path file = assets / "shapes" / (name + ".json");
  std::ifstream in(file);
  if (!in) return Result::failure(file.string() + ": cannot open shape file");
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Result::failure(file.string() + ": not valid JSON");
  if (!doc.is_object() || !doc.contains("points") || !doc["points"].is_array()) {
    return Result::failure(file.string() + ": expected an object with a \"points\" array");
  }
  std::vector<Vec3> points;
  const auto& list = doc["points"];
  for (size_t i = 0; i < list.size(); ++i) {
    const auto& p = list[i];
    if (!p.is_array() || p.size() != 3 || !p[0].is_number() || !p[1].is_number() ||
        !p[2].is_number()) {
      return Result::failure(file.string() + ": points[" + std::to_string(i) +
                             "]: expected [x, y, z] numbers");
    }
    points.emplace_back(p[0].get<double>(), p[1].get<double>(), p[2].get<double>());
  }
  auto hull = ConvexHull::build(points);
  if (!hull) return Result::failure(file.string() + ": " + hull.error());
  return hull;
}

}  // namespace tumble::demo
