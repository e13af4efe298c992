#include "corpus.h"

#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

namespace tumble::test {

std::vector<uint8_t> corpusBytes(const std::string& target, const std::string& name) {
  const std::string path = TUMBLE_SOURCE_DIR "/tests/fuzz/corpus/" + target + "/" + name;
  std::ifstream in(path, std::ios::binary);
  INFO(path);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fuzz::NarrowphaseInput narrowphaseCase(const std::string& name) {
  return fuzz::decodeNarrowphase(corpusBytes("narrowphase", name));
}

fuzz::HullInput hullCase(const std::string& name) {
  return fuzz::decodeHull(corpusBytes("hull", name));
}

}  // namespace tumble::test
