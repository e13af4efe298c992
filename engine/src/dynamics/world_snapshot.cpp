// World snapshots (snapshot.h): every member a step reads, written field by field in one order
// and read back in the same order by the same visitor functions (`io` below runs once with a
// Writer and once with a Reader, so the two cannot drift apart). A reader refuses, naming the
// byte offset, what would make the world unsound: a value out of its range, an index past its
// array, a non-finite number where the engine keeps finite ones. The file is then checked as a
// whole (cross references: a pair's bodies are alive, a proxy is a leaf naming its body, the
// tree has no cycle) before the world is replaced, so a refused snapshot changes nothing.
#include "tumble/snapshot.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include "dynamics/contact_solver.h"
#include "dynamics/drag.h"
#include "dynamics/joint_solver.h"
#include "tumble/atomic_file.h"
#include "tumble/world.h"

namespace tumble {

static_assert(std::endian::native == std::endian::little,
              "snapshots store numbers little-endian as they lie in memory");

World& World::operator=(World&&) noexcept = default;

namespace {

constexpr char kMagic[8] = {'T', 'U', 'M', 'B', 'L', 'E', 'S', 'N'};
constexpr size_t kHeaderSize = 32;

// Appends the bytes of what it is given.
class Writer {
 public:
  static constexpr bool kReading = false;
  std::vector<uint8_t> bytes;
  uint32_t version = kSnapshotVersion;  // the format written: always the newest

  void context(const char*, int = -1) {}
  template <class T>
  void pod(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void real(Real& x, const char*) { pod(x); }
  void realOrInfinite(Real& x, const char*) { pod(x); }
  void single(float& x, const char*) { pod(x); }
  void singleOrInfinite(float& x, const char*) { pod(x); }
  void flag(bool& b, const char*) {
    uint8_t v = b ? 1 : 0;
    pod(v);
  }
  void integer(int& i, const char*, int, int) {
    int32_t v = i;
    pod(v);
  }
  template <class E>
  void enumeration(E& e, int, const char*) {
    uint8_t v = static_cast<uint8_t>(e);
    pod(v);
  }
  // A count of elements to follow, each at least `minBytes` long.
  size_t count(size_t n, size_t, const char*) {
    uint64_t v = n;
    pod(v);
    return n;
  }
  void text(std::string& s, const char* what) {
    const size_t n = count(s.size(), 1, what);
    bytes.insert(bytes.end(), s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n));
  }
  bool ok() const { return true; }
};

// Reads what a Writer wrote; the first problem is kept (with its offset) and every later read
// gives zeros, so callers check ok() once per object, not per field.
class Reader {
 public:
  static constexpr bool kReading = true;
  std::span<const uint8_t> data;
  size_t pos = 0;
  size_t base = 0;  // offset of data[0] in the whole snapshot (the header before it)
  std::string error;
  uint32_t version = kSnapshotVersion;  // the header's: fields added later are read from then on

  explicit Reader(std::span<const uint8_t> d, size_t b) : data(d), base(b) {}

  void context(const char* what, int index = -1) {
    where_ = what;
    if (index >= 0) where_ += " " + std::to_string(index);
  }
  bool ok() const { return error.empty(); }
  void fail(size_t at, const std::string& expected, const std::string& found) {
    if (!error.empty()) return;
    error = "offset " + std::to_string(base + at) + " (" + where_ + "): expected " + expected +
            ", found " + found;
  }
  template <class T>
  void pod(T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!ok()) {
      std::memset(static_cast<void*>(&v), 0, sizeof(T));
      return;
    }
    if (data.size() - pos < sizeof(T)) {
      fail(pos, std::to_string(sizeof(T)) + " more bytes",
           "the end of the data at offset " + std::to_string(base + data.size()));
      std::memset(static_cast<void*>(&v), 0, sizeof(T));
      return;
    }
    std::memcpy(static_cast<void*>(&v), data.data() + pos, sizeof(T));
    pos += sizeof(T);
  }
  void real(Real& x, const char* what) {
    const size_t at = pos;
    pod(x);
    if (ok() && !std::isfinite(x)) fail(at, std::string("a finite ") + what, std::to_string(x));
  }
  void realOrInfinite(Real& x, const char* what) {
    const size_t at = pos;
    pod(x);
    if (ok() && std::isnan(x)) fail(at, std::string("a number (") + what + ")", "NaN");
  }
  void single(float& x, const char* what) {
    const size_t at = pos;
    pod(x);
    if (ok() && !std::isfinite(x)) fail(at, std::string("a finite ") + what, std::to_string(x));
  }
  void singleOrInfinite(float& x, const char* what) {
    const size_t at = pos;
    pod(x);
    if (ok() && std::isnan(x)) fail(at, std::string("a number (") + what + ")", "NaN");
  }
  void flag(bool& b, const char* what) {
    const size_t at = pos;
    uint8_t v = 0;
    pod(v);
    if (ok() && v > 1) fail(at, std::string("0 or 1 (") + what + ")", std::to_string(v));
    b = v == 1;
  }
  // An int in [lo, hi].
  void integer(int& i, const char* what, int lo, int hi) {
    const size_t at = pos;
    int32_t v = 0;
    pod(v);
    if (ok() && (v < lo || v > hi))
      fail(at, std::string(what) + " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
           std::to_string(v));
    i = ok() ? v : 0;
  }
  template <class E>
  void enumeration(E& e, int values, const char* what) {
    const size_t at = pos;
    uint8_t v = 0;
    pod(v);
    if (ok() && v >= values)
      fail(at, std::string(what) + " below " + std::to_string(values), std::to_string(v));
    e = static_cast<E>(ok() ? v : 0);
  }
  size_t count(size_t, size_t minBytes, const char* what) {
    const size_t at = pos;
    uint64_t v = 0;
    pod(v);
    // Every element takes at least minBytes: a count the rest of the data cannot hold is
    // refused before anything is allocated for it.
    if (ok() && v > (data.size() - pos) / std::max<size_t>(minBytes, 1))
      fail(at,
           std::string("a count of ") + what + " that the remaining " +
               std::to_string(data.size() - pos) + " bytes can hold",
           std::to_string(v));
    return ok() ? static_cast<size_t>(v) : 0;
  }
  void text(std::string& s, const char* what) {
    const size_t n = count(0, 1, what);
    s.assign(reinterpret_cast<const char*>(data.data() + pos), n);
    pos += n;
  }

 private:
  std::string where_ = "header";
};

template <class IO>
void io(IO& o, Vec3& v, const char* what) {
  o.real(v.x, what), o.real(v.y, what), o.real(v.z, what);
}
template <class IO>
void io(IO& o, Quat& q, const char* what) {
  o.real(q.w, what), o.real(q.x, what), o.real(q.y, what), o.real(q.z, what);
}
template <class IO>
void io(IO& o, Mat3& m, const char* what) {
  for (int c = 0; c < 3; ++c) io(o, m[c], what);
}
template <class IO>
void io(IO& o, Aabb& b, const char* what) {
  io(o, b.lower, what), io(o, b.upper, what);
}
template <class IO>
void io(IO& o, MassProperties& m) {
  o.real(m.volume, "volume"), o.real(m.mass, "mass");
  io(o, m.centerOfMass, "centre of mass"), io(o, m.inertia, "inertia");
}
// A vector of plain elements, each through `each`.
template <class IO, class T, class Each>
void list(IO& o, std::vector<T>& v, size_t minBytes, const char* what, Each&& each) {
  const size_t n = o.count(v.size(), minBytes, what);
  if constexpr (IO::kReading) v.assign(n, T{});
  for (size_t i = 0; i < n && o.ok(); ++i) each(v[i]);
}
template <class IO>
void ints(IO& o, std::vector<int>& v, const char* what, int lo, int hi) {
  list(o, v, 4, what, [&](int& i) { o.integer(i, what, lo, hi); });
}
template <class IO>
void id(IO& o, BodyId& b, int bodies) {
  o.integer(b.index, "body index", 0, bodies - 1);
  o.pod(b.generation);
}
template <class IO>
void io(IO& o, GjkSimplex& s) {
  o.integer(s.count, "GJK simplex size", 0, 4);
  for (int k = 0; k < 4; ++k) o.pod(s.indexA[k]), o.pod(s.indexB[k]);  // GJK checks the range
}

constexpr int kMaxInt = std::numeric_limits<int>::max();

}  // namespace

// Friend of World, ConvexHull, AabbTree, BroadPhase and JointSet: reads and writes their members.
struct SnapshotCodec {
  template <class IO>
  static void hull(IO& o, ConvexHull& h) {
    list(o, h.vertices_, 24, "hull vertices", [&](Vec3& v) { io(o, v, "hull vertex"); });
    const int n = static_cast<int>(h.vertices_.size());
    if constexpr (IO::kReading)
      if (o.ok() && n < 4) o.fail(o.pos, "at least 4 hull vertices", std::to_string(n));
    list(o, h.faces_, 36, "hull faces", [&](HullFace& f) {
      ints(o, f.vertices, "face vertex", 0, n - 1);
      io(o, f.normal, "face normal"), o.real(f.offset, "face offset");
    });
    const int faces = static_cast<int>(h.faces_.size());
    list(o, h.edges_, 16, "hull edges", [&](HullEdge& e) {
      o.integer(e.a, "edge vertex", 0, n - 1), o.integer(e.b, "edge vertex", 0, n - 1);
      o.integer(e.faceA, "edge face", 0, faces - 1), o.integer(e.faceB, "edge face", 0, faces - 1);
    });
    ints(o, h.neighbourOffsets_, "neighbour offset", 0, kMaxInt);
    ints(o, h.neighbours_, "neighbour", 0, n - 1);
    ints(o, h.sourceIndices_, "source index", 0, kMaxInt);
    o.real(h.radius_, "hull radius");
    if constexpr (IO::kReading) {
      // The adjacency must be empty or n + 1 non-decreasing offsets from 0 to its length.
      const auto& off = h.neighbourOffsets_;
      bool sound = off.empty() || (off.size() == static_cast<size_t>(n) + 1 && off[0] == 0 &&
                                   off.back() == static_cast<int>(h.neighbours_.size()));
      for (size_t i = 1; sound && i < off.size(); ++i) sound = off[i - 1] <= off[i];
      if (o.ok() && (!sound || h.sourceIndices_.size() != static_cast<size_t>(n)))
        o.fail(o.pos, "a hull's adjacency and source indices sized by its vertices", "others");
      if (o.ok()) h.findBox();  // derived from the arrays, as build() derives it
    }
  }

  // Shapes: a table, each geometry once, a compound's children before it.
  struct ShapeTable {
    std::vector<Shape> shapes;
    std::unordered_map<const void*, int> index;
  };
  static const void* geometry(const Shape& s) {
    if (s.hull()) return s.hull();
    if (s.round()) return s.round();
    if (s.cylinder()) return s.cylinder();
    if (s.roundedHull()) return s.roundedHull();
    if (s.compound()) return s.compound();
    if (s.mesh()) return s.mesh();
    return s.heightField();
  }
  static int addShape(ShapeTable& t, const Shape& s) {
    const void* key = geometry(s);
    if (auto it = t.index.find(key); it != t.index.end()) return it->second;
    if (const Compound* c = s.compound())
      for (const CompoundChild& child : c->children) addShape(t, child.shape);
    t.shapes.push_back(s);
    return t.index[key] = static_cast<int>(t.shapes.size()) - 1;
  }

  // A compound child's own filter and sensor flag (from version 2; none before).
  template <class IO>
  static void childFlags(IO& o, CompoundChild& child) {
    if (o.version < 2) return;
    bool own = child.filter.has_value();
    o.flag(own, "child has a filter"), o.flag(child.isSensor, "child sensor");
    if (!own) return;
    if (!child.filter) child.filter.emplace();
    o.pod(child.filter->category), o.pod(child.filter->mask), o.pod(child.filter->group);
  }

  static void writeShape(Writer& o, const Shape& s, const ShapeTable& t) {
    ShapeType type = s.type();
    o.enumeration(type, kShapeTypeCount, "shape kind");
    switch (type) {
      case ShapeType::Hull:
        hull(o, const_cast<ConvexHull&>(*s.hull()));
        break;
      case ShapeType::Sphere:
      case ShapeType::Capsule: {
        RoundCore r = *s.round();
        o.integer(r.count, "round core points", 1, 2);
        for (int k = 0; k < r.count; ++k) io(o, r.points[k], "round core point");
        o.real(r.radius, "radius");
        break;
      }
      case ShapeType::Cylinder: {
        CylinderSupport c = s.cylinder()->support;
        o.real(c.radius, "radius"), o.real(c.halfHeight, "half height");
        break;
      }
      case ShapeType::RoundedHull: {
        RoundedHullCore r = *s.roundedHull();
        hull(o, r.hull);
        o.real(r.radius, "radius");
        io(o, r.unitMass);
        break;
      }
      case ShapeType::Compound: {
        Compound c = *s.compound();
        o.count(c.children.size(), 0, "children");
        for (CompoundChild& child : c.children) {
          int k = t.index.at(geometry(child.shape));
          o.integer(k, "child shape", 0, kMaxInt);
          io(o, child.local.position, "child position"),
              io(o, child.local.rotation, "child rotation");
          io(o, c.childBounds[&child - c.children.data()], "child bounds");
          childFlags(o, child);
        }
        list(o, c.corePoints, 24, "core points", [&](Vec3& p) { io(o, p, "core point"); });
        io(o, c.unitMass);
        break;
      }
      case ShapeType::Mesh: {
        TriangleMesh& m = const_cast<TriangleMesh&>(*s.mesh());  // read only
        list(o, m.vertices, 24, "mesh vertices", [&](Vec3& p) { io(o, p, "mesh vertex"); });
        list(o, m.triangles, 12, "triangles", [&](std::array<int, 3>& tri) {
          for (int& i : tri) o.integer(i, "triangle vertex", 0, kMaxInt);
        });
        break;
      }
      case ShapeType::HeightField: {
        HeightField& f = const_cast<HeightField&>(*s.heightField());  // read only
        o.integer(f.rows, "rows", 2, kMaxInt), o.integer(f.columns, "columns", 2, kMaxInt);
        o.real(f.dx, "spacing"), o.real(f.dz, "spacing");
        list(o, f.heights, 8, "heights", [&](Real& h) { o.real(h, "height"); });
        break;
      }
    }
  }

  // Reads one shape; `known` are the shapes read before it (a compound's children).
  static Shape readShape(Reader& o, const std::vector<Shape>& known) {
    ShapeType type{};
    o.enumeration(type, kShapeTypeCount, "shape kind");
    if (!o.ok()) return {};
    const size_t at = o.pos;
    auto made = [&](Expected<Shape> s) {
      if (!s && o.ok()) o.fail(at, "a valid shape", "one that fails: " + s.error());
      return s ? *s : Shape{};
    };
    switch (type) {
      case ShapeType::Hull: {
        auto h = std::make_shared<ConvexHull>();
        hull(o, *h);
        return o.ok() ? Shape(std::shared_ptr<const ConvexHull>(std::move(h))) : Shape{};
      }
      case ShapeType::Sphere:
      case ShapeType::Capsule: {
        auto r = std::make_shared<RoundCore>();
        o.integer(r->count, "round core points", type == ShapeType::Sphere ? 1 : 2,
                  type == ShapeType::Sphere ? 1 : 2);
        for (int k = 0; k < r->count && o.ok(); ++k) io(o, r->points[k], "round core point");
        o.real(r->radius, "radius");
        if (o.ok() && !(r->radius > 0.0)) o.fail(at, "a radius > 0", std::to_string(r->radius));
        return o.ok() ? Shape(type, std::shared_ptr<const RoundCore>(std::move(r))) : Shape{};
      }
      case ShapeType::Cylinder: {
        Real radius = 0.0, halfHeight = 0.0;
        o.real(radius, "radius"), o.real(halfHeight, "half height");
        return o.ok() ? made(makeCylinder(radius, halfHeight)) : Shape{};
      }
      case ShapeType::RoundedHull: {
        auto r = std::make_shared<RoundedHullCore>();
        hull(o, r->hull);
        o.real(r->radius, "radius");
        io(o, r->unitMass);
        if (o.ok() && !(r->radius > 0.0)) o.fail(at, "a radius > 0", std::to_string(r->radius));
        return o.ok() ? Shape(std::shared_ptr<const RoundedHullCore>(std::move(r))) : Shape{};
      }
      case ShapeType::Compound: {
        auto c = std::make_shared<Compound>();
        const size_t n = o.count(0, 4 + 56 + 48, "children");
        if (o.ok() && n == 0) o.fail(at, "at least one child", "none");
        for (size_t i = 0; i < n && o.ok(); ++i) {
          CompoundChild child;
          int k = 0;
          o.integer(k, "child shape (an earlier one)", 0, static_cast<int>(known.size()) - 1);
          if (o.ok() && !known[k].isConvex()) o.fail(o.pos, "a convex child", "another kind");
          if (o.ok()) child.shape = known[k];
          io(o, child.local.position, "child position"),
              io(o, child.local.rotation, "child rotation");
          io(o, c->childBounds.emplace_back(), "child bounds");
          childFlags(o, child);
          c->children.push_back(child);
        }
        list(o, c->corePoints, 24, "core points", [&](Vec3& p) { io(o, p, "core point"); });
        io(o, c->unitMass);
        if (!o.ok()) return {};
        c->tree = StaticBvh(c->childBounds);
        c->summariseChildren();
        return Shape(std::shared_ptr<const Compound>(std::move(c)));
      }
      case ShapeType::Mesh: {
        std::vector<Vec3> vertices;
        std::vector<std::array<int, 3>> triangles;
        list(o, vertices, 24, "mesh vertices", [&](Vec3& p) { io(o, p, "mesh vertex"); });
        list(o, triangles, 12, "triangles", [&](std::array<int, 3>& tri) {
          for (int& i : tri) o.integer(i, "triangle vertex", 0, kMaxInt);
        });
        return o.ok() ? made(makeMesh(std::move(vertices), std::move(triangles))) : Shape{};
      }
      case ShapeType::HeightField: {
        int rows = 0, columns = 0;
        Real dx = 0.0, dz = 0.0;
        std::vector<Real> flat;
        o.integer(rows, "rows", 2, kMaxInt), o.integer(columns, "columns", 2, kMaxInt);
        o.real(dx, "spacing"), o.real(dz, "spacing");
        list(o, flat, 8, "heights", [&](Real& h) { o.real(h, "height"); });
        if (!o.ok()) return {};
        if (flat.size() != static_cast<size_t>(rows) * static_cast<size_t>(columns)) {
          o.fail(at, "rows x columns heights", std::to_string(flat.size()));
          return {};
        }
        std::vector<std::vector<Real>> heights(rows);
        for (int r = 0; r < rows; ++r)
          heights[r].assign(flat.begin() + static_cast<std::ptrdiff_t>(r) * columns,
                            flat.begin() + static_cast<std::ptrdiff_t>(r + 1) * columns);
        return made(makeHeightField(heights, dx, dz));
      }
    }
    return {};
  }

  template <class IO>
  static void body(IO& o, Body& b) {
    o.enumeration(b.type, 3, "body type");
    io(o, b.localCenter, "local centre"), io(o, b.localInertia, "inertia");
    io(o, b.invLocalInertia, "inverse inertia");
    o.real(b.mass, "mass"), o.real(b.invMass, "inverse mass"), o.real(b.radius, "radius");
    io(o, b.center, "position"), io(o, b.rotation, "rotation");
    io(o, b.linearVelocity, "velocity"), io(o, b.angularVelocity, "angular velocity");
    io(o, b.force, "force"), io(o, b.torque, "torque");
    o.real(b.friction, "friction"), o.real(b.restitution, "restitution");
    o.real(b.rollingResistance, "rolling resistance");
    o.flag(b.awake, "awake"), o.real(b.sleepTime, "sleep time");
    o.pod(b.userData);
    o.pod(b.filter.category), o.pod(b.filter.mask), o.pod(b.filter.group);
    // Events (events.h) and body options.
    o.flag(b.isSensor, "sensor"), o.singleOrInfinite(b.hitEventSpeed, "hit event speed");
    o.real(b.linearDamping, "damping"), o.real(b.angularDamping, "damping");
    o.real(b.gravityScale, "gravity scale");
    io(o, b.linearFree, "free axes"), io(o, b.angularFree, "free axes");
    o.flag(b.bullet, "bullet"), o.flag(b.hasOptions, "has options");
  }

  template <class IO>
  static void manifold(IO& o, Manifold& m, int bodies) {
    id(o, m.a, bodies), id(o, m.b, bodies);
    io(o, m.normal, "normal"), io(o, m.tangent1, "tangent"), io(o, m.tangent2, "tangent");
    o.real(m.friction, "friction"), o.real(m.restitution, "restitution");
    o.integer(m.pointCount, "point count", 0, 4);
    o.single(m.rollingResistance, "rolling resistance");
    for (ContactPoint& p : m.points) {
      io(o, p.localA, "anchor"), io(o, p.localB, "anchor");
      o.real(p.separation, "separation"), o.pod(p.id), o.single(p.foundSeparation, "separation");
      o.real(p.normalImpulse, "impulse"), o.real(p.baseSeparation, "separation");
    }
    o.real(m.frictionImpulse[0], "impulse"), o.real(m.frictionImpulse[1], "impulse");
    o.real(m.twistImpulse, "impulse");
    io(o, m.cache);
    o.single(m.rollingImpulse[0], "impulse"), o.single(m.rollingImpulse[1], "impulse");
    o.integer(m.gjkIterations, "GJK iterations", 0, kMaxInt);
    io(o, m.found.centerA, "pose"), io(o, m.found.centerB, "pose");
    io(o, m.found.rotationA, "pose"), io(o, m.found.rotationB, "pose");
    o.flag(m.found.valid, "pose valid");
    o.real(m.distance, "distance"), o.pod(m.key);
    o.single(m.radiusA, "radius"), o.single(m.radiusB, "radius");
    o.integer(m.epaIterations, "EPA iterations", 0, kMaxInt);
    o.flag(m.overlapping, "overlapping");
  }

  template <class IO>
  static void joint(IO& o, Joint& j, int bodies) {
    o.enumeration(j.type, 6, "joint type");
    o.integer(j.a, "joint body", -1, bodies - 1), o.integer(j.b, "joint body", -1, bodies - 1);
    o.flag(j.collideConnected, "collide"), o.realOrInfinite(j.breakForce, "break force");
    io(o, j.localAnchorA, "anchor"), io(o, j.localAnchorB, "anchor");
    io(o, j.frameA, "frame"), io(o, j.frameB, "frame");
    o.flag(j.motor.enabled, "motor"), o.real(j.motor.speed, "motor speed");
    o.realOrInfinite(j.motor.maxEffort, "motor effort");
    o.flag(j.limits.enabled, "limits");
    o.realOrInfinite(j.limits.lower, "limit"), o.realOrInfinite(j.limits.upper, "limit");
    o.flag(j.spring.enabled, "spring"), o.real(j.spring.hertz, "spring frequency");
    o.real(j.spring.dampingRatio, "spring damping");
    // The spring's target (from version 4; 0 before, where every spring pulled to 0).
    if (o.version >= 4) o.real(j.spring.target, "spring target");
    o.realOrInfinite(j.minLength, "length"), o.realOrInfinite(j.maxLength, "length");
    o.real(j.restLength, "length"), o.real(j.swing, "swing");
    o.real(j.friction, "friction");
    // The impulses carried to the next step (warm starting) and the last reactions; the rest of
    // the solver state is set by the next step's prepare.
    o.real(j.h, "substep");
    io(o, j.linearImpulse, "impulse"), io(o, j.angularImpulse, "impulse");
    for (AxialImpulses* a : {&j.axial, &j.twist}) {
      o.real(a->spring, "impulse"), o.real(a->motor, "impulse");
      o.real(a->lower, "impulse"), o.real(a->upper, "impulse");
    }
    io(o, j.reactionForce, "reaction"), io(o, j.reactionTorque, "reaction");
  }

  template <class IO>
  static void tree(IO& o, AabbTree& t) {
    const int limit = kMaxInt - 1;
    list(o, t.nodes_, 68, "tree nodes", [&](AabbTree::Node& n) {
      io(o, n.aabb, "tree box");
      o.integer(n.parent, "tree link", -1, limit), o.integer(n.child1, "tree link", -1, limit);
      o.integer(n.child2, "tree link", -1, limit), o.integer(n.height, "tree height", -1, limit);
      o.integer(n.userData, "proxy body", -1, limit);
    });
    o.integer(t.root_, "tree root", -1, limit), o.integer(t.freeList_, "free node", -1, limit);
    o.integer(t.leafCount_, "leaf count", 0, limit);
  }

  // Everything in order. The reader gets a World made with the snapshot's settings.
  template <class IO>
  static void world(IO& o, World& w) {
    o.context("bodies");
    const size_t n = o.count(w.bodies_.size(), 5, "body slots");
    if constexpr (IO::kReading) w.bodies_.resize(n);
    const int bodies = static_cast<int>(n);
    for (size_t i = 0; i < n && o.ok(); ++i) {
      Body& b = w.bodies_[i];
      o.context("body", static_cast<int>(i));
      o.flag(b.alive, "alive"), o.pod(b.generation);
      if (!b.alive) continue;
      body(o, b);
      o.integer(b.sleepIsland, "sleep island", -1, bodies - 1);
      o.integer(b.sleepNext, "sleep link", -1, bodies - 1);
      o.integer(b.proxy, "proxy", 0, kMaxInt - 1);
    }
    o.context("free slots");
    ints(o, w.freeSlots_, "free slot", 0, bodies - 1);
    o.context("boxes");
    list(o, w.boxes_, 48, "boxes", [&](Aabb& b) { io(o, b, "box"); });
    o.context("broad phase");
    tree(o, w.broadPhase_.tree_);
    list(o, w.broadPhase_.pairs_, 8, "proxy pairs", [&](ProxyPair& p) {
      o.integer(p.first, "proxy", 0, kMaxInt - 1), o.integer(p.second, "proxy", 0, kMaxInt - 1);
    });
    ints(o, w.broadPhase_.moved_, "moved proxy", 0, kMaxInt - 1);
    o.context("contact pairs");
    list(o, w.pairs_, 64, "contact pairs", [&](ContactPair& p) {
      id(o, p.a, bodies), id(o, p.b, bodies), io(o, p.cache);
      o.real(p.distance, "distance"), o.flag(p.overlapping, "overlapping");
      o.integer(p.manifold, "manifold index", -1, kMaxInt - 1);
      o.integer(p.manifoldCount, "manifold count", 0, kMaxInt - 1);
      o.flag(p.touching, "touching");
      // The separating axis tried before GJK (from version 3; none before).
      if (o.version >= 3) o.pod(p.axis.u), o.pod(p.axis.v);
    });
    o.context("manifolds");
    list(o, w.manifolds_, 400, "manifolds", [&](Manifold& m) { manifold(o, m, bodies); });
    o.context("motion bounds");
    list(o, w.lastCenter_, 24, "centres", [&](Vec3& c) { io(o, c, "centre"); });
    list(o, w.lastRotation_, 32, "rotations", [&](Quat& q) { io(o, q, "rotation"); });
    list(o, w.motion_, 8, "motions", [&](Real& m) { o.real(m, "motion"); });
    o.context("islands");
    ints(o, w.islandOf_, "island", -1, kMaxInt);
    o.context("joints");
    JointSet& js = *w.joints_;
    list(o, js.joints_, 5, "joint slots", [&](Joint& j) {
      o.flag(j.alive, "alive"), o.pod(j.generation);
      if (j.alive) joint(o, j, bodies);
    });
    ints(o, js.freeSlots_, "free joint slot", 0, static_cast<int>(js.joints_.size()) - 1);
    list(o, w.brokenJoints_, 8, "broken joints",
         [&](JointId& j) { o.integer(j.index, "joint index", -1, kMaxInt), o.pod(j.generation); });
    o.context("drags");
    const size_t drags = o.count(w.drags_.size(), 5, "drag slots");
    if constexpr (IO::kReading) w.drags_.resize(drags), w.dragGenerations_.assign(drags, 0);
    for (size_t k = 0; k < drags && o.ok(); ++k) {
      bool present = w.drags_[k] != nullptr;
      o.flag(present, "drag present"), o.pod(w.dragGenerations_[k]);
      if (!present) continue;
      if constexpr (IO::kReading) w.drags_[k] = std::make_unique<DragConstraint>();
      DragConstraint& d = *w.drags_[k];
      o.integer(d.body, "drag body", 0, bodies - 1);
      io(o, d.localAnchor, "anchor"), io(o, d.target, "target"), io(o, d.impulse, "impulse");
      o.real(d.def.frequency, "frequency"), o.real(d.def.dampingRatio, "damping");
      o.real(d.def.maxForcePerMass, "force");
    }
    o.context("events");
    // The sensors' overlaps (the next step's sensor events are measured against them), the
    // events of World calls since the last step (reported with the next step's), and the last
    // step's events (what contactEvents() and sensorEvents() show now).
    auto sensors = [&](std::vector<SensorEvent>& v) {
      list(o, v, 16, "sensor events", [&](SensorEvent& e) {
        id(o, e.sensor, bodies), id(o, e.visitor, bodies);
        if (o.version >= 2) o.integer(e.sensorChild, "sensor child", -1, 65534);
      });
    };
    auto contacts = [&](ContactEvents& e) {
      list(o, e.begin, 64, "begin events", [&](ContactBeginEvent& c) {
        id(o, c.a, bodies), id(o, c.b, bodies);
        io(o, c.point, "event point"), io(o, c.normal, "event normal");
      });
      list(o, e.end, 16, "end events",
           [&](ContactEndEvent& c) { id(o, c.a, bodies), id(o, c.b, bodies); });
      list(o, e.hit, 72, "hit events", [&](ContactHitEvent& c) {
        id(o, c.a, bodies), id(o, c.b, bodies);
        io(o, c.point, "event point"), io(o, c.normal, "event normal");
        o.real(c.approachSpeed, "approach speed");
      });
    };
    sensors(w.sensorOverlaps_);
    contacts(w.pendingContact_), sensors(w.pendingSensor_.begin), sensors(w.pendingSensor_.end);
    contacts(w.contactEvents_), sensors(w.sensorEvents_.begin), sensors(w.sensorEvents_.end);
    o.context("counters");
    o.pod(w.stepCount_), o.pod(w.crosscheckCounter_);
    o.pod(w.crosscheckChecked_), o.pod(w.crosscheckDisagreed_);
    const size_t events = o.count(w.nonFinite_.size(), 13, "non-finite events");
    if constexpr (IO::kReading) w.nonFinite_.resize(events);
    for (size_t k = 0; k < events && o.ok(); ++k) {
      NonFiniteEvent& e = w.nonFinite_[k];
      o.integer(e.body.index, "body index", 0, kMaxInt), o.pod(e.body.generation), o.pod(e.step);
      static constexpr const char* kQuantities[] = {
          "position", "orientation", "linear_velocity", "angular_velocity", "force", "torque"};
      int q = 0;
      if constexpr (!IO::kReading)
        for (int i = 0; i < 6; ++i)
          if (std::strcmp(e.quantity, kQuantities[i]) == 0) q = i;
      o.integer(q, "quantity", 0, 5);
      e.quantity = kQuantities[q];
    }
  }

  // Cross references the field readers could not see; empty when sound.
  static std::string check(World& w, const std::vector<Shape>& shapes,
                           const std::vector<int>& shapeOf) {
    const int n = static_cast<int>(w.bodies_.size());
    const AabbTree& t = w.broadPhase_.tree_;
    const int nodes = static_cast<int>(t.nodes_.size());
    auto node = [&](int k) { return k >= 0 && k < nodes; };
    // The tree: links in range, reachable from the root once each (no cycle), leaves counted.
    if (t.root_ != AabbTree::kNull && !node(t.root_)) return "the tree's root is past its nodes";
    std::vector<char> seen(nodes, 0);
    std::vector<int> stack;
    int leaves = 0;
    if (t.root_ != AabbTree::kNull) stack.push_back(t.root_);
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      if (seen[k]) return "tree node " + std::to_string(k) + " is reached twice";
      seen[k] = 1;
      const AabbTree::Node& nd = t.nodes_[k];
      if (nd.child1 == AabbTree::kNull) {
        ++leaves;
        if (nd.child2 != AabbTree::kNull || nd.height != 0 || nd.userData < 0 || nd.userData >= n)
          return "tree leaf " + std::to_string(k) + " is malformed";
        continue;
      }
      if (!node(nd.child1) || !node(nd.child2))
        return "tree node " + std::to_string(k) + " has a child past the nodes";
      if (t.nodes_[nd.child1].parent != k || t.nodes_[nd.child2].parent != k)
        return "tree node " + std::to_string(k) + "'s children do not name it as parent";
      stack.push_back(nd.child1), stack.push_back(nd.child2);
    }
    if (leaves != t.leafCount_) return "the tree's leaf count does not match its leaves";
    if (const char* bad = t.validate(); bad[0] != '\0') return std::string("tree: ") + bad;
    // The free list: unreached nodes, no cycle.
    for (int k = t.freeList_, steps = 0; k != AabbTree::kNull; k = t.nodes_[k].parent, ++steps)
      if (!node(k) || seen[k] || steps > nodes) return "the tree's free list is malformed";
    // Bodies: shapes, proxies that are leaves naming them, sleep links, the free slots.
    int live = 0;
    std::vector<char> isFree(n, 0);
    for (int s : w.freeSlots_) {
      if (w.bodies_[s].alive || isFree[s]) return "free slot " + std::to_string(s) + " is in use";
      isFree[s] = 1;
    }
    if (static_cast<int>(w.boxes_.size()) != n) return "boxes and bodies differ in number";
    for (int i = 0; i < n; ++i) {
      Body& b = w.bodies_[i];
      if (!b.alive) {
        if (!isFree[i]) return "body slot " + std::to_string(i) + " is neither alive nor free";
        continue;
      }
      ++live;
      const int s = shapeOf[i];
      if (s < 0 || s >= static_cast<int>(shapes.size()))
        return "body " + std::to_string(i) + " names no shape";
      b.shape = shapes[s];
      b.support = b.shape.support();
      if (b.shape.isStaticOnly() && b.type != BodyType::Static)
        return "body " + std::to_string(i) + " has a static-only shape but moves";
      if (!node(b.proxy) || !seen[b.proxy] || t.nodes_[b.proxy].child1 != AabbTree::kNull ||
          t.nodes_[b.proxy].userData != i)
        return "body " + std::to_string(i) + "'s proxy is not its leaf";
      for (int link : {b.sleepIsland, b.sleepNext})
        if (link >= 0 && !w.bodies_[link].alive)
          return "body " + std::to_string(i) + " sleeps with a free slot";
    }
    if (live != leaves) return "the tree's leaves and the live bodies differ in number";
    auto alive = [&](BodyId id) { return w.isAlive(id); };
    // What the step counts of its bodies (events and options), from the bodies.
    w.filteredBodies_ = w.sensorBodies_ = w.hitBodies_ = w.bullets_ = w.kinematicBodies_ = 0;
    for (const Body& b : w.bodies_)
      if (b.alive) w.countFlags(b, +1);
    for (const SensorEvent& e : w.sensorOverlaps_) {
      if (!alive(e.sensor) || !alive(e.visitor))
        return "a sensor overlap names a body that is not alive";
      const Compound* c = w.bodies_[e.sensor.index].shape.compound();
      if (e.sensorChild >= 0 && !(c && e.sensorChild < static_cast<int>(c->children.size()) &&
                                  c->children[static_cast<size_t>(e.sensorChild)].isSensor))
        return "a sensor overlap names a child that is not a sensor";
    }
    // Each sleeping island's list, from its first member, ends without meeting a body twice
    // (waking walks it).
    std::vector<char> listed(n, 0);
    for (int i = 0; i < n; ++i) {
      if (!w.bodies_[i].alive || w.bodies_[i].sleepIsland != i) continue;
      for (int k = i; k >= 0; k = w.bodies_[k].sleepNext) {
        if (listed[k]) return "sleeping island " + std::to_string(i) + "'s list has a cycle";
        listed[k] = 1;
      }
    }
    w.liveBodies_ = live;
    for (const ProxyPair& p : w.broadPhase_.pairs_)
      if (!node(p.first) || !node(p.second) || !seen[p.first] || !seen[p.second] ||
          t.nodes_[p.first].child1 != AabbTree::kNull ||
          t.nodes_[p.second].child1 != AabbTree::kNull || p.first >= p.second)
        return "a proxy pair names no leaf";
    w.broadPhase_.isMoved_.assign(nodes, 0);
    for (int m : w.broadPhase_.moved_) {
      if (!node(m) || !seen[m] || w.broadPhase_.isMoved_[m]) return "a moved proxy is not a leaf";
      w.broadPhase_.isMoved_[m] = 1;
    }
    const int manifolds = static_cast<int>(w.manifolds_.size());
    for (const ContactPair& p : w.pairs_) {
      if (!alive(p.a) || !alive(p.b) || p.a.index >= p.b.index)
        return "a contact pair names a body that is not alive";
      if (p.manifold >= manifolds || p.manifoldCount > manifolds - std::max(p.manifold, 0) ||
          (p.manifold < 0) != (p.manifoldCount == 0))
        return "a contact pair's manifolds are past the list";
    }
    for (const Manifold& m : w.manifolds_)
      if (!alive(m.a) || !alive(m.b)) return "a manifold names a body that is not alive";
    if (w.lastCenter_.size() > static_cast<size_t>(n) ||
        w.lastRotation_.size() != w.lastCenter_.size() ||
        w.motion_.size() > static_cast<size_t>(n) || w.islandOf_.size() > static_cast<size_t>(n))
      return "per-body arrays are longer than the bodies";
    JointSet& js = *w.joints_;
    js.live_ = 0;
    for (const Joint& j : js.joints_) {
      if (!j.alive) continue;
      ++js.live_;
      for (int k : {j.a, j.b})
        if (k >= 0 && !w.bodies_[k].alive) return "a joint names a body that is not alive";
      if (j.a == j.b) return "a joint joins a body to itself";
    }
    for (int s : js.freeSlots_)
      if (js.joints_[s].alive) return "free joint slot " + std::to_string(s) + " is in use";
    js.filterDirty_ = true;
    for (const auto& d : w.drags_)
      if (d && !(w.bodies_[d->body].alive && w.bodies_[d->body].isDynamic()))
        return "a drag holds a body that is not alive and dynamic";
    return {};
  }

  static std::vector<uint8_t> save(const World& cw) {
    World& w = const_cast<World&>(cw);  // the Writer only reads
    Writer o;
    o.bytes.resize(kHeaderSize);
    // Settings as key = value text (settings.h: exact for every kind of value).
    std::vector<std::string> keys, values;
    for (const SettingInfo& info : settingsTable()) {
      keys.emplace_back(info.key);
      values.push_back(settingValue(w.settings_, info));
    }
    o.count(keys.size(), 2, "settings");
    for (size_t k = 0; k < keys.size(); ++k) o.text(keys[k], "key"), o.text(values[k], "value");
    // Shapes, then which shape each live body has.
    ShapeTable table;
    std::vector<int> shapeOf(w.bodies_.size(), -1);
    for (size_t i = 0; i < w.bodies_.size(); ++i)
      if (w.bodies_[i].alive) shapeOf[i] = addShape(table, w.bodies_[i].shape);
    o.count(table.shapes.size(), 1, "shapes");
    for (const Shape& s : table.shapes) writeShape(o, s, table);
    ints(o, shapeOf, "body shape", -1, kMaxInt);
    world(o, w);
    // The header.
    std::vector<uint8_t>& b = o.bytes;
    const uint64_t size = b.size() - kHeaderSize;
    const uint64_t sum = snapshotChecksum(std::span(b).subspan(kHeaderSize));
    const uint32_t version = kSnapshotVersion, flags = 0;
    std::memcpy(b.data(), kMagic, 8);
    std::memcpy(b.data() + 8, &version, 4);
    std::memcpy(b.data() + 12, &flags, 4);
    std::memcpy(b.data() + 16, &size, 8);
    std::memcpy(b.data() + 24, &sum, 8);
    return std::move(b);
  }

  static Expected<void> restore(World& target, std::span<const uint8_t> bytes) {
    auto failure = [](std::string m) { return Expected<void>::failure("snapshot: " + m); };
    if (bytes.size() < kHeaderSize)
      return failure("offset " + std::to_string(bytes.size()) + ": expected a " +
                     std::to_string(kHeaderSize) + "-byte header, found the end of the data");
    if (std::memcmp(bytes.data(), kMagic, 8) != 0)
      return failure("offset 0: expected the magic \"TUMBLESN\" (not a Tumble snapshot)");
    uint32_t version = 0, flags = 0;
    uint64_t size = 0, sum = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&flags, bytes.data() + 12, 4);
    std::memcpy(&size, bytes.data() + 16, 8);
    std::memcpy(&sum, bytes.data() + 24, 8);
    if (version == 0 || version > kSnapshotVersion)
      return failure("offset 8: expected a version from 1 to " + std::to_string(kSnapshotVersion) +
                     ", found " + std::to_string(version) +
                     (version > kSnapshotVersion ? " (written by a newer Tumble)" : ""));
    if (flags != 0) return failure("offset 12: expected flags 0, found " + std::to_string(flags));
    if (size != bytes.size() - kHeaderSize)
      return failure("offset 16: the header gives a payload of " + std::to_string(size) +
                     " bytes, the data holds " + std::to_string(bytes.size() - kHeaderSize) +
                     (size > bytes.size() - kHeaderSize ? " (truncated)" : ""));
    const std::span<const uint8_t> payload = bytes.subspan(kHeaderSize);
    if (const uint64_t actual = snapshotChecksum(payload); actual != sum) {
      char message[160];
      std::snprintf(message, sizeof message,
                    "offset 24: the checksum of bytes 32..%zu is %016llx, the header says "
                    "%016llx (corrupted)",
                    bytes.size(), static_cast<unsigned long long>(actual),
                    static_cast<unsigned long long>(sum));
      return failure(message);
    }
    return restorePayload(target, payload, version);
  }

  // The payload only (the fuzz target calls this through restoreSnapshot with a good header).
  static Expected<void> restorePayload(World& target, std::span<const uint8_t> payload,
                                       uint32_t version) {
    auto failure = [](std::string m) { return Expected<void>::failure("snapshot: " + m); };
    Reader o(payload, kHeaderSize);
    o.version = version;
    o.context("settings");
    Settings settings;
    const size_t keyCount = o.count(0, 2, "settings");
    for (size_t k = 0; k < keyCount && o.ok(); ++k) {
      const size_t at = o.pos;
      std::string key, value;
      o.text(key, "key"), o.text(value, "value");
      if (!o.ok()) break;
      if (Expected<void> set = setSetting(settings, key, value); !set)
        o.fail(at, "a setting", set.error());
    }
    if (o.ok())
      if (Expected<void> valid = validate(settings); !valid)
        o.fail(o.pos, "valid settings", valid.error());
    if (!o.ok()) return failure(o.error);
    auto fresh = std::make_unique<World>(settings);
    o.context("shapes");
    std::vector<Shape> shapes;
    const size_t shapeCount = o.count(0, 1, "shapes");
    for (size_t k = 0; k < shapeCount && o.ok(); ++k) {
      o.context("shape", static_cast<int>(k));
      shapes.push_back(readShape(o, shapes));
    }
    std::vector<int> shapeOf;
    o.context("body shapes");
    ints(o, shapeOf, "body shape", -1, static_cast<int>(shapes.size()) - 1);
    world(o, *fresh);
    if (o.ok() && o.pos != payload.size())
      o.fail(o.pos, "the end of the snapshot",
             std::to_string(payload.size() - o.pos) + " more bytes");
    if (!o.ok()) return failure(o.error);
    if (shapeOf.size() != fresh->bodies_.size())
      return failure("the body shapes and the body slots differ in number");
    if (std::string bad = check(*fresh, shapes, shapeOf); !bad.empty()) return failure(bad);
    std::string log = std::move(target.crosscheckLog_);
    ContactFilter filter = std::move(target.contactFilter_);
    const uint64_t edits = target.edits_ + 1;
    // The threads are the machine's, not the world's: a restored world keeps the target's count,
    // its pool and a plugged task system (the result is the same bits at any count).
    const int threads = target.settings_.threads;
    TaskSystem* external = target.externalTasks_;
    std::unique_ptr<ThreadPool> pool = std::move(target.pool_);
    target = std::move(*fresh);
    target.crosscheckLog_ = std::move(log);
    target.contactFilter_ = std::move(filter);
    target.settings_.threads = threads;
    target.externalTasks_ = external;
    target.pool_ = std::move(pool);
    target.edits_ = edits;
    ++target.queryEpoch_;
    return ok();
  }
};

uint64_t snapshotChecksum(std::span<const uint8_t> bytes) {
  uint64_t h = 1469598103934665603ull;
  for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

std::vector<uint8_t> saveSnapshot(const World& world) {
  return SnapshotCodec::save(world);
}

Expected<void> restoreSnapshot(World& world, std::span<const uint8_t> bytes) {
  return SnapshotCodec::restore(world, bytes);
}

Expected<void> saveSnapshotFile(const World& world, const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = saveSnapshot(world);
  return writeFileAtomic(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Expected<void> restoreSnapshotFile(World& world, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Expected<void>::failure(path.string() + ": cannot open the snapshot file");
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  if (Expected<void> r = restoreSnapshot(world, bytes); !r)
    return Expected<void>::failure(path.string() + ": " + r.error());
  return ok();
}

}  // namespace tumble
