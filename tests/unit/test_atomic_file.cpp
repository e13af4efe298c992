// Nothing lost (atomic_file.h): a write that fails midway leaves the old file intact and no
// temporary file behind; a write that succeeds replaces the file whole.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "tumble/atomic_file.h"

using namespace tumble;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A fresh folder under the build tree with one file holding "old contents".
fs::path freshFolder(const std::string& name) {
  const fs::path dir = fs::path(TUMBLE_BINARY_DIR) / "test_atomic_file" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "state.jsonl") << "old contents\n";
  return dir;
}

int filesIn(const fs::path& dir) {
  return static_cast<int>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("a successful atomic write replaces the file whole", "[atomic_file]") {
  const fs::path dir = freshFolder("ok");
  REQUIRE(writeFileAtomic(dir / "state.jsonl", "new contents\nline 2\n"));
  CHECK(read(dir / "state.jsonl") == "new contents\nline 2\n");
  REQUIRE(writeFileAtomic(dir / "created.json", "{}"));
  CHECK(read(dir / "created.json") == "{}");
  CHECK((fs::status(dir / "created.json").permissions() & fs::perms::others_read) !=
        fs::perms::none);
  CHECK(filesIn(dir) == 2);  // no temporary file left
}

TEST_CASE("a writer that fails midway leaves the old file intact", "[atomic_file]") {
  const fs::path dir = freshFolder("fails");
  // Half of the new contents, then the failure a full disk would give.
  auto err = writeFileAtomic(dir / "state.jsonl", [](std::FILE* f) {
    std::fputs("new conte", f);
    std::fflush(f);
    return false;
  });
  REQUIRE_FALSE(err);
  CHECK_THAT(err.error(), Catch::Matchers::Contains("state.jsonl") &&
                              Catch::Matchers::Contains("the old file is unchanged"));
  CHECK(read(dir / "state.jsonl") == "old contents\n");
  CHECK(filesIn(dir) == 1);
}

TEST_CASE("a writer that throws midway leaves the old file intact", "[atomic_file]") {
  const fs::path dir = freshFolder("throws");
  CHECK_THROWS_AS(writeFileAtomic(dir / "state.jsonl",
                                  [](std::FILE* f) -> bool {
                                    std::fputs("partial", f);
                                    throw std::runtime_error("crash while writing");
                                  }),
                  std::runtime_error);
  CHECK(read(dir / "state.jsonl") == "old contents\n");
  CHECK(filesIn(dir) == 1);
}

TEST_CASE("a folder that does not exist is an error naming the file", "[atomic_file]") {
  const fs::path dir = freshFolder("missing");
  auto err = writeFileAtomic(dir / "no_such_folder" / "state.jsonl", "x");
  REQUIRE_FALSE(err);
  CHECK_THAT(err.error(), Catch::Matchers::Contains("no_such_folder/state.jsonl") &&
                              Catch::Matchers::Contains("No such file or directory"));
  CHECK(read(dir / "state.jsonl") == "old contents\n");
}
