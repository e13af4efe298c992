#pragma once
// Internal: shared pieces of the scene loader (scene_loader.cpp) and generators
// (scene_generators.cpp): JSON readers that name the path, shape descriptions and the shape cache.
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
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

/// Reads the top-level "joints" array; bodies are indices into `bodyCount` bodies (-1: the world).
std::vector<SceneJoint> readJoints(const Json& j, int bodyCount);

/// Optional member helpers: return `fallback` when `key` is absent.
Real numberOr(const Json& j, const std::string& path, const char* key, Real fallback);
Vec3 vec3Or(const Json& j, const std::string& path, const char* key, const Vec3& fallback);

struct CompoundChildSpec;

/// A shape as a scene file describes it, before a body's scale: inline points (their convex hull)
/// or a kind with its sizes, children, triangles or heights, or the file they come from.
struct ShapeSpec {
  ShapeType type = ShapeType::Hull;
  std::string path;          ///< the JSON path it was read at: `bodies[0].shape.mesh` (messages)
  std::vector<Vec3> points;  ///< Hull, RoundedHull: body-local points (m); Mesh: vertices (m)
  Real radius = 0.0;         ///< Sphere, Capsule, Cylinder, RoundedHull: m, > 0
  Real halfHeight = 0.0;     ///< Capsule: m, >= 0; Cylinder: m, > 0
  std::vector<CompoundChildSpec> children;    ///< Compound: at least one
  std::vector<std::array<int, 3>> triangles;  ///< Mesh: indices into points (unchecked)
  std::vector<std::vector<Real>> heights;     ///< HeightField: rows along z, each as long
  std::string file;         ///< Mesh, HeightField: the file as written ("" for inline data)
  Real fileScale = 1.0;     ///< Mesh file: its "scale"
  Real dx = 0.0, dz = 0.0;  ///< HeightField: spacing (m, > 0)
  Real heightScale = 1.0;   ///< HeightField file: metres at the brightest grey
};

/// One child of a compound description: a convex shape by name or description, and its pose.
struct CompoundChildSpec {
  bool byName = false;  ///< true: the shape called `name`; false: `shape` describes it
  std::string name;
  ShapeSpec shape;
  Transform local;   ///< position and (normalised) orientation in the compound's frame
  std::string path;  ///< the child's JSON path: `bodies[0].shape.compound[1]`
  std::optional<BodyFilter> filter = std::nullopt;  ///< "filter": CompoundChild::filter
  bool isSensor = false;                            ///< "sensor": CompoundChild::isSensor
};

/// Reads a shape description at `path`: inline points [[x, y, z], ...] or an object with exactly
/// one key, the kind (`{"sphere": {...}}`, `{"capsule": {...}}`, `{"rounded": {...}}`,
/// `{"compound": [...]}`,
/// `{"mesh": {...}}`, `{"heightfield": {...}}`), whose reader checks its own keys. A shape name is
/// not a description: ShapeCache::shape looks names up. Files are not read here (ShapeCache::build
/// reads them).
ShapeSpec shapeSpec(const Json& j, const std::string& path);

/// Shapes by (name, scale), built once and shared between bodies; mesh and height-field files
/// read once per file and sizes.
class ShapeCache {
 public:
  ShapeCache(SceneDirs dirs, std::map<std::string, ShapeSpec> inlineShapes)
      : dirs_(std::move(dirs)), inline_(std::move(inlineShapes)) {}
  /// A body's or generator's shape value at `path`: a name (the scene's "shapes" first, then
  /// `<shapes dir>/<name>.json`) or a description (shapeSpec), times `scale`, read at `scalePath`
  /// (a shape object takes a uniform scale only).
  Shape shape(const Json& j, const std::string& path, const Vec3& scale,
              const std::string& scalePath);
  /// The shape called `name`, times `scale` (see shape()).
  Shape named(const std::string& name, const Vec3& scale, const std::string& path,
              const std::string& scalePath);
  /// A description times `scale` (see shape()).
  Shape build(const ShapeSpec& spec, const Vec3& scale, const std::string& path,
              const std::string& scalePath);

 private:
  /// The description called `name`: the scene's "shapes", else `<shapes dir>/<name>.json`.
  const ShapeSpec& lookup(const std::string& name, const std::string& path);
  Shape compound(const ShapeSpec& spec, Real scale, const std::string& scalePath);
  Shape mesh(const ShapeSpec& spec, Real scale);
  Shape heightField(const ShapeSpec& spec, Real scale);
  /// `spec.file` resolved in `dir` (a relative name) or as given; fails naming the JSON path when
  /// it is not a file.
  std::filesystem::path file(const ShapeSpec& spec, const std::filesystem::path& dir,
                             const char* what) const;

  SceneDirs dirs_;
  std::map<std::string, ShapeSpec> inline_;
  std::map<std::string, ShapeSpec> loaded_;
  std::map<std::tuple<std::string, Real, Real, Real>, Shape> built_;
  /// File shapes by (resolved file, scale or spacing x, spacing z, height scale).
  std::map<std::tuple<std::string, Real, Real, Real>, Shape> files_;
};

/// Material keys shared by bodies and generators: friction, restitution, density, mass.
struct Material {
  Real friction = 0.5;
  Real restitution = 0.0;
  Real rollingResistance = 0.0;  ///< dimensionless, >= 0 (BodyDef::rollingResistance)
  Real density = 1000.0;
  Real mass = 0.0;  ///< > 0: overrides density
};
Material material(const Json& j, const std::string& path);
/// Sets def.density from the material (mass / volume when a mass is given; `path` is the object
/// holding the material keys, for the error when the shape's volume cannot carry the mass). A
/// mesh or height field has no volume: its mass is not turned into a density (static bodies
/// ignore both).
void applyMaterial(BodyDef& def, const Material& m, const std::string& path);

/// Runs one generator object, appending bodies (and, for joint_grid, joints).
void runGenerator(const Json& g, const std::string& path, ShapeCache& shapes,
                  std::vector<BodyDef>& out, std::vector<SceneJoint>& joints);

}  // namespace tumble::scene
