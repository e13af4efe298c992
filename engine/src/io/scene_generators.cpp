// Scene generators: towers, pyramids, grids, piles and the benchmark heap, from a count and a
// seed. Random numbers: std::mt19937_64 with our own uniform mapping (portable, unlike
// std::uniform_real_distribution), so a seed gives the same scene everywhere.
#include <cmath>
#include <numbers>
#include <random>

#include "io/scene_internal.h"

namespace tumble {
namespace {

Real uniform(std::mt19937_64& rng, Real lo, Real hi) {
  return lo + (hi - lo) * static_cast<Real>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

// Uniformly distributed rotation (Shoemake, "Uniform random rotations", Graphics Gems III).
Quat randomRotation(std::mt19937_64& rng) {
  const Real u1 = uniform(rng, 0.0, 1.0), u2 = uniform(rng, 0.0, 1.0), u3 = uniform(rng, 0.0, 1.0);
  const Real a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const Real t2 = 2.0 * std::numbers::pi * u2, t3 = 2.0 * std::numbers::pi * u3;
  const Quat q(b * std::cos(t3), a * std::sin(t2), a * std::cos(t2), b * std::sin(t3));
  return q / glm::length(q);
}

}  // namespace

void appendHeap(std::vector<BodyDef>& out, bool hull20, int count, uint64_t seed) {
  std::vector<Vec3> groundPts;
  for (int i = 0; i < 8; ++i)
    groundPts.emplace_back((i & 1) ? 100.0 : -100.0, (i & 2) ? 1.0 : -1.0,
                           (i & 4) ? 100.0 : -100.0);
  BodyDef ground;
  ground.type = BodyType::Static;
  ground.shape = std::make_shared<const ConvexHull>(std::move(*ConvexHull::build(groundPts)));
  ground.position = Vec3(0.0, -1.0, 0.0);  // top face at y = 0
  ground.friction = 0.5;
  out.push_back(ground);

  std::mt19937_64 rng(seed);
  std::shared_ptr<const ConvexHull> cube;
  if (!hull20) {
    std::vector<Vec3> pts;
    for (int i = 0; i < 8; ++i)
      pts.emplace_back((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5);
    cube = std::make_shared<const ConvexHull>(std::move(*ConvexHull::build(pts)));
  }
  for (int n = 0; n < count; ++n) {
    const int layer = n / 100, cell = n % 100;
    const Real shift = (layer % 2) ? 0.75 : 0.0;
    BodyDef def;
    if (hull20) {
      // 20 points uniform on the sphere of radius 0.5 (normalised Gaussian-free: z and angle).
      for (;;) {
        std::vector<Vec3> pts;
        for (int k = 0; k < 20; ++k) {
          const Real z = uniform(rng, -1.0, 1.0), phi = uniform(rng, 0.0, 2.0 * std::numbers::pi);
          const Real r = std::sqrt(std::max(0.0, 1.0 - z * z));
          pts.emplace_back(0.5 * r * std::cos(phi), 0.5 * r * std::sin(phi), 0.5 * z);
        }
        auto hull = ConvexHull::build(pts);
        if (!hull) continue;  // degenerate draw (practically never): draw again
        def.shape = std::make_shared<const ConvexHull>(std::move(*hull));
        break;
      }
    } else {
      def.shape = cube;
    }
    const Real x = (cell % 10 - 4.5) * 1.5 + shift + uniform(rng, -0.1, 0.1);
    const Real z = (cell / 10 - 4.5) * 1.5 + shift + uniform(rng, -0.1, 0.1);
    def.position = Vec3(x, 1.0 + 1.5 * layer, z);
    def.orientation = randomRotation(rng);
    def.friction = 0.5;
    def.restitution = 0.0;
    def.density = 1.0 / def.shape.massProperties(1.0).volume;  // 1 kg
    out.push_back(def);
  }
}

namespace scene {
namespace {

struct ShapeRef {
  Shape shape;
  Real minY = 0.0, height = 0.0, width = 0.0;
};

// Generators make dynamic bodies: a mesh or height field is refused naming where it was named.
Shape dynamicShape(Shape shape, const std::string& name, const std::string& path) {
  if (shape.isStaticOnly())
    fail(path, "\"" + name + "\" is a " + shapeTypeName(shape.type()) +
                   ", static only (generators make dynamic bodies)");
  return shape;
}

ShapeRef shapeOf(const Json& g, const std::string& path, ShapeCache& shapes) {
  const std::string name = g.contains("shape") ? string(g["shape"], path + ".shape") : "box";
  const Vec3 s = g.contains("scale") ? scale(g["scale"], path + ".scale") : Vec3(1.0);
  ShapeRef r;
  r.shape =
      dynamicShape(shapes.named(name, s, path + ".shape", path + ".scale"), name, path + ".shape");
  const Aabb box = r.shape.bounds(Transform{});
  r.minY = box.lower.y;
  r.height = box.upper.y - r.minY;
  r.width = box.upper.x - box.lower.x;
  return r;
}

BodyDef body(const Shape& shape, const Vec3& p, const Material& m, const std::string& path) {
  BodyDef def;
  def.shape = shape;
  def.position = p;
  applyMaterial(def, m, path);
  return def;
}

}  // namespace

void runGenerator(const Json& g, const std::string& path, ShapeCache& shapes,
                  std::vector<BodyDef>& out, std::vector<SceneJoint>& joints) {
  object(g, path);
  if (!g.contains("type"))
    fail(path + ".type", "missing (tower, pyramid, grid, pile, heap or joint_grid)");
  const std::string type = string(g["type"], path + ".type");
  const Material mat = material(g, path);
  if (type == "tower") {
    checkKeys(g, path,
              {"type", "shape", "scale", "count", "origin", "gap", "friction", "restitution",
               "rolling_resistance", "density", "mass"});
    const ShapeRef s = shapeOf(g, path, shapes);
    const int count = integer(g.value("count", Json(20)), path + ".count", 1, 100000);
    const Vec3 origin = vec3Or(g, path, "origin", Vec3(0.0));
    const Real gap = numberOr(g, path, "gap", 0.0);
    for (int i = 0; i < count; ++i)
      out.push_back(
          body(s.shape, origin + Vec3(0.0, -s.minY + i * (s.height + gap), 0.0), mat, path));
  } else if (type == "pyramid") {
    checkKeys(g, path,
              {"type", "shape", "scale", "count", "origin", "spacing", "friction", "restitution",
               "rolling_resistance", "density", "mass"});
    const ShapeRef s = shapeOf(g, path, shapes);
    const int base = integer(g.value("count", Json(20)), path + ".count", 1, 1000);
    const Vec3 origin = vec3Or(g, path, "origin", Vec3(0.0));
    const Real spacing = numberOr(g, path, "spacing", 1.05 * s.width);
    for (int row = 0; row < base; ++row)
      for (int i = 0; i < base - row; ++i)
        out.push_back(body(
            s.shape,
            origin + Vec3((i - 0.5 * (base - row - 1)) * spacing, -s.minY + row * s.height, 0.0),
            mat, path));
  } else if (type == "grid") {
    checkKeys(g, path,
              {"type", "shape", "scale", "count", "origin", "spacing", "friction", "restitution",
               "rolling_resistance", "density", "mass"});
    const ShapeRef s = shapeOf(g, path, shapes);
    if (!g.contains("count")) fail(path + ".count", "missing ([nx, ny, nz])");
    const Vec3 n = vec3(g["count"], path + ".count");
    const Vec3 origin = vec3Or(g, path, "origin", Vec3(0.0));
    const Vec3 spacing =
        vec3Or(g, path, "spacing", Vec3(1.5 * s.width, 1.5 * s.height, 1.5 * s.width));
    if (n.x < 1 || n.y < 1 || n.z < 1 || n.x * n.y * n.z > 1e6)
      fail(path + ".count", "expected 1 to 1e6 bodies in all");
    for (int y = 0; y < static_cast<int>(n.y); ++y)
      for (int z = 0; z < static_cast<int>(n.z); ++z)
        for (int x = 0; x < static_cast<int>(n.x); ++x)
          out.push_back(body(s.shape, origin + Vec3(x, y, z) * spacing, mat, path));
  } else if (type == "pile") {
    checkKeys(g, path,
              {"type", "shapes", "count", "seed", "origin", "area", "spacing", "scale", "friction",
               "restitution", "rolling_resistance", "density", "mass"});
    std::vector<std::string> names{"box"};
    if (g.contains("shapes")) {
      const Json& s = g["shapes"];
      if (!s.is_array() || s.empty())
        fail(path + ".shapes", "expected a non-empty array of shape names");
      names.clear();
      for (size_t i = 0; i < s.size(); ++i)
        names.push_back(string(s[i], path + ".shapes[" + std::to_string(i) + "]"));
    }
    const int count = integer(g.value("count", Json(200)), path + ".count", 1, 1000000);
    const uint64_t seed =
        static_cast<uint64_t>(integer(g.value("seed", Json(1)), path + ".seed", 0, 2147483647));
    const Vec3 origin = vec3Or(g, path, "origin", Vec3(0.0, 1.0, 0.0));
    Real areaX = 8.0, areaZ = 8.0;
    if (g.contains("area")) {
      const Json& a = g["area"];
      if (!a.is_array() || a.size() != 2) fail(path + ".area", "expected [x, z]");
      areaX = number(a[0], path + ".area[0]");
      areaZ = number(a[1], path + ".area[1]");
    }
    const Real spacing = numberOr(g, path, "spacing", 1.2);
    Real smin = 1.0, smax = 1.0;
    if (g.contains("scale")) {
      const Json& s = g["scale"];
      if (!s.is_array() || s.size() != 2) fail(path + ".scale", "expected [min, max]");
      smin = number(s[0], path + ".scale[0]");
      smax = number(s[1], path + ".scale[1]");
      if (!(smin > 0.0 && smax >= smin)) fail(path + ".scale", "expected 0 < min <= max");
    }
    if (!(spacing > 0.0)) fail(path + ".spacing", "must be > 0");
    const int nx = std::max(1, static_cast<int>(areaX / spacing)),
              nz = std::max(1, static_cast<int>(areaZ / spacing));
    std::mt19937_64 rng(seed);
    for (int i = 0; i < count; ++i) {
      const int layer = i / (nx * nz), cell = i % (nx * nz);
      const std::string& name = names[rng() % names.size()];
      // Scales are quantised to 1/20 so equal draws share one hull.
      const Real sc = std::round(uniform(rng, smin, smax) * 20.0) / 20.0;
      // The jitters are drawn in statements of their own: as arguments of one call their order
      // would be the compiler's (GCC drew z first, clang x: the scene differed between them).
      // z first keeps the scenes GCC built, and the golden hashes.
      const Real jitterZ = uniform(rng, -0.1, 0.1);
      const Real jitterX = uniform(rng, -0.1, 0.1);
      const Vec3 p =
          origin + Vec3((cell % nx - 0.5 * (nx - 1)) * spacing + jitterX * spacing, layer * spacing,
                        (cell / nx - 0.5 * (nz - 1)) * spacing + jitterZ * spacing);
      const Shape shape = dynamicShape(
          shapes.named(name, Vec3(std::max(sc, 0.05)), path + ".shapes", path + ".scale"), name,
          path + ".shapes");
      BodyDef def = body(shape, p, mat, path);
      def.orientation = randomRotation(rng);
      out.push_back(def);
    }
  } else if (type == "heap") {
    checkKeys(g, path, {"type", "kind", "count", "seed"});
    const std::string kind = g.contains("kind") ? string(g["kind"], path + ".kind") : "boxes";
    if (kind != "boxes" && kind != "hull20")
      fail(path + ".kind", "expected \"boxes\" or \"hull20\", got \"" + kind + "\"");
    const int count = integer(g.value("count", Json(500)), path + ".count", 1, 1000000);
    const uint64_t seed =
        static_cast<uint64_t>(integer(g.value("seed", Json(1)), path + ".seed", 0, 2147483647));
    appendHeap(out, kind == "hull20", count, seed);
  } else if (type == "joint_grid") {
    // Box3D's joint_grid benchmark (shared/benchmarks.c): spheres in a vertical grid, the top row
    // static, each joined by a ball joint to its neighbour above and to its left, anchors
    // half-way; neighbours are apart, and the spheres are filtered from each other (below).
    checkKeys(g, path, {"type", "count", "spacing", "radius", "origin", "density"});
    const int n = integer(g.value("count", Json(100)), path + ".count", 2, 1000);
    const Real spacing = numberOr(g, path, "spacing", 1.0);
    const Real radius = numberOr(g, path, "radius", 0.4);
    if (!(spacing > 0.0)) fail(path + ".spacing", "expected a number > 0 (m)");
    if (!(radius > 0.0) || radius >= 0.5 * spacing)
      fail(path + ".radius", "expected a number > 0 and < spacing / 2 (m)");
    const Vec3 origin = vec3Or(g, path, "origin", Vec3(0.0, n * spacing, 0.0));
    const Shape sphere = *makeSphere(radius);
    const int first = static_cast<int>(out.size());
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        BodyDef def;
        def.shape = sphere;
        def.position = origin + Vec3(col * spacing, -row * spacing, 0.0);
        def.density = numberOr(g, path, "density", 1000.0);
        if (row == 0) def.type = BodyType::Static;
        // The spheres never collide with each other (Box3D's categoryBits 2, maskBits ~2): no
        // pair of them reaches the narrow phase.
        def.filter.category = 2;
        def.filter.mask = ~uint64_t{2};
        out.push_back(def);
      }
    auto at = [&](int row, int col) { return first + row * n + col; };
    for (int row = 0; row < n; ++row)
      for (int col = 0; col < n; ++col) {
        const Vec3 p = origin + Vec3(col * spacing, -row * spacing, 0.0);
        if (row > 0) {
          BallJointDef up;
          up.anchor = p + Vec3(0.0, 0.5 * spacing, 0.0);
          joints.push_back({up, at(row - 1, col), at(row, col)});
        }
        if (col > 0 && row > 0) {  // the static top row needs no joints between its spheres
          BallJointDef left;
          left.anchor = p - Vec3(0.5 * spacing, 0.0, 0.0);
          joints.push_back({left, at(row, col - 1), at(row, col)});
        }
      }
  } else {
    fail(path + ".type", "unknown generator \"" + type +
                             "\" (expected tower, pyramid, grid, pile, heap or joint_grid)");
  }
}

}  // namespace scene
}  // namespace tumble
