#pragma once
// Internal: shared pieces of the scene loader (scene_loader.cpp) and generators
// (scene_generators.cpp): JSON readers that name the path, shape descriptions and the shape cache.
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "tumble/scene.h"
#include "tumble/shape.h"

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

/// A shape as a scene file describes it, before a body's scale: inline points (their convex hull)
/// or a kind with its sizes.
struct ShapeSpec {
  ShapeType type = ShapeType::Hull;
  std::vector<Vec3> points;  ///< Hull: body-local points (m)
  Real radius = 0.0;         ///< Sphere, Capsule: m, > 0
  Real halfHeight = 0.0;     ///< Capsule: m, >= 0
};

/// Reads a shape description at `path`: inline points [[x, y, z], ...] or an object with exactly
/// one key, the kind (`{"sphere": {...}}`, `{"capsule": {...}}`), whose reader checks its own keys.
/// A shape name is not a description: ShapeCache::shape looks names up.
ShapeSpec shapeSpec(const Json& j, const std::string& path);

/// Shapes by (name, scale), built once and shared between bodies.
class ShapeCache {
 public:
  ShapeCache(std::filesystem::path dir, std::map<std::string, ShapeSpec> inlineShapes)
      : dir_(std::move(dir)), inline_(std::move(inlineShapes)) {}
  /// A body's or generator's shape value at `path`: a name (the scene's "shapes" first, then
  /// `<dir>/<name>.json`) or a description (shapeSpec), times `scale`, read at `scalePath` (a
  /// sphere or capsule takes a uniform scale only).
  Shape shape(const Json& j, const std::string& path, const Vec3& scale,
              const std::string& scalePath);
  /// The shape called `name`, times `scale` (see shape()).
  Shape named(const std::string& name, const Vec3& scale, const std::string& path,
              const std::string& scalePath);
  /// A description times `scale` (see shape()).
  static Shape build(const ShapeSpec& spec, const Vec3& scale, const std::string& path,
                     const std::string& scalePath);

 private:
  std::filesystem::path dir_;
  std::map<std::string, ShapeSpec> inline_;
  std::map<std::string, ShapeSpec> loaded_;
  std::map<std::tuple<std::string, Real, Real, Real>, Shape> built_;
};

/// Material keys shared by bodies and generators: friction, restitution, density, mass.
struct Material {
  Real friction = 0.5;
  Real restitution = 0.0;
  Real density = 1000.0;
  Real mass = 0.0;  ///< > 0: overrides density
};
Material material(const Json& j, const std::string& path);
/// Sets def.density from the material (mass / volume when a mass is given; `path` is the object
/// holding the material keys, for the error when the shape's volume cannot carry the mass).
void applyMaterial(BodyDef& def, const Material& m, const std::string& path);

/// Runs one generator object, appending bodies.
void runGenerator(const Json& g, const std::string& path, ShapeCache& shapes,
                  std::vector<BodyDef>& out);

}  // namespace tumble::scene
