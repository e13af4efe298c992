#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "tumble/hull.h"
#include "tumble/shape_file.h"

using namespace tumble;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

namespace {

namespace fs = std::filesystem;

const fs::path kShapesDir = fs::path(TUMBLE_SOURCE_DIR) / "assets" / "shapes";

// A fresh directory under the system temp dir, removed when the test ends.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tumble_shapes_XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    REQUIRE(mkdtemp(buffer.data()) != nullptr);
    path_ = buffer.data();
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  fs::path write(const std::string& name, const std::string& text) const {
    fs::path file = path_ / name;
    std::ofstream(file) << text;
    return file;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Expect {
  const char* name;
  size_t vertices;
  size_t faces;
  double volume;
};

}  // namespace

TEST_CASE("the shape library loads, sorted, and every shape builds a hull about 1 m", "[shapes]") {
  auto library = loadShapeLibrary(kShapesDir);
  REQUIRE(library.ok());
  REQUIRE(library->size() >= 12);
  for (size_t i = 1; i < library->size(); ++i) {
    CHECK((*library)[i - 1].name < (*library)[i].name);
  }
  for (const ShapeDef& shape : *library) {
    CAPTURE(shape.name);
    auto hull = ConvexHull::build(shape.points);
    REQUIRE(hull.ok());
    Vec3 size = hull->boundsMax() - hull->boundsMin();
    Real largest = std::max({size.x, size.y, size.z});
    CHECK(largest >= 0.5);
    CHECK(largest <= 1.5);
    CHECK(hull->massProperties(1.0).volume > 0.01);
  }

  const double sqrt5 = std::sqrt(5.0);
  const double icosaEdge = 0.5 / std::sin(2.0 * M_PI / 5.0);
  const double dodecaEdge = 0.5 * 4.0 / (std::sqrt(3.0) * (1.0 + sqrt5));
  const double polygon16 = 8.0 * 0.25 * std::sin(2.0 * M_PI / 16.0);
  const Expect expected[] = {
      {"box", 8, 6, 1.0},
      {"tetrahedron", 4, 4, 1.0 / (6.0 * std::sqrt(2.0))},
      {"octahedron", 6, 8, 4.0 / 3.0 * 0.125},
      {"icosahedron", 12, 20, 5.0 / 12.0 * (3.0 + sqrt5) * std::pow(icosaEdge, 3)},
      {"dodecahedron", 20, 12, (15.0 + 7.0 * sqrt5) / 4.0 * std::pow(dodecaEdge, 3)},
      {"cylinder16", 32, 18, polygon16},
      {"cone", 17, 17, polygon16 / 3.0},
  };
  for (const Expect& e : expected) {
    CAPTURE(e.name);
    const ShapeDef* shape = findShape(*library, e.name);
    REQUIRE(shape != nullptr);
    auto hull = ConvexHull::build(shape->points);
    REQUIRE(hull.ok());
    CHECK(hull->vertices().size() == e.vertices);
    CHECK(hull->faces().size() == e.faces);  // coplanar triangles merged into polygons
    CHECK_THAT(hull->massProperties(1.0).volume, WithinRel(e.volume, 1e-12));
  }
  CHECK(findShape(*library, "no_such_shape") == nullptr);
  for (const char* name : {"capsule", "random_7", "random_42", "random_1234"}) {
    CHECK(findShape(*library, name) != nullptr);
  }
}

TEST_CASE("a good shape file loads exactly", "[shapes]") {
  TempDir dir;
  auto file = dir.write("wedge.json", R"({"name": "wedge", "source": "test",
    "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.5], [-2, 3e-1, 4]]})");
  auto shape = loadShapeFile(file);
  REQUIRE(shape.ok());
  CHECK(shape->name == "wedge");
  REQUIRE(shape->points.size() == 5);
  CHECK(shape->points[3].z == 1.5);
  CHECK(shape->points[4].y == 0.3);
}

TEST_CASE("bad shape files are errors naming the file and the JSON path", "[shapes]") {
  TempDir dir;
  struct Bad {
    const char* text;
    const char* message;
  };
  const Bad cases[] = {
      {R"({"name": "s", "points": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, "x", 1]]})",
       "points[3][1]: expected a number, got string \"x\""},
      {R"({"name": "s", "points": [[0, 0, 0], [1, 0]]})",
       "points[1]: expected an array of 3 numbers"},
      {R"({"name": "s", "points": [[0, 0, 0], 7]})", "points[1]: expected an array of 3 numbers"},
      {R"({"name": "s", "points": [[0, 0, 0], [0, 0, 1e999]]})", "number overflow parsing '1e999'"},
      {R"({"name": "s", "points": {"a": 1}})", "points: expected an array"},
      {R"({"name": "s", "points": []})", "points: expected at least one point"},
      {R"({"name": "s"})", "points: missing"},
      {R"({"points": [[0, 0, 0]]})", "name: missing"},
      {R"({"name": 3, "points": [[0, 0, 0]]})", "name: expected a string"},
      {R"({"name": "other", "points": [[0, 0, 0]]})",
       "name: \"other\" does not match the file name \"s\""},
      {R"({"name": "s", "points": [[0, 0, 0]], "colour": "red"})", "colour: unknown key"},
      {R"({"name": "s", "points": [[0, 0, 0]], "source": 1})", "source: expected a string"},
      {R"([[0, 0, 0]])", "expected an object at the top level"},
      {R"({"name": "s", "points": [[0, 0, 0]],})", "parse error at line 1"},
      {"", "empty file; expected a shape"},
  };
  for (const Bad& bad : cases) {
    CAPTURE(bad.text);
    auto file = dir.write("s.json", bad.text);
    auto shape = loadShapeFile(file);
    REQUIRE_FALSE(shape.ok());
    CHECK_THAT(shape.error(), Contains(file.string() + ": ") && Contains(bad.message));
  }
  auto missing = loadShapeFile(dir.path() / "absent.json");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(), Contains("absent.json: cannot open"));
}

TEST_CASE("the library names its bad file and rejects a missing directory", "[shapes]") {
  TempDir dir;
  dir.write("b.json", R"({"name": "b", "points": [[0, 0, 0]]})");
  dir.write("a.json", R"({"name": "a", "points": [[1, 2, 3]]})");
  dir.write("notes.txt", "not a shape");
  auto good = loadShapeLibrary(dir.path());
  REQUIRE(good.ok());
  REQUIRE(good->size() == 2);
  CHECK((*good)[0].name == "a");
  CHECK((*good)[1].name == "b");
  dir.write("c.json", R"({"name": "c", "points": [[1, 2, true]]})");
  auto bad = loadShapeLibrary(dir.path());
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(bad.error(), Contains("c.json: points[0][2]: expected a number, got boolean true"));
  auto none = loadShapeLibrary(dir.path() / "nowhere");
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.error(), Contains("nowhere: not a directory"));
}
