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
#include "tumble/mesh_file.h"
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
  bool convex;        // may be a compound's child
  const char* value;  // its value's form, for hints: "{...}" or "[...]"
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
  s.path = path;
  s.radius = length(j, path, "radius", false);
  return s;
}

// A radius and a half height along y (capsule: h >= 0, 0 a sphere's shape; cylinder: h > 0).
ShapeSpec readAxial(const Json& j, const std::string& path, ShapeType type, bool zeroHalfHeight) {
  object(j, path);
  checkKeys(j, path, {"radius", "half_height"});
  ShapeSpec s;
  s.type = type;
  s.path = path;
  s.radius = length(j, path, "radius", false);
  s.halfHeight = length(j, path, "half_height", zeroHalfHeight);
  return s;
}

ShapeSpec readCapsule(const Json& j, const std::string& path) {
  return readAxial(j, path, ShapeType::Capsule, true);
}

ShapeSpec readCylinder(const Json& j, const std::string& path) {
  return readAxial(j, path, ShapeType::Cylinder, false);
}

// `{"points": [[x, y, z], ...], "radius": r}`: the points' hull (at least 4 points, checked
// solid when built) grown by r.
ShapeSpec readRounded(const Json& j, const std::string& path) {
  object(j, path);
  checkKeys(j, path, {"points", "radius"});
  ShapeSpec s;
  s.type = ShapeType::RoundedHull;
  s.path = path;
  const std::string at = path + ".points";
  if (!j.contains("points")) fail(at, "missing ([[x, y, z], ...], at least 4 points, m)");
  s.points = points(j["points"], at);
  if (s.points.size() < 4)
    fail(at, "expected at least 4 points (a solid core), got " + std::to_string(s.points.size()));
  s.radius = length(j, path, "radius", false);
  return s;
}

ShapeSpec readCompound(const Json& j, const std::string& path);
ShapeSpec readMesh(const Json& j, const std::string& path);
ShapeSpec readHeightField(const Json& j, const std::string& path);

constexpr ShapeKind kShapeKinds[] = {
    {"sphere", readSphere, true, "{...}"},           {"capsule", readCapsule, true, "{...}"},
    {"cylinder", readCylinder, true, "{...}"},       {"rounded", readRounded, true, "{...}"},
    {"compound", readCompound, false, "[...]"},      {"mesh", readMesh, false, "{...}"},
    {"heightfield", readHeightField, false, "{...}"}};

// "sphere, capsule, cylinder, rounded, compound, mesh or heightfield" (the convex ones only:
// "sphere, capsule, cylinder or rounded").
std::string shapeKindList(bool convexOnly = false) {
  std::vector<std::string> keys;
  for (const ShapeKind& k : kShapeKinds)
    if (k.convex || !convexOnly) keys.emplace_back(k.key);
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i)
    out += (i == 0 ? "" : i + 1 == keys.size() ? " or " : ", ") + keys[i];
  return out;
}

// What a shape description may be, for messages.
std::string shapeForms() {
  return "[[x, y, z], ...] or {\"<kind>\": {...}} with kind " + shapeKindList();
}

// What a compound's child may be, for messages.
std::string convexForms() {
  return "a shape name, [[x, y, z], ...] or {\"<kind>\": {...}} with kind " + shapeKindList(true);
}

bool convexType(ShapeType t) {
  return t == ShapeType::Hull || t == ShapeType::Sphere || t == ShapeType::Capsule ||
         t == ShapeType::Cylinder || t == ShapeType::RoundedHull;
}

// A length times a scale factor; fails naming `path` where the product overflows.
Real scaledLength(Real v, Real s, const char* what, const std::string& path) {
  if (s > 1.0 && std::abs(v) > std::numeric_limits<Real>::max() / s)
    fail(path, std::string(what) + " " + shortNumber(v) + " times scale " + shortNumber(s) +
                   " is not a finite length");
  return v * s;
}

// A point times a scale factor, coordinate by coordinate (see scaledLength).
Vec3 scaledPoint(const Vec3& p, Real s, const std::string& what, const std::string& path) {
  for (int k = 0; k < 3; ++k)
    if (s > 1.0 && std::abs(p[k]) > std::numeric_limits<Real>::max() / s)
      fail(path, what + " [" + shortNumber(p.x) + ", " + shortNumber(p.y) + ", " +
                     shortNumber(p.z) + "] times scale " + shortNumber(s) +
                     " is not a finite point");
  return p * s;
}

// Which of its two forms a mesh or height field has: a "file" (described as `fileWhat`) or inline
// data under `dataKey` (`dataWhat`). Fails when the object has both or neither; true for the file.
bool fileForm(const Json& j, const std::string& path, const char* dataKey, const char* dataWhat,
              const char* fileWhat) {
  const bool file = j.contains("file"), data = j.contains(dataKey);
  const std::string forms =
      std::string("\"file\" (") + fileWhat + ") or \"" + dataKey + "\" (" + dataWhat + ")";
  if (file && data) fail(path, "expected " + forms + ", not both");
  if (!file && !data) fail(path, "missing " + forms);
  return file;
}

std::string fileName(const Json& j, const std::string& path) {
  const std::string name = string(j, path);
  if (name.empty()) fail(path, "expected a file name, got an empty string");
  return name;
}

// Bit numbers 0-63 as a mask.
uint64_t filterBits(const Json& j, const std::string& path) {
  if (!j.is_array()) fail(path, "expected an array of bit numbers 0-63, got " + typeName(j));
  uint64_t out = 0;
  for (size_t k = 0; k < j.size(); ++k)
    out |= uint64_t{1} << integer(j[k], path + "[" + std::to_string(k) + "]", 0, 63);
  return out;
}

// {"category": [bits], "mask": [bits], "group": n}, each optional (BodyFilter's defaults).
BodyFilter readFilter(const Json& j, const std::string& path) {
  object(j, path);
  checkKeys(j, path, {"category", "mask", "group"});
  BodyFilter f;
  if (j.contains("category")) f.category = filterBits(j["category"], path + ".category");
  if (j.contains("mask")) f.mask = filterBits(j["mask"], path + ".mask");
  if (j.contains("group"))
    f.group = integer(j["group"], path + ".group", std::numeric_limits<int>::min(),
                      std::numeric_limits<int>::max());
  return f;
}

ShapeSpec readCompound(const Json& j, const std::string& path) {
  const std::string form =
      "a non-empty array of children [{\"shape\": ..., \"position\": [x, y, z], \"orientation\": "
      "[w, x, y, z]}, ...]";
  if (!j.is_array()) fail(path, "expected " + form + ", got " + typeName(j));
  if (j.empty()) fail(path, "expected " + form + ", got an empty array");
  ShapeSpec s;
  s.type = ShapeType::Compound;
  s.path = path;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const Json& c = object(j[i], at);
    checkKeys(c, at, {"shape", "position", "orientation", "sensor", "filter"});
    CompoundChildSpec child;
    child.path = at;
    const std::string shapeAt = at + ".shape";
    if (!c.contains("shape")) fail(shapeAt, "missing (" + convexForms() + ")");
    const Json& v = c["shape"];
    if (v.is_string()) {
      child.byName = true;
      child.name = v.get<std::string>();
    } else {
      if (!v.is_array() && !v.is_object())
        fail(shapeAt, "expected " + convexForms() + ", got " + typeName(v));
      // Checked before reading: a child compound is refused, not read level after level.
      if (v.is_object() && v.size() == 1)
        for (const ShapeKind& k : kShapeKinds)
          if (!k.convex && v.begin().key() == k.key)
            fail(shapeAt, "expected a convex shape (" + convexForms() + "), got a " + k.key);
      child.shape = shapeSpec(v, shapeAt);
    }
    child.local.position = vec3Or(c, at, "position", Vec3(0.0));
    if (c.contains("orientation"))
      child.local.rotation = quat(c["orientation"], at + ".orientation");
    // A body's keys, for this child alone (CompoundChild::isSensor and filter).
    if (c.contains("sensor")) child.isSensor = boolean(c["sensor"], at + ".sensor");
    if (c.contains("filter")) child.filter = readFilter(c["filter"], at + ".filter");
    s.children.push_back(std::move(child));
  }
  return s;
}

ShapeSpec readMesh(const Json& j, const std::string& path) {
  object(j, path);
  ShapeSpec s;
  s.type = ShapeType::Mesh;
  s.path = path;
  if (fileForm(j, path, "vertices", "[[x, y, z], ...] with \"triangles\"",
               "an OBJ file in assets/meshes")) {
    checkKeys(j, path, {"file", "scale"});
    s.file = fileName(j["file"], path + ".file");
    if (j.contains("scale")) {
      s.fileScale = number(j["scale"], path + ".scale");
      if (!(s.fileScale > 0.0))
        fail(path + ".scale", "expected a number > 0, got " + shortNumber(s.fileScale));
    }
    return s;
  }
  checkKeys(j, path, {"vertices", "triangles"});
  s.points = points(j["vertices"], path + ".vertices");
  const std::string at = path + ".triangles";
  if (!j.contains("triangles")) fail(at, "missing ([[i, j, k], ...], indices into vertices)");
  const Json& t = j["triangles"];
  if (!t.is_array() || t.empty())
    fail(at, "expected a non-empty array of [i, j, k] vertex indices, got " +
                 (t.is_array() ? std::string("an empty array") : typeName(t)));
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string ti = at + "[" + std::to_string(i) + "]";
    if (!t[i].is_array() || t[i].size() != 3)
      fail(ti, "expected [i, j, k] (three vertex indices), got " + typeName(t[i]));
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k)
      tri[k] = integer(t[i][k], ti + "[" + std::to_string(k) + "]", std::numeric_limits<int>::min(),
                       std::numeric_limits<int>::max());
    s.triangles.push_back(tri);
  }
  return s;
}

ShapeSpec readHeightField(const Json& j, const std::string& path) {
  object(j, path);
  ShapeSpec s;
  s.type = ShapeType::HeightField;
  s.path = path;
  const bool file = fileForm(j, path, "heights", "[[y, ...], ...], rows along z",
                             "a greyscale PNG in assets/heightfields");
  if (file) {
    checkKeys(j, path, {"file", "spacing", "height_scale"});
    s.file = fileName(j["file"], path + ".file");
    s.heightScale = length(j, path, "height_scale", false);
  } else {
    checkKeys(j, path, {"heights", "spacing"});
    const std::string at = path + ".heights";
    const Json& h = j["heights"];
    if (!h.is_array())
      fail(at, "expected rows of heights [[y, ...], ...] (rows along z), got " + typeName(h));
    if (h.size() < 2)
      fail(at, "expected at least 2 rows of heights, got " + std::to_string(h.size()));
    for (size_t r = 0; r < h.size(); ++r) {
      const std::string row = at + "[" + std::to_string(r) + "]";
      if (!h[r].is_array()) fail(row, "expected a row of heights [y, ...], got " + typeName(h[r]));
      if (r == 0 && h[r].size() < 2)
        fail(row, "expected at least 2 heights, got " + std::to_string(h[r].size()));
      if (h[r].size() != h[0].size())
        fail(row, "expected " + std::to_string(h[0].size()) + " heights (as row 0), got " +
                      std::to_string(h[r].size()));
      std::vector<Real> values;
      for (size_t c = 0; c < h[r].size(); ++c)
        values.push_back(number(h[r][c], row + "[" + std::to_string(c) + "]"));
      s.heights.push_back(std::move(values));
    }
  }
  const std::string at = path + ".spacing";
  if (!j.contains("spacing")) fail(at, "missing ([dx, dz], m, each > 0)");
  const Json& sp = j["spacing"];
  if (!sp.is_array() || sp.size() != 2) fail(at, "expected [dx, dz] (m), got " + typeName(sp));
  Real* spacing[2] = {&s.dx, &s.dz};
  for (int k = 0; k < 2; ++k) {
    const std::string sk = at + "[" + std::to_string(k) + "]";
    *spacing[k] = number(sp[k], sk);
    if (!(*spacing[k] > 0.0))
      fail(sk, "expected a number > 0 (m), got " + shortNumber(*spacing[k]));
  }
  return s;
}

}  // namespace

ShapeSpec shapeSpec(const Json& j, const std::string& path) {
  if (j.is_array()) {
    ShapeSpec s;
    s.path = path;
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
  // A sphere or capsule scaled unevenly would be an ellipsoid: not a shape the engine has. The
  // other objects take the same rule (one rule for every shape object).
  if (!(s.x == s.y && s.y == s.z))
    fail(scalePath,
         std::string("a ") +
             (spec.type == ShapeType::RoundedHull ? "rounded hull" : shapeTypeName(spec.type)) +
             " takes a uniform scale (a number or three equal numbers), got [" + shortNumber(s.x) +
             ", " + shortNumber(s.y) + ", " + shortNumber(s.z) + "]");
  if (spec.type == ShapeType::Compound) return compound(spec, s.x, scalePath);
  if (spec.type == ShapeType::Mesh) return mesh(spec, s.x);
  if (spec.type == ShapeType::HeightField) return heightField(spec, s.x);
  const Real radius = scaledLength(spec.radius, s.x, "radius", path);
  Expected<Shape> shape =
      Expected<Shape>::failure(std::string("no builder for kind ") + shapeTypeName(spec.type));
  if (spec.type == ShapeType::Sphere)
    shape = makeSphere(radius);
  else if (spec.type == ShapeType::Capsule)
    shape = makeCapsule(radius, scaledLength(spec.halfHeight, s.x, "half_height", path));
  else if (spec.type == ShapeType::Cylinder)
    shape = makeCylinder(radius, scaledLength(spec.halfHeight, s.x, "half_height", path));
  else if (spec.type == ShapeType::RoundedHull) {
    std::vector<Vec3> pts;
    for (const Vec3& p : spec.points) pts.push_back(scaledPoint(p, s.x, "point", path));
    shape = makeRoundedHull(pts, radius);
    if (!shape) fail(spec.path + ".points", "not a solid convex shape: " + shape.error());
  }
  if (!shape) fail(path, shape.error());
  return *shape;
}

Shape ShapeCache::compound(const ShapeSpec& spec, Real s, const std::string& scalePath) {
  std::vector<CompoundChild> children;
  children.reserve(spec.children.size());
  for (const CompoundChildSpec& c : spec.children) {
    const std::string shapeAt = c.path + ".shape";
    CompoundChild child;
    if (c.byName) {
      const ShapeSpec& base = lookup(c.name, shapeAt);
      if (!convexType(base.type))
        fail(shapeAt, "expected a convex shape (" + convexForms() + "), got \"" + c.name +
                          "\", a " + shapeTypeName(base.type));
      child.shape = named(c.name, Vec3(s), shapeAt, scalePath);
    } else {
      child.shape = build(c.shape, Vec3(s), shapeAt, scalePath);
    }
    child.local.position = scaledPoint(c.local.position, s, "position", c.path + ".position");
    child.local.rotation = c.local.rotation;
    child.filter = c.filter;
    child.isSensor = c.isSensor;
    children.push_back(std::move(child));
  }
  Expected<Shape> shape = makeCompound(children);
  if (!shape) fail(spec.path, shape.error());
  return *shape;
}

std::filesystem::path ShapeCache::file(const ShapeSpec& spec, const std::filesystem::path& dir,
                                       const char* what) const {
  const std::filesystem::path given(spec.file);
  const std::filesystem::path f = given.is_absolute() ? given : dir / given;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(f, ec))
    fail(spec.path + ".file",
         std::string("no ") + what + " \"" + spec.file + "\" (looked for " + f.string() + ")");
  return f;
}

Shape ShapeCache::mesh(const ShapeSpec& spec, Real s) {
  if (!spec.file.empty()) {
    const std::filesystem::path f = file(spec, dirs_.meshes, "mesh file");
    const Real scale = scaledLength(spec.fileScale, s, "scale", spec.path + ".scale");
    const auto key = std::make_tuple(f.string(), scale, 0.0, 0.0);
    if (auto it = files_.find(key); it != files_.end()) return it->second;
    Expected<Shape> loaded = loadObjMesh(f);
    if (!loaded) fail(spec.path + ".file", loaded.error());
    if (scale != 1.0) {
      // Scaled here, not by loadObjMesh, so that a vertex scaled past the largest double is an
      // error naming it rather than an overflow.
      const TriangleMesh& m = *loaded->mesh();
      std::vector<Vec3> vertices;
      vertices.reserve(m.vertices.size());
      for (size_t i = 0; i < m.vertices.size(); ++i)
        vertices.push_back(scaledPoint(m.vertices[i], scale,
                                       f.string() + ": vertex " + std::to_string(i),
                                       spec.path + ".file"));
      loaded = makeMesh(std::move(vertices), m.triangles);
      if (!loaded) fail(spec.path + ".file", f.string() + ": " + loaded.error());
    }
    return files_[key] = *loaded;
  }
  std::vector<Vec3> vertices;
  vertices.reserve(spec.points.size());
  for (size_t i = 0; i < spec.points.size(); ++i)
    vertices.push_back(scaledPoint(spec.points[i], s, "vertex",
                                   spec.path + ".vertices[" + std::to_string(i) + "]"));
  Expected<Shape> shape = makeMesh(std::move(vertices), spec.triangles);
  if (!shape) fail(spec.path, shape.error());
  return *shape;
}

Shape ShapeCache::heightField(const ShapeSpec& spec, Real s) {
  const Real dx = scaledLength(spec.dx, s, "spacing", spec.path + ".spacing[0]");
  const Real dz = scaledLength(spec.dz, s, "spacing", spec.path + ".spacing[1]");
  if (!spec.file.empty()) {
    const std::filesystem::path f = file(spec, dirs_.heightfields, "height-field image");
    const Real hs = scaledLength(spec.heightScale, s, "height_scale", spec.path + ".height_scale");
    const auto key = std::make_tuple(f.string(), dx, dz, hs);
    if (auto it = files_.find(key); it != files_.end()) return it->second;
    Expected<Shape> loaded = loadHeightFieldImage(f, dx, dz, hs);
    if (!loaded) fail(spec.path + ".file", loaded.error());
    return files_[key] = *loaded;
  }
  std::vector<std::vector<Real>> heights = spec.heights;
  for (size_t r = 0; r < heights.size(); ++r)
    for (size_t c = 0; c < heights[r].size(); ++c)
      heights[r][c] = scaledLength(
          heights[r][c], s, "height",
          spec.path + ".heights[" + std::to_string(r) + "][" + std::to_string(c) + "]");
  Expected<Shape> shape = makeHeightField(heights, dx, dz);
  if (!shape) fail(spec.path, shape.error());
  return *shape;
}

const ShapeSpec& ShapeCache::lookup(const std::string& name, const std::string& path) {
  if (auto it = inline_.find(name); it != inline_.end()) return it->second;
  if (auto lt = loaded_.find(name); lt != loaded_.end()) return lt->second;
  const auto file = dirs_.shapes / (name + ".json");
  if (!std::filesystem::exists(file)) {
    // "sphere" as a name is the likely slip for the sphere object.
    std::string hint;
    for (const ShapeKind& k : kShapeKinds)
      if (name == k.key)
        hint = "; a " + name + " is an object, {\"" + name + "\": " + k.value + "}";
    fail(path, "unknown shape \"" + name + "\" (no " + file.string() + " and no inline shape" +
                   hint + ")");
  }
  auto def = loadShapeFile(file);
  if (!def) fail(path, def.error());
  ShapeSpec spec;
  spec.path = path;
  spec.points = std::move(def->points);
  return loaded_[name] = std::move(spec);
}

Shape ShapeCache::named(const std::string& name, const Vec3& s, const std::string& path,
                        const std::string& scalePath) {
  const auto key = std::make_tuple(name, s.x, s.y, s.z);
  if (auto it = built_.find(key); it != built_.end()) return it->second;
  Shape shape = build(lookup(name, path), s, path, scalePath);
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
  m.rollingResistance = numberOr(j, path, "rolling_resistance", m.rollingResistance);
  m.density = numberOr(j, path, "density", m.density);
  m.mass = numberOr(j, path, "mass", 0.0);
  auto got = [](Real v) { return ", got " + shortNumber(v); };
  if (m.friction < 0.0 || m.friction > 10.0)
    fail(path + ".friction", "out of range [0, 10]" + got(m.friction));
  if (m.restitution < 0.0 || m.restitution > 1.0)
    fail(path + ".restitution", "out of range [0, 1]" + got(m.restitution));
  if (!(std::isfinite(m.rollingResistance) && m.rollingResistance >= 0.0))
    fail(path + ".rolling_resistance", "expected a finite number >= 0" + got(m.rollingResistance));
  if (!(m.density > 0.0))
    fail(path + ".density", "expected a number > 0 (kg/m^3)" + got(m.density));
  if (j.contains("mass") && !(m.mass > 0.0))
    fail(path + ".mass", "expected a number > 0 (kg)" + got(m.mass));
  return m;
}

void applyMaterial(BodyDef& def, const Material& m, const std::string& path) {
  def.friction = m.friction;
  def.restitution = m.restitution;
  def.rollingResistance = m.rollingResistance;
  def.density = m.density;
  // A mesh or height field has no volume to turn a mass into a density; its body is static, and
  // static bodies ignore both (as they ignore a hull's).
  if (m.mass > 0.0 && !def.shape.isStaticOnly()) {
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

// [x, y, z] of booleans (a "lock" member).
void axes(const Json& j, const std::string& path, bool (&out)[3]) {
  if (!j.is_array() || j.size() != 3)
    fail(path, "expected [x, y, z] of true or false, got " +
                   (j.is_array() ? std::to_string(j.size()) + " values" : typeName(j)));
  for (int k = 0; k < 3; ++k) out[k] = boolean(j[k], path + "[" + std::to_string(k) + "]");
}

// The body options (BodyDef's damping, gravity scale, locks and bullet flag), each optional.
void readBodyOptions(const Json& b, const std::string& path, BodyDef& def) {
  for (const char* key : {"linear_damping", "angular_damping"}) {
    if (!b.contains(key)) continue;
    const Real c = number(b[key], path + "." + key);
    if (!(c >= 0.0))
      fail(path + "." + key, "expected a finite number >= 0 (1/s), got " + shortNumber(c));
    (key[0] == 'l' ? def.linearDamping : def.angularDamping) = c;
  }
  def.gravityScale = numberOr(b, path, "gravity_scale", def.gravityScale);
  if (b.contains("lock")) {
    const std::string at = path + ".lock";
    const Json& lock = object(b["lock"], at);
    checkKeys(lock, at, {"translation", "rotation"});
    if (lock.contains("translation"))
      axes(lock["translation"], at + ".translation", def.lockTranslation);
    if (lock.contains("rotation")) axes(lock["rotation"], at + ".rotation", def.lockRotation);
  }
  if (b.contains("bullet")) def.bullet = boolean(b["bullet"], path + ".bullet");
}

BodyDef readBody(const Json& b, const std::string& path, ShapeCache& shapes) {
  object(b, path);
  checkKeys(b, path,
            {"shape",
             "scale",
             "position",
             "orientation",
             "linear_velocity",
             "angular_velocity",
             "type",
             "static",
             "density",
             "mass",
             "friction",
             "restitution",
             "rolling_resistance",
             "filter",
             "sensor",
             "hit_event_speed",
             "name",
             "linear_damping",
             "angular_damping",
             "gravity_scale",
             "lock",
             "bullet"});
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
  // World::createBody refuses it too, but without the body's path.
  if (def.shape.isStaticOnly() && def.type != BodyType::Static)
    fail(path, std::string("a ") + shapeTypeName(def.shape.type()) + " is static only, got a " +
                   (def.type == BodyType::Dynamic ? "dynamic" : "kinematic") +
                   " body (add \"static\": true; a dynamic concave body is a compound)");
  if (b.contains("name")) string(b["name"], path + ".name");
  if (b.contains("filter")) def.filter = readFilter(b["filter"], path + ".filter");
  if (b.contains("sensor")) def.isSensor = boolean(b["sensor"], path + ".sensor");
  if (b.contains("hit_event_speed")) {
    def.hitEventSpeed = number(b["hit_event_speed"], path + ".hit_event_speed");
    if (!(def.hitEventSpeed >= 0.0))
      fail(path + ".hit_event_speed",
           "expected a number >= 0 (m/s), got " + shortNumber(def.hitEventSpeed));
  }
  readBodyOptions(b, path, def);
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

SceneDirs sceneDirsBeside(const std::filesystem::path& shapesDir) {
  std::filesystem::path dir = shapesDir;
  if (!dir.has_filename()) dir = dir.parent_path();  // "assets/shapes/"
  const std::filesystem::path root = dir.parent_path();
  return {shapesDir, root / "meshes", root / "heightfields"};
}

Expected<Scene> parseScene(std::string_view text, const std::string& origin,
                           const std::filesystem::path& shapesDir) {
  return parseScene(text, origin, sceneDirsBeside(shapesDir));
}

Expected<Scene> parseScene(std::string_view text, const std::string& origin,
                           const SceneDirs& dirs) {
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
    checkKeys(root, "",
              {"name", "description", "settings", "shapes", "bodies", "generators", "joints"});
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
    ShapeCache shapes(dirs, std::move(inlineShapes));
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
        runGenerator(g[i], "generators[" + std::to_string(i) + "]", shapes, out.bodies, out.joints);
    }
    if (root.contains("joints"))
      for (SceneJoint& j : readJoints(root["joints"], static_cast<int>(out.bodies.size())))
        out.joints.push_back(std::move(j));
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
  SceneDirs dirs;
  if (!shapesDir.empty()) {
    dirs = sceneDirsBeside(shapesDir);
  } else {
    // Each folder beside the scene (assets/scenes/../shapes), else in the assets directory found
    // as for scenes.
    const std::vector<std::filesystem::path> roots = assetRoots();
    auto find = [&](const char* name) {
      std::filesystem::path dir = file.parent_path() / ".." / name;
      if (!std::filesystem::is_directory(dir))
        for (const auto& root : roots)
          if (std::filesystem::is_directory(root / name)) {
            dir = root / name;
            break;
          }
      return dir;
    };
    dirs = {find("shapes"), find("meshes"), find("heightfields")};
  }
  auto scene = parseScene(ss.str(), file.string(), dirs);
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
  std::vector<BodyId> ids;
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    auto id = (*world)->createBody(scene.bodies[i]);
    if (!id)
      return Expected<std::unique_ptr<World>>::failure("bodies[" + std::to_string(i) +
                                                       "]: " + id.error());
    ids.push_back(*id);
  }
  for (size_t i = 0; i < scene.joints.size(); ++i) {
    const SceneJoint& sj = scene.joints[i];
    JointDef def = sj.def;
    std::visit(
        [&](JointBase& base) {
          base.a = sj.a >= 0 && sj.a < static_cast<int>(ids.size()) ? ids[sj.a] : BodyId{};
          base.b = sj.b >= 0 && sj.b < static_cast<int>(ids.size()) ? ids[sj.b] : BodyId{};
        },
        def);
    auto id = (*world)->createJoint(def);
    if (!id)
      return Expected<std::unique_ptr<World>>::failure("joints[" + std::to_string(i) +
                                                       "]: " + id.error());
  }
  return world;
}

}  // namespace tumble
