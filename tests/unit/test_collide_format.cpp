// The collide JSON Lines format (collide_format.h) and the cross-check log that writes it.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fp_traps.h"
#include "shapes.h"
#include "tumble/collide_format.h"
#include "tumble/crosscheck.h"

using namespace tumble;
using tumble::test::boxCorners;

namespace {

std::string errorOf(const std::string& line) {
  auto q = parseCollideQuery(line);
  REQUIRE_FALSE(q.ok());
  return q.error();
}

}  // namespace

TEST_CASE("Collide format: a valid line", "[collide]") {
  auto q = parseCollideQuery(
      R"({"id": "p1", "a": [[0, 0, 0], [1, 0, 0]], "b": [[0.5, -1e-3, 2.5e3]], "truth": {"x": 1}})");
  REQUIRE(q.ok());
  CHECK(q->id == "p1");
  REQUIRE(q->a.size() == 2);
  REQUIRE(q->b.size() == 1);
  CHECK(q->a[1].x == 1.0);
  CHECK(q->b[0].y == -1e-3);
  CHECK(q->b[0].z == 2.5e3);
}

TEST_CASE("Collide format: bad lines name what is wrong", "[collide]") {
  using Catch::Matchers::Contains;
  CHECK_THAT(errorOf("{\"id\": \"p\", \"a\": [[0,0,0]]"), Contains("invalid JSON"));
  CHECK_THAT(errorOf("[1, 2]"), Contains("expected a JSON object"));
  CHECK_THAT(errorOf(R"({"a": [[0,0,0]], "b": [[0,0,0]]})"), Contains("missing key 'id'"));
  CHECK_THAT(errorOf(R"({"id": 3, "a": [[0,0,0]], "b": [[0,0,0]]})"), Contains("'id' must be"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": [[0,0,0]], "b": [[0,0,0]], "c": 1})"),
             Contains("unknown key 'c'"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": [[0,0,0]]})"), Contains("missing key 'b'"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": [], "b": [[0,0,0]]})"), Contains("'a' is empty"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": {"x": 1}, "b": [[0,0,0]]})"), Contains("'a' must be"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": [[0,0,0]], "b": [[0,0,0], [1,2]]})"), Contains("b[1]"));
  CHECK_THAT(errorOf(R"({"id": "p", "a": [[0,"x",0]], "b": [[0,0,0]]})"),
             Contains("a[0][1]: expected a number"));
  {
    tumble::test::FpTrapsOff traps;  // the JSON reader overflows to infinity on purpose
    CHECK_THAT(errorOf(R"({"id": "p", "a": [[0,0,1e999]], "b": [[0,0,0]]})"),
               Contains("invalid JSON: number overflow"));
  }
}

TEST_CASE("Collide format: queries round-trip bit for bit", "[collide]") {
  std::mt19937_64 rng(42);
  std::vector<Vec3> a, b;
  auto real = [&] {
    // Arbitrary doubles over many magnitudes (sign, mantissa and exponent from the bits).
    const double m = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    const int e = static_cast<int>(rng() % 40) - 20;
    return ((rng() & 1) ? -1.0 : 1.0) * std::ldexp(m, e);
  };
  for (int i = 0; i < 50; ++i) a.push_back({real(), real(), real()});
  for (int i = 0; i < 7; ++i) b.push_back({real(), real(), real()});
  const std::string line = formatCollideQuery("id with \"quotes\"", a, b);
  auto q = parseCollideQuery(line);
  REQUIRE(q.ok());
  CHECK(q->id == "id with \"quotes\"");
  REQUIRE(q->a.size() == a.size());
  REQUIRE(q->b.size() == b.size());
  bool same = true;
  for (size_t i = 0; i < a.size(); ++i) same = same && q->a[i] == a[i];
  for (size_t i = 0; i < b.size(); ++i) same = same && q->b[i] == b[i];
  CHECK(same);
}

TEST_CASE("Collide format: result lines", "[collide]") {
  const Settings s;
  SECTION("separated: distance") {
    CrossCheckResult r =
        crossCheck(boxCorners(Vec3(1.0)), boxCorners(Vec3(1.0), Vec3{3.0, 0.0, 0.0}), s);
    const std::string line = formatCollideResult("p1", r);
    CHECK(line.rfind("{\"id\": \"p1\", \"gjk\": {", 0) == 0);
    const auto j = nlohmann::json::parse(line);
    CHECK(j["gjk"]["intersect"] == false);
    CHECK(j["gjk"]["distance"].get<double>() == Approx(1.0));
    CHECK_FALSE(j["gjk"].contains("depth"));
    CHECK(j["gjk"]["status"] == "ok");
    CHECK(j["gjk"]["iterations"].get<int>() == r.gjk.iterations);
    CHECK(j["lp"]["intersect"] == false);
    CHECK(j["lp"]["objective"].get<double>() == r.lp.objective);  // 17 digits read back exactly
    CHECK(j["lp"]["pivots"].get<int>() == r.lp.pivots);
    CHECK(j["lp"]["status"] == "ok");
    CHECK(j["agree"] == true);
  }
  SECTION("overlapping: depth; a capped LP says max_pivots") {
    Settings capped = s;
    capped.lp.maxPivots = 1;
    CrossCheckResult r =
        crossCheck(boxCorners(Vec3(1.0)), boxCorners(Vec3(1.0), Vec3{1.5, 0.0, 0.0}), capped);
    const auto j = nlohmann::json::parse(formatCollideResult("p2", r));
    CHECK(j["gjk"]["intersect"] == true);
    CHECK(j["gjk"]["depth"].get<double>() == Approx(0.5));
    CHECK(j["lp"]["status"] == "max_pivots");
    CHECK(j["agree"] == false);
  }
  SECTION("error lines") {
    const auto j = nlohmann::json::parse(formatCollideError(7, "a[0]: \"bad\""));
    CHECK(j["line"] == 7);
    CHECK(j["error"] == "a[0]: \"bad\"");
  }
}

TEST_CASE("Cross-check log: disagreements are appended as replayable lines", "[collide]") {
  namespace fs = std::filesystem;
  const fs::path path = fs::path(TUMBLE_BINARY_DIR) / "test_collide_format_log.jsonl";
  fs::remove(path);
  Settings capped;
  capped.lp.maxPivots = 1;  // the LP cannot finish: a deep overlap disagrees
  const auto a = boxCorners(Vec3(1.0), Vec3{1e4, -3.0, 0.5}),
             b = boxCorners(Vec3(1.0), Vec3{1e4 + 0.3, -3.0, 0.5});
  const auto far = boxCorners(Vec3(1.0), Vec3{1e4 + 5.0, -3.0, 0.5});
  for (int round = 0; round < 2; ++round) {
    CrossCheckLog log(path.string());
    CHECK(log.record("deep", a, b, crossCheck(a, b, capped)));
    CHECK(log.record("apart", a, far, crossCheck(a, far, capped)));
    CHECK(log.checked() == 2);
    CHECK(log.disagreed() == 1);
    CHECK(log.error().empty());
  }
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    auto q = parseCollideQuery(line);
    REQUIRE(q.ok());
    CHECK(q->id == "deep");
    CHECK(q->a == a);
    CHECK(q->b == b);
    // Replayed with the default settings, the pair agrees.
    CHECK(crossCheck(q->a, q->b, Settings{}).agree);
  }
  CHECK(lines == 2);  // appended, not truncated
  fs::remove(path);

  CrossCheckLog bad((fs::path(TUMBLE_BINARY_DIR) / "no-such-dir" / "log.jsonl").string());
  CHECK_FALSE(bad.record("deep", a, b, crossCheck(a, b, capped)));
  CHECK_THAT(bad.error(), Catch::Matchers::Contains("no-such-dir"));
}
