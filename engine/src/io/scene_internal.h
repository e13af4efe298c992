#pragma once
// Internal: shared pieces of the scene loader (scene_loader.cpp) and generators
// (scene_generators.cpp): JSON readers that name the path, and the shape cache.
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tumble/hull.h"
#include "tumble/scene.h"

namespace tumble::scene {

using Json = nlohmann::json;

/// Thrown inside the loader only; parseScene turns it into an Expected failure.
struct SceneError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& path, const std::string& what);
std::string typeName(const Json& j);

/// Fails on a key of `j` not in `allowed` (naming `path.key`). `j` must be an object.
void checkKeys(const Json& j, const std::string& path, std::initializer_list<const char*> allowed);
const Json& object(const Json& j, const std::string& path);
Real number(const Json& j, const std::string& path);
int integer(const Json& j, const std::string& path, int min, int max);
bool boolean(const Json& j, const std::string& path);
std::string string(const Json& j, const std::string& path);
Vec3 vec3(const Json& j, const std::string& path);
Quat quat(const Json& j, const std::string& path);
/// A scale: a positive number or three positive numbers.
Vec3 scale(const Json& j, const std::string& path);
std::vector<Vec3> points(const Json& j, const std::string& path);

/// Optional member helpers: return `fallback` when `key` is absent.
Real numberOr(const Json& j, const std::string& path, const char* key, Real fallback);
Vec3 vec3Or(const Json& j, const std::string& path, const char* key, const Vec3& fallback);

/// Hulls by (name, scale), built once and shared between bodies.
class ShapeCache {
 public:
  ShapeCache(std::filesystem::path dir, std::map<std::string, std::vector<Vec3>> inlineShapes)
      : dir_(std::move(dir)), inline_(std::move(inlineShapes)) {}
  std::shared_ptr<const ConvexHull> named(const std::string& name, const Vec3& scale,
                                          const std::string& path);
  std::shared_ptr<const ConvexHull> fromPoints(const std::vector<Vec3>& pts,
                                               const std::string& path);

 private:
  std::filesystem::path dir_;
  std::map<std::string, std::vector<Vec3>> inline_;
  std::map<std::string, std::vector<Vec3>> loaded_;
  std::map<std::tuple<std::string, Real, Real, Real>, std::shared_ptr<const ConvexHull>> hulls_;
};

/// Material keys shared by bodies and generators: friction, restitution, density, mass.
struct Material {
  Real friction = 0.5;
  Real restitution = 0.0;
  Real density = 1000.0;
  Real mass = 0.0;  ///< > 0: overrides density
};
Material material(const Json& j, const std::string& path);
/// Sets def.density from the material (mass / volume when a mass is given).
void applyMaterial(BodyDef& def, const Material& m);

/// Runs one generator object, appending bodies.
void runGenerator(const Json& g, const std::string& path, ShapeCache& shapes,
                  std::vector<BodyDef>& out);

}  // namespace tumble::scene
