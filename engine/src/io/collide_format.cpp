// The collide JSON Lines format (docs/ARCHITECTURE.md, "Collision queries"): parsing with
// nlohmann-json, writing by hand so numbers carry 17 significant digits and keys keep the
// documented order.
#include "tumble/collide_format.h"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace tumble {
namespace {

using Json = nlohmann::json;

std::string quoted(std::string_view s) {
  return Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

void appendNumber(std::string& out, Real v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out += buf;
  // "-0" reads back as the integer 0: keep the sign of zero (found by fuzz_collide).
  if (v == 0.0 && std::signbit(v)) out += ".0";
}

void appendPoints(std::string& out, std::span<const Vec3> pts) {
  out += '[';
  for (size_t i = 0; i < pts.size(); ++i) {
    if (i > 0) out += ", ";
    out += '[';
    for (int d = 0; d < 3; ++d) {
      if (d > 0) out += ", ";
      appendNumber(out, pts[i][d]);
    }
    out += ']';
  }
  out += ']';
}

// Reads `key` of `obj` as a non-empty array of finite [x, y, z] points.
Expected<std::vector<Vec3>> readPoints(const Json& obj, const char* key) {
  using R = Expected<std::vector<Vec3>>;
  auto it = obj.find(key);
  if (it == obj.end()) return R::failure(std::string("missing key '") + key + "'");
  if (!it->is_array())
    return R::failure(std::string("'") + key + "' must be an array of [x, y, z] points, got " +
                      it->type_name());
  if (it->empty())
    return R::failure(std::string("'") + key + "' is empty: a set needs at least one point");
  std::vector<Vec3> pts;
  pts.reserve(it->size());
  for (size_t i = 0; i < it->size(); ++i) {
    const Json& p = (*it)[i];
    const std::string where = std::string(key) + "[" + std::to_string(i) + "]";
    if (!p.is_array() || p.size() != 3)
      return R::failure(where + ": expected [x, y, z] with 3 numbers, got " + p.dump());
    Vec3 v;
    for (int d = 0; d < 3; ++d) {
      const Json& c = p[static_cast<size_t>(d)];
      if (!c.is_number())
        return R::failure(where + "[" + std::to_string(d) + "]: expected a number, got " +
                          c.dump());
      v[d] = c.get<Real>();
      if (!std::isfinite(v[d]))
        return R::failure(where + "[" + std::to_string(d) + "]: not a finite number");
    }
    pts.push_back(v);
  }
  return pts;
}

const char* gjkStatus(const CrossCheckResult& r) {
  return r.gjkCapped() ? "max_iterations" : "ok";
}

}  // namespace

Expected<CollideQuery> parseCollideQuery(std::string_view line) {
  using R = Expected<CollideQuery>;
  Json j;
  try {
    j = Json::parse(line.begin(), line.end());
  } catch (const Json::exception& e) {  // parse_error, or out_of_range for 1e999
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep the position and reason.
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    return R::failure("invalid JSON: " + what);
  }
  if (!j.is_object())
    return R::failure(std::string("expected a JSON object {\"id\", \"a\", \"b\"}, got ") +
                      j.type_name());
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k != "id" && k != "a" && k != "b" && k != "truth")
      return R::failure("unknown key '" + k + "' (expected id, a, b)");
  }
  CollideQuery q;
  auto id = j.find("id");
  if (id == j.end()) return R::failure("missing key 'id'");
  if (!id->is_string())
    return R::failure(std::string("'id' must be a string, got ") + id->type_name());
  q.id = id->get<std::string>();
  auto a = readPoints(j, "a");
  if (!a) return R::failure(a.error());
  auto b = readPoints(j, "b");
  if (!b) return R::failure(b.error());
  q.a = std::move(*a);
  q.b = std::move(*b);
  return q;
}

std::string formatCollideQuery(std::string_view id, std::span<const Vec3> a,
                               std::span<const Vec3> b) {
  std::string out = "{\"id\": " + quoted(id) + ", \"a\": ";
  appendPoints(out, a);
  out += ", \"b\": ";
  appendPoints(out, b);
  out += '}';
  return out;
}

std::string formatCollideResult(std::string_view id, const CrossCheckResult& r) {
  std::string out = "{\"id\": " + quoted(id) + ", \"gjk\": {\"intersect\": ";
  out += r.gjkIntersect ? "true" : "false";
  out += r.gjkIntersect ? ", \"depth\": " : ", \"distance\": ";
  appendNumber(out, r.gjkMeasure);
  out += ", \"iterations\": " + std::to_string(r.gjk.iterations);
  out += ", \"status\": \"";
  out += gjkStatus(r);
  out += "\"}, \"lp\": {\"intersect\": ";
  out += r.lp.intersect ? "true" : "false";
  out += ", \"objective\": ";
  appendNumber(out, r.lp.objective);
  out += ", \"pivots\": " + std::to_string(r.lp.pivots);
  out += ", \"status\": \"";
  out += r.lpStatusName();
  out += "\"}, \"agree\": ";
  out += r.agree ? "true" : "false";
  out += '}';
  return out;
}

std::string formatCollideError(long line, std::string_view message) {
  return "{\"line\": " + std::to_string(line) + ", \"error\": " + quoted(message) + "}";
}

}  // namespace tumble
