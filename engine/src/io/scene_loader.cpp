// Scene files: JSON with the path of every error (`bodies[3].positon: unknown key`).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "geometry/fp_hold.h"
#include "io/scene_internal.h"
#include "tumble/shape_file.h"

namespace tumble {
namespace scene {

void fail(const std::string& path, const std::string& what) {
  throw SceneError(path + ": " + what);
}

std::string typeName(const Json& j) {
  if (j.is_number()) return "a number";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_array()) return "an array";
  if (j.is_object()) return "an object";
  return "null";
}

void checkKeys(const Json& j, const std::string& path, std::initializer_list<const char*> allowed) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* a : allowed) ok = ok || it.key() == a;
    if (!ok) fail(path.empty() ? it.key() : path + "." + it.key(), "unknown key");
  }
}

const Json& object(const Json& j, const std::string& path) {
  if (!j.is_object()) fail(path, "expected an object, got " + typeName(j));
  return j;
}

Real number(const Json& j, const std::string& path) {
  if (!j.is_number()) fail(path, "expected a number, got " + typeName(j));
  const Real v = j.get<Real>();
  if (!std::isfinite(v)) fail(path, "expected a finite number");
  return v;
}

int integer(const Json& j, const std::string& path, int min, int max) {
  if (!j.is_number_integer()) fail(path, "expected an integer, got " + typeName(j));
  const long long v = j.get<long long>();
  if (v < min || v > max)
    fail(path, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " +
                   std::to_string(max) + "]");
  return static_cast<int>(v);
}

bool boolean(const Json& j, const std::string& path) {
  if (!j.is_boolean()) fail(path, "expected true or false, got " + typeName(j));
  return j.get<bool>();
}

std::string string(const Json& j, const std::string& path) {
  if (!j.is_string()) fail(path, "expected a string, got " + typeName(j));
  return j.get<std::string>();
}

Vec3 vec3(const Json& j, const std::string& path) {
  if (!j.is_array() || j.size() != 3) fail(path, "expected [x, y, z], got " + typeName(j));
  return {number(j[0], path + "[0]"), number(j[1], path + "[1]"), number(j[2], path + "[2]")};
}

Quat quat(const Json& j, const std::string& path) {
  if (!j.is_array() || j.size() != 4)
    fail(path, "expected a quaternion [w, x, y, z], got " + typeName(j));
  const Quat q(number(j[0], path + "[0]"), number(j[1], path + "[1]"), number(j[2], path + "[2]"),
               number(j[3], path + "[3]"));
  const Real n = glm::length(q);
  if (!(n > 1e-12)) fail(path, "quaternion has zero length");
  return q / n;
}

// %g: what the file said, without 17 digits of noise.
std::string shortNumber(Real v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

Vec3 scale(const Json& j, const std::string& path) {
  Vec3 s = j.is_number() ? Vec3(number(j, path)) : vec3(j, path);
  if (!(s.x > 0.0 && s.y > 0.0 && s.z > 0.0))
    fail(path, "expected a positive scale, got [" + shortNumber(s.x) + ", " + shortNumber(s.y) +
                   ", " + shortNumber(s.z) + "]");
  return s;
}

std::vector<Vec3> points(const Json& j, const std::string& path) {
  if (!j.is_array() || j.empty()) fail(path, "expected a non-empty array of [x, y, z] points");
  std::vector<Vec3> out;
  for (size_t i = 0; i < j.size(); ++i)
    out.push_back(vec3(j[i], path + "[" + std::to_string(i) + "]"));
  return out;
}

Real numberOr(const Json& j, const std::string& path, const char* key, Real fallback) {
  return j.contains(key) ? number(j[key], path + "." + key) : fallback;
}

Vec3 vec3Or(const Json& j, const std::string& path, const char* key, const Vec3& fallback) {
  return j.contains(key) ? vec3(j[key], path + "." + key) : fallback;
}

namespace {

// The kinds a shape object may name, `{"<kind>": {...}}`, in the order messages list them. A new
// kind is a reader here, one row in kShapeKinds and its case in ShapeCache::build.
struct ShapeKind {
  const char* key;
  ShapeSpec (*read)(const Json& j, const std::string& path);
};

// A required length member of `j` (m): finite and > 0, or >= 0 when `zeroAllowed`.
Real length(const Json& j, const std::string& path, const char* key, bool zeroAllowed) {
  const std::string at = path + "." + key;
  const char* bound = zeroAllowed ? ">= 0" : "> 0";
  if (!j.contains(key)) fail(at, std::string("missing (a number ") + bound + ", m)");
  const Real v = number(j[key], at);
  if (zeroAllowed ? !(v >= 0.0) : !(v > 0.0))
    fail(at, std::string("expected a number ") + bound + " (m), got " + shortNumber(v));
  return v;
}

ShapeSpec readSphere(const Json& j, const std::string& path) {
  object(j, path);
  checkKeys(j, path, {"radius"});
  ShapeSpec s;
  s.type = ShapeType::Sphere;
  s.radius = length(j, path, "radius", false);
  return s;
}

ShapeSpec readCapsule(const Json& j, const std::string& path) {
  object(j, path);
  checkKeys(j, path, {"radius", "half_height"});
  ShapeSpec s;
  s.type = ShapeType::Capsule;
  s.radius = length(j, path, "radius", false);
  s.halfHeight = length(j, path, "half_height", true);
  return s;
}

constexpr ShapeKind kShapeKinds[] = {{"sphere", readSphere}, {"capsule", readCapsule}};

// "sphere or capsule" (and "a, b or c" once there are more).
std::string shapeKindList() {
  std::string out;
  const size_t n = std::size(kShapeKinds);
  for (size_t i = 0; i < n; ++i)
    out += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(kShapeKinds[i].key);
  return out;
}

// What a shape description may be, for messages.
std::string shapeForms() {
  return "[[x, y, z], ...] or {\"<kind>\": {...}} with kind " + shapeKindList();
}

// A length times a scale factor; fails naming `path` where the product overflows.
Real scaledLength(Real v, Real s, const char* what, const std::string& path) {
  if (s > 1.0 && v > std::numeric_limits<Real>::max() / s)
    fail(path, std::string(what) + " " + shortNumber(v) + " times scale " + shortNumber(s) +
                   " is not a finite length");
  return v * s;
}

}  // namespace

ShapeSpec shapeSpec(const Json& j, const std::string& path) {
  if (j.is_array()) {
    ShapeSpec s;
    s.points = points(j, path);
    return s;
  }
  if (!j.is_object()) fail(path, "expected " + shapeForms() + ", got " + typeName(j));
  if (j.size() != 1) {
    std::string got = "an empty object";
    if (!j.empty()) {
      got = std::to_string(j.size()) + " keys (";
      for (auto it = j.begin(); it != j.end(); ++it)
        got += (it == j.begin() ? "" : ", ") + it.key();
      got += ")";
    }
    fail(path, "expected one key, the shape kind (" + shapeKindList() + "), got " + got);
  }
  const std::string& kind = j.begin().key();
  for (const ShapeKind& k : kShapeKinds)
    if (kind == k.key) return k.read(j.begin().value(), path + "." + kind);
  fail(path + "." + kind, "unknown shape kind (expected " + shapeKindList() + ")");
}

Shape ShapeCache::build(const ShapeSpec& spec, const Vec3& s, const std::string& path,
                        const std::string& scalePath) {
  if (spec.type == ShapeType::Hull) {
    std::vector<Vec3> pts = spec.points;
    for (Vec3& p : pts) p *= s;
    auto hull = makeHull(pts);
    if (!hull) fail(path, "not a solid convex shape: " + hull.error());
    return *hull;
  }
  // A sphere or capsule scaled unevenly would be an ellipsoid: not a shape the engine has.
  if (!(s.x == s.y && s.y == s.z))
    fail(scalePath, std::string("a ") + shapeTypeName(spec.type) +
                        " takes a uniform scale (a number or three equal numbers), got [" +
                        shortNumber(s.x) + ", " + shortNumber(s.y) + ", " + shortNumber(s.z) + "]");
  const Real radius = scaledLength(spec.radius, s.x, "radius", path);
  Expected<Shape> shape =
      Expected<Shape>::failure(std::string("no builder for kind ") + shapeTypeName(spec.type));
  if (spec.type == ShapeType::Sphere)
    shape = makeSphere(radius);
  else if (spec.type == ShapeType::Capsule)
    shape = makeCapsule(radius, scaledLength(spec.halfHeight, s.x, "half_height", path));
  if (!shape) fail(path, shape.error());
  return *shape;
}

Shape ShapeCache::named(const std::string& name, const Vec3& s, const std::string& path,
                        const std::string& scalePath) {
  const auto key = std::make_tuple(name, s.x, s.y, s.z);
  if (auto it = built_.find(key); it != built_.end()) return it->second;
  const ShapeSpec* base = nullptr;
  if (auto it = inline_.find(name); it != inline_.end()) {
    base = &it->second;
  } else if (auto lt = loaded_.find(name); lt != loaded_.end()) {
    base = &lt->second;
  } else {
    const auto file = dir_ / (name + ".json");
    if (!std::filesystem::exists(file)) {
      // "sphere" as a name is the likely slip for the sphere object.
      std::string hint;
      for (const ShapeKind& k : kShapeKinds)
        if (name == k.key) hint = "; a " + name + " is an object, {\"" + name + "\": {...}}";
      fail(path, "unknown shape \"" + name + "\" (no " + file.string() + " and no inline shape" +
                     hint + ")");
    }
    auto def = loadShapeFile(file);
    if (!def) fail(path, def.error());
    ShapeSpec spec;
    spec.points = std::move(def->points);
    base = &(loaded_[name] = std::move(spec));
  }
  Shape shape = build(*base, s, path, scalePath);
  built_[key] = shape;
  return shape;
}

Shape ShapeCache::shape(const Json& j, const std::string& path, const Vec3& s,
                        const std::string& scalePath) {
  if (j.is_string()) return named(j.get<std::string>(), s, path, scalePath);
  if (!j.is_array() && !j.is_object())
    fail(path, "expected a shape name, " + shapeForms() + ", got " + typeName(j));
  return build(shapeSpec(j, path), s, path, scalePath);
}

Material material(const Json& j, const std::string& path) {
  Material m;
  m.friction = numberOr(j, path, "friction", m.friction);
  m.restitution = numberOr(j, path, "restitution", m.restitution);
  m.density = numberOr(j, path, "density", m.density);
  m.mass = numberOr(j, path, "mass", 0.0);
  auto got = [](Real v) { return ", got " + shortNumber(v); };
  if (m.friction < 0.0 || m.friction > 10.0)
    fail(path + ".friction", "out of range [0, 10]" + got(m.friction));
  if (m.restitution < 0.0 || m.restitution > 1.0)
    fail(path + ".restitution", "out of range [0, 1]" + got(m.restitution));
  if (!(m.density > 0.0))
    fail(path + ".density", "expected a number > 0 (kg/m^3)" + got(m.density));
  if (j.contains("mass") && !(m.mass > 0.0))
    fail(path + ".mass", "expected a number > 0 (kg)" + got(m.mass));
  return m;
}

void applyMaterial(BodyDef& def, const Material& m, const std::string& path) {
  def.friction = m.friction;
  def.restitution = m.restitution;
  def.density = m.density;
  if (m.mass > 0.0) {
    // A shape far smaller than a metre can have a volume that rounds to 0 (a sphere of radius
    // 1e-120): the density would be infinite.
    const Real volume = def.shape.massProperties(1.0).volume;
    if (!(volume > 0.0) || (volume < 1.0 && m.mass > volume * std::numeric_limits<Real>::max()))
      fail(path + ".mass", "the shape's volume (" + shortNumber(volume) +
                               " m^3) is too small to give it a mass of " + shortNumber(m.mass) +
                               " kg");
    def.density = m.mass / volume;
  }
}

namespace {

std::string settingText(const Json& v, const std::string& path) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", number(v, path));
    return buf;
  }
  if (v.is_array() && v.size() == 3) {
    const Vec3 g = vec3(v, path);
    char buf[120];
    std::snprintf(buf, sizeof buf, "%.17g,%.17g,%.17g", g.x, g.y, g.z);
    return buf;
  }
  fail(path, "expected a number, boolean, string or [x, y, z], got " + typeName(v));
}

BodyDef readBody(const Json& b, const std::string& path, ShapeCache& shapes) {
  object(b, path);
  checkKeys(b, path,
            {"shape", "scale", "position", "orientation", "linear_velocity", "angular_velocity",
             "type", "static", "density", "mass", "friction", "restitution", "name"});
  if (!b.contains("shape")) fail(path + ".shape", "missing (a shape name, " + shapeForms() + ")");
  BodyDef def;
  const Vec3 s = b.contains("scale") ? scale(b["scale"], path + ".scale") : Vec3(1.0);
  def.shape = shapes.shape(b["shape"], path + ".shape", s, path + ".scale");
  def.position = vec3Or(b, path, "position", Vec3(0.0));
  if (b.contains("orientation")) def.orientation = quat(b["orientation"], path + ".orientation");
  def.linearVelocity = vec3Or(b, path, "linear_velocity", Vec3(0.0));
  def.angularVelocity = vec3Or(b, path, "angular_velocity", Vec3(0.0));
  if (b.contains("type")) {
    const std::string t = string(b["type"], path + ".type");
    if (t == "dynamic")
      def.type = BodyType::Dynamic;
    else if (t == "static")
      def.type = BodyType::Static;
    else if (t == "kinematic")
      def.type = BodyType::Kinematic;
    else
      fail(path + ".type", "expected \"dynamic\", \"static\" or \"kinematic\", got \"" + t + "\"");
  }
  if (b.contains("static") && boolean(b["static"], path + ".static")) def.type = BodyType::Static;
  if (b.contains("name")) string(b["name"], path + ".name");
  applyMaterial(def, material(b, path), path);
  return def;
}

}  // namespace
}  // namespace scene

namespace {

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep what follows.
std::string jsonMessage(const std::string& what) {
  const auto close = what.find("] ");
  return close == std::string::npos ? what : what.substr(close + 2);
}

}  // namespace

Expected<Scene> parseScene(std::string_view text, const std::string& origin,
                           const std::filesystem::path& shapesDir) {
  using namespace scene;
  Json root;
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Expected<Scene>::failure(origin + ": empty file; expected a scene (a JSON object)");
  try {
    detail::FloatingPointHold fpHold;  // "1e999" overflows to inf inside the parser
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    // Report the line of the byte offset nlohmann gives.
    const size_t at = std::min<size_t>(e.byte, text.size());
    const size_t line = 1 + static_cast<size_t>(std::count(
                                text.begin(), text.begin() + static_cast<long>(at), '\n'));
    return Expected<Scene>::failure(origin + ":" + std::to_string(line) +
                                    ": invalid JSON: " + jsonMessage(e.what()));
  } catch (const Json::exception& e) {  // out_of_range for a number such as 1e999
    return Expected<Scene>::failure(origin + ": invalid JSON: " + jsonMessage(e.what()) +
                                    " (expected a finite number)");
  }
  try {
    Scene out;
    object(root, "(root)");
    checkKeys(root, "", {"name", "description", "settings", "shapes", "bodies", "generators"});
    if (root.contains("name")) out.name = string(root["name"], "name");
    if (root.contains("description")) out.description = string(root["description"], "description");
    if (root.contains("settings")) {
      const Json& s = object(root["settings"], "settings");
      for (auto it = s.begin(); it != s.end(); ++it) {
        const std::string path = "settings." + it.key();
        if (!findSetting(it.key())) fail(path, "unknown settings key");
        if (Expected<void> set = setSetting(out.settings, it.key(), settingText(it.value(), path));
            !set)
          fail(path, set.error());
      }
    }
    std::map<std::string, ShapeSpec> inlineShapes;
    if (root.contains("shapes")) {
      const Json& s = object(root["shapes"], "shapes");
      for (auto it = s.begin(); it != s.end(); ++it)
        inlineShapes[it.key()] = shapeSpec(it.value(), "shapes." + it.key());
    }
    ShapeCache shapes(shapesDir, std::move(inlineShapes));
    if (root.contains("bodies")) {
      const Json& b = root["bodies"];
      if (!b.is_array()) fail("bodies", "expected an array, got " + typeName(b));
      for (size_t i = 0; i < b.size(); ++i)
        out.bodies.push_back(readBody(b[i], "bodies[" + std::to_string(i) + "]", shapes));
    }
    if (root.contains("generators")) {
      const Json& g = root["generators"];
      if (!g.is_array()) fail("generators", "expected an array, got " + typeName(g));
      for (size_t i = 0; i < g.size(); ++i)
        runGenerator(g[i], "generators[" + std::to_string(i) + "]", shapes, out.bodies);
    }
    return out;
  } catch (const SceneError& e) {
    return Expected<Scene>::failure(origin + ": " + e.what());
  }
}

namespace {
std::vector<std::filesystem::path> assetRoots();
}  // namespace

Expected<Scene> loadScene(const std::filesystem::path& file,
                          const std::filesystem::path& shapesDir) {
  std::ifstream in(file);
  if (!in) return Expected<Scene>::failure(file.string() + ": cannot open scene file");
  std::stringstream ss;
  ss << in.rdbuf();
  std::filesystem::path dir = shapesDir;
  if (dir.empty()) {
    // Beside the scene (assets/scenes/../shapes), else the assets directory found as for scenes.
    dir = file.parent_path() / ".." / "shapes";
    if (!std::filesystem::is_directory(dir))
      for (const auto& root : assetRoots())
        if (std::filesystem::is_directory(root / "shapes")) {
          dir = root / "shapes";
          break;
        }
  }
  auto scene = parseScene(ss.str(), file.string(), dir);
  if (scene && scene->name.empty()) scene->name = file.stem().string();
  return scene;
}

namespace {

// Candidate assets directories: $TUMBLE_ASSETS, then <dir>/assets for the current directory, the
// executable's directory (a build tree inside the repository) and all their parents.
std::vector<std::filesystem::path> assetRoots() {
  namespace fs = std::filesystem;
  std::vector<fs::path> roots;
  if (const char* env = std::getenv("TUMBLE_ASSETS")) roots.emplace_back(env);
  std::vector<fs::path> starts{fs::current_path()};
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // a build tree inside the repo
  if (!ec) starts.push_back(exe.parent_path());
  for (const fs::path& start : starts)
    for (fs::path p = start; !p.empty(); p = p.parent_path()) {
      roots.push_back(p / "assets");
      if (p == p.parent_path()) break;
    }
  return roots;
}

}  // namespace

Expected<std::filesystem::path> findSceneFile(std::string_view nameOrPath) {
  namespace fs = std::filesystem;
  const fs::path given(nameOrPath);
  if (fs::is_regular_file(given)) return given;
  const std::string file = std::string(nameOrPath) + (given.has_extension() ? "" : ".json");
  const std::vector<fs::path> roots = assetRoots();
  std::string looked;
  for (const fs::path& r : roots) {
    const fs::path candidate = r / "scenes" / file;
    if (fs::is_regular_file(candidate)) return candidate;
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  }
  return Expected<fs::path>::failure(
      "scene \"" + std::string(nameOrPath) +
      "\" not found (looked in <dir>/scenes for the current directory, $TUMBLE_ASSETS, the "
      "executable's directory and their parents: " +
      looked + ")");
}

Expected<std::unique_ptr<World>> buildWorld(const Scene& scene) {
  auto world = World::create(scene.settings);
  if (!world) return world;
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    auto id = (*world)->createBody(scene.bodies[i]);
    if (!id)
      return Expected<std::unique_ptr<World>>::failure("bodies[" + std::to_string(i) +
                                                       "]: " + id.error());
  }
  return world;
}

}  // namespace tumble
