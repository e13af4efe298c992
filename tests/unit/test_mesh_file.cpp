// Meshes from OBJ files and height fields from PNG images (issue 14): what the files say, exactly,
// and errors that name the file.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "tumble/mesh_file.h"

using namespace tumble;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::path(TUMBLE_BINARY_DIR) / "test_mesh_file";
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::filesystem::path writeText(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("an OBJ file loads as its faces, quads split into triangles", "[mesh][file]") {
  const auto path = writeText("floor.obj",
                              "# a quad and a triangle\n"
                              "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nv 0 1 0\n"
                              "o floor\nf 1 2 3 4\n"
                              "o wall\nf 1 4 5\n");
  const Expected<Shape> mesh = loadObjMesh(path, 2.0);
  REQUIRE(mesh);
  const TriangleMesh& m = *mesh->mesh();
  REQUIRE(m.vertices.size() == 5);
  CHECK(glm::length(m.vertices[2] - Vec3(2.0, 0.0, 2.0)) == 0.0);
  REQUIRE(m.triangles.size() == 3);
  // The quad's two triangles cover it (area 2 x 2), counter-clockwise seen from +y: facing up.
  Real area = 0.0;
  for (int t = 0; t < 2; ++t) {
    const auto& i = m.triangles[t];
    area += 0.5 * glm::length(glm::cross(m.vertices[i[1]] - m.vertices[i[0]],
                                         m.vertices[i[2]] - m.vertices[i[0]]));
    CHECK(glm::length(m.normals[t] - Vec3(0.0, 1.0, 0.0)) < 1e-15);
  }
  CHECK_THAT(area, WithinAbs(4.0, 1e-12));
  CHECK(m.triangles[2] == std::array<int, 3>{0, 3, 4});
}

TEST_CASE("bad OBJ files are refused, naming the file", "[mesh][file]") {
  const auto missing = loadObjMesh(scratch("nowhere.obj"));
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Contains("nowhere.obj"));
  const auto noFaces = loadObjMesh(writeText("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"));
  REQUIRE_FALSE(noFaces);
  CHECK_THAT(noFaces.error(), Contains("points.obj: no faces"));
  const auto flat = loadObjMesh(writeText("flat.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"));
  REQUIRE_FALSE(flat);
  CHECK_THAT(flat.error(), Contains("flat.obj: makeMesh: triangle 0 has zero area"));
  CHECK_FALSE(loadObjMesh(writeText("ok.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0.0));
}

TEST_CASE("a PNG loads as a height field of its grey levels", "[mesh][file]") {
  // 3 columns x 2 rows, grey levels 0..255.
  const unsigned char grey[6] = {0, 51, 102, 153, 204, 255};
  const auto path = scratch("hills.png");
  REQUIRE(stbi_write_png(path.string().c_str(), 3, 2, 1, grey, 3) != 0);
  const Expected<Shape> field = loadHeightFieldImage(path, 0.5, 2.0, 10.0);
  REQUIRE(field);
  const HeightField& f = *field->heightField();
  CHECK(f.rows == 2);
  CHECK(f.columns == 3);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      const Vec3 p = f.point(r, c);
      CHECK(p.x == 0.5 * c);
      CHECK(p.z == 2.0 * r);
      CHECK_THAT(p.y, WithinAbs(10.0 * grey[r * 3 + c] / 255.0, 1e-12));
    }
}

TEST_CASE("bad height-field images are refused, naming the file", "[mesh][file]") {
  const auto missing = loadHeightFieldImage(scratch("none.png"), 1.0, 1.0, 1.0);
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Contains("none.png: cannot open"));
  const auto junk = loadHeightFieldImage(writeText("junk.png", "not a png at all"), 1.0, 1.0, 1.0);
  REQUIRE_FALSE(junk);
  CHECK_THAT(junk.error(), Contains("junk.png: cannot read the image"));
  const unsigned char one = 7;
  const auto tiny = scratch("tiny.png");
  REQUIRE(stbi_write_png(tiny.string().c_str(), 1, 1, 1, &one, 1) != 0);
  CHECK_THAT(loadHeightFieldImage(tiny, 1.0, 1.0, 1.0).error(), Contains("1 x 1 pixels"));
  const unsigned char four[4] = {1, 2, 3, 4};
  const auto ok = scratch("ok.png");
  REQUIRE(stbi_write_png(ok.string().c_str(), 2, 2, 1, four, 2) != 0);
  CHECK_THAT(loadHeightFieldImage(ok, 1.0, -1.0, 1.0).error(), Contains("spacing"));
  CHECK_THAT(loadHeightFieldImage(ok, 1.0, 1.0, 0.0).error(), Contains("height_scale"));
}

TEST_CASE("an empty IDAT chunk changes no height field", "[mesh][file]") {
  // stb_image would pass memcpy a null buffer for it (UBSan found it in the fuzz gate): the
  // decoder drops empty IDAT chunks, which hold no pixels.
  const unsigned char grey[4] = {0, 85, 170, 255};
  int size = 0;
  unsigned char* png = stbi_write_png_to_mem(grey, 2, 2, 2, 1, &size);
  REQUIRE(png != nullptr);
  std::vector<uint8_t> plain(png, png + size), padded;
  STBIW_FREE(png);
  // Chunks start after the 8-byte signature; insert an empty IDAT (length 0, "IDAT", its CRC)
  // before the first chunk that is not IHDR.
  const size_t ihdrEnd = 8 + 12 + 13;
  const uint8_t empty[12] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0x35, 0xAF, 0x06, 0x1E};
  padded.assign(plain.begin(), plain.begin() + ihdrEnd);
  padded.insert(padded.end(), empty, empty + 12);
  padded.insert(padded.end(), plain.begin() + ihdrEnd, plain.end());
  const auto a = decodeHeightFieldImage(plain, "plain", 1.0, 1.0, 1.0);
  const auto b = decodeHeightFieldImage(padded, "padded", 1.0, 1.0, 1.0);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->heightField()->heights == b->heightField()->heights);
  CHECK_THAT(b->heightField()->heights[3], WithinAbs(1.0, 1e-12));
}
