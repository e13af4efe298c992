// tumble-cli query SCENE FILE|-: ray, shape-cast and overlap queries against a scene after N steps
// (README, "tumble-cli query"; docs/ARCHITECTURE.md, "World queries").
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "io/scene_internal.h"
#include "tumble/scene.h"
#include "tumble/world.h"

namespace tumble::cli {
namespace {

using scene::Json;

constexpr Positional kPositionals[] = {
    {.name = "SCENE", .help = "a scene file, or a name in assets/scenes (as for sim)"},
    {.name = "FILE|-", .help = "the queries, one JSON object a line ('-': read them from stdin)"},
};

constexpr Flag kFlags[] = {
    {.name = "--steps",
     .metavar = "N",
     .kind = ValueKind::Integer,
     .min = 0,
     .max = 10000000,
     .defaultValue = "0",
     .help = "steps to run before the queries"},
    settingFlag("change a setting after the scene's own (any settings key)"),
};

constexpr CommandSpec kSpec{
    .name = "query",
    .positionals = kPositionals,
    .flags = kFlags,
    .description =
        "Runs SCENE for N steps, then answers one JSON object per input line, in order:\n"
        "  {\"ray\": {\"from\": [x,y,z], \"to\": [x,y,z], \"mode\": \"closest\"|\"any\"|\"all\"}}\n"
        "  {\"overlap\": {\"sphere\": {\"center\": [x,y,z], \"radius\": r}}}\n"
        "  {\"overlap\": {\"aabb\": {\"lower\": [x,y,z], \"upper\": [x,y,z]}}}\n"
        "  {\"overlap\": {\"shape\": S, \"position\": [x,y,z], \"orientation\": [w,x,y,z]}}\n"
        "  {\"cast\": {\"shape\": S, \"from\": [x,y,z], \"orientation\": [w,x,y,z],\n"
        "             \"translation\": [x,y,z]}}\n"
        "S is a convex shape as scene files write one (a name, points, {\"sphere\": ...});\n"
        "orientation is optional. Each may add \"filter\": {\"category\": [bits], \"mask\":\n"
        "[bits], \"ignore\": body} (bit numbers 0-63; defaults: bit 0, every bit, none).\n"
        "Answers name bodies by their index in the scene file:\n"
        "  ray closest/any, cast: {\"line\": n, \"hit\": true, \"body\": i, \"fraction\": f,\n"
        "    \"point\": [...], \"normal\": [...], \"child\": c} or {\"line\": n, \"hit\": false}\n"
        "  ray all: {\"line\": n, \"hits\": [{\"body\": ..., ...}, ...]} (by fraction, body)\n"
        "  overlap: {\"line\": n, \"bodies\": [i, ...]} (sorted)\n"
        "A bad line prints {\"line\": n, \"error\": \"...\"} and 'query: line n: ...' on stderr.\n",
    .epilogue =
        "Exit status: 0, 1 for a usage error, 2 for a bad scene, setting or line, or a\n"
        "FILE that cannot be read.\n",
};

Json vec(const Vec3& v) {
  return Json::array({v.x, v.y, v.z});
}

uint64_t bits(const Json& j, const std::string& path) {
  if (!j.is_array()) scene::fail(path, "expected an array of bit numbers 0-63");
  uint64_t out = 0;
  for (size_t k = 0; k < j.size(); ++k)
    out |= uint64_t{1} << scene::integer(j[k], path + "[" + std::to_string(k) + "]", 0, 63);
  return out;
}

QueryFilter filterOf(const Json& q, const World& w) {
  QueryFilter f;
  if (!q.contains("filter")) return f;
  const Json& j = scene::object(q["filter"], "filter");
  scene::checkKeys(j, "filter", {"category", "mask", "ignore"});
  if (j.contains("category")) f.category = bits(j["category"], "filter.category");
  if (j.contains("mask")) f.mask = bits(j["mask"], "filter.mask");
  if (j.contains("ignore")) {
    f.ignore = w.idAt(scene::integer(j["ignore"], "filter.ignore", 0, 1 << 30));
    if (!f.ignore.valid()) scene::fail("filter.ignore", "no such body");
  }
  return f;
}

Json rayHit(const RayCastHit& h) {
  return {{"body", h.body.index},
          {"fraction", h.fraction},
          {"point", vec(h.point)},
          {"normal", vec(h.normal)},
          {"child", h.child}};
}

Quat orientationOr(const Json& j, const std::string& path) {
  return j.contains("orientation") ? scene::quat(j["orientation"], path + ".orientation")
                                   : Quat(1.0, 0.0, 0.0, 0.0);
}

Shape convexShape(const Json& j, const std::string& path, scene::ShapeCache& shapes) {
  const Shape s = shapes.shape(j, path, Vec3(1.0), path);
  if (!s.isConvex()) scene::fail(path, "expected a convex shape (hull, sphere, capsule, ...)");
  return s;
}

// One answer; throws SceneError naming the JSON path on bad input.
Json answer(const Json& q, const World& w, scene::ShapeCache& shapes) {
  scene::object(q, "query");
  scene::checkKeys(q, "query", {"ray", "overlap", "cast", "filter"});
  const int kinds = q.contains("ray") + q.contains("overlap") + q.contains("cast");
  if (kinds != 1) scene::fail("query", "expected exactly one of ray, overlap, cast");
  const QueryFilter filter = filterOf(q, w);
  Json out;
  if (q.contains("ray")) {
    const Json& r = scene::object(q["ray"], "ray");
    scene::checkKeys(r, "ray", {"from", "to", "mode"});
    const Vec3 from = scene::vec3(r["from"], "ray.from");
    const Vec3 d = scene::vec3(r["to"], "ray.to") - from;
    const std::string mode = r.contains("mode") ? scene::string(r["mode"], "ray.mode") : "closest";
    if (mode == "all") {
      out["hits"] = Json::array();
      for (const RayCastHit& h : w.castRayAll(from, d, filter)) out["hits"].push_back(rayHit(h));
      return out;
    }
    if (mode != "closest" && mode != "any")
      scene::fail("ray.mode", "expected closest, any or all, got '" + mode + "'");
    const auto h =
        mode == "any" ? w.castRayAny(from, d, filter) : w.castRayClosest(from, d, filter);
    out["hit"] = h.has_value();
    if (h) out.update(rayHit(*h));
    return out;
  }
  if (q.contains("overlap")) {
    const Json& o = scene::object(q["overlap"], "overlap");
    std::vector<BodyId> ids;
    if (o.contains("sphere")) {
      scene::checkKeys(o, "overlap", {"sphere"});
      const Json& s = scene::object(o["sphere"], "overlap.sphere");
      scene::checkKeys(s, "overlap.sphere", {"center", "radius"});
      const Real radius = scene::number(s["radius"], "overlap.sphere.radius");
      if (!(radius >= 0.0)) scene::fail("overlap.sphere.radius", "expected a number >= 0");
      ids = w.overlapSphere(scene::vec3(s["center"], "overlap.sphere.center"), radius, filter);
    } else if (o.contains("aabb")) {
      scene::checkKeys(o, "overlap", {"aabb"});
      const Json& b = scene::object(o["aabb"], "overlap.aabb");
      scene::checkKeys(b, "overlap.aabb", {"lower", "upper"});
      ids = w.overlapAabb(Aabb{scene::vec3(b["lower"], "overlap.aabb.lower"),
                               scene::vec3(b["upper"], "overlap.aabb.upper")},
                          filter);
    } else if (o.contains("shape")) {
      scene::checkKeys(o, "overlap", {"shape", "position", "orientation"});
      const Shape s = convexShape(o["shape"], "overlap.shape", shapes);
      const Vec3 p =
          o.contains("position") ? scene::vec3(o["position"], "overlap.position") : Vec3(0.0);
      ids = w.overlapShape(s, Transform{p, orientationOr(o, "overlap")}, filter);
    } else {
      scene::fail("overlap", "expected sphere, aabb or shape");
    }
    out["bodies"] = Json::array();
    for (const BodyId id : ids) out["bodies"].push_back(id.index);
    return out;
  }
  const Json& c = scene::object(q["cast"], "cast");
  scene::checkKeys(c, "cast", {"shape", "from", "orientation", "translation"});
  const Shape s = convexShape(c["shape"], "cast.shape", shapes);
  const Transform xf{scene::vec3(c["from"], "cast.from"), orientationOr(c, "cast")};
  const auto h = w.castShape(s, xf, scene::vec3(c["translation"], "cast.translation"), filter);
  out["hit"] = h.has_value();
  if (h)
    out.update({{"body", h->body.index},
                {"fraction", h->fraction},
                {"point", vec(h->point)},
                {"normal", vec(h->normal)},
                {"child", h->child}});
  return out;
}

int runStream(std::istream& in, const World& w, scene::ShapeCache& shapes) {
  bool bad = false;
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    Json out;
    try {
      const Json q = Json::parse(line);
      out = answer(q, w, shapes);
      out["line"] = number;
    } catch (const std::exception& e) {  // parse errors and SceneError (names the JSON path)
      out = Json{{"line", number}, {"error", e.what()}};
      std::fprintf(stderr, "query: line %ld: %s\n", number, e.what());
      bad = true;
    }
    std::fputs(out.dump().c_str(), stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
  return bad ? 2 : 0;
}

}  // namespace

int runQuery(Args args) {
  const auto parsed = parseArgs(kSpec, args);
  if (auto status = earlyExit(kSpec, parsed)) return *status;
  const long steps = static_cast<long>(*parsed->integer("--steps"));
  auto loaded = loadSceneWorld("query", parsed->positionals[0], *parsed);
  if (!loaded) return 2;
  const Scene& scene = loaded->scene;
  const std::filesystem::path& file = loaded->file;
  World& w = *loaded->world;
  for (long s = 0; s < steps; ++s)
    if (auto err = w.step(scene.settings.dt); !err) {
      std::fprintf(stderr, "query: step %ld: %s\n", s, err.error().c_str());
      return 2;
    }
  // Shapes named in queries come from the shapes folder beside the scene's (as the scene's own).
  scene::ShapeCache shapes(sceneDirsBeside(file.parent_path().parent_path() / "shapes"), {});
  const std::string& queries = parsed->positionals[1];
  if (queries == "-") return runStream(std::cin, w, shapes);
  std::ifstream in(queries);
  if (!in) {
    std::fprintf(stderr, "query: cannot open %s: %s\n", queries.c_str(), std::strerror(errno));
    return 2;
  }
  return runStream(in, w, shapes);
}

}  // namespace tumble::cli
