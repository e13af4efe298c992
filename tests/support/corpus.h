#pragma once
// The fuzz corpus (tests/fuzz/corpus/<target>/) as test input: regression findings are loaded
// from their files and decoded by the fuzz targets' own decoders (tests/fuzz/fuzz_inputs.h), so a
// unit test checks the very points the fuzzer found, not a copy typed into C++.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_inputs.h"

namespace tumble::test {

/// The bytes of tests/fuzz/corpus/<target>/<name>; fails the running test if it cannot be read.
std::vector<uint8_t> corpusBytes(const std::string& target, const std::string& name);

/// A fuzz_narrowphase input: two point sets and the settings the target used.
fuzz::NarrowphaseInput narrowphaseCase(const std::string& name);

/// A fuzz_hull input: the points and whether they are raw doubles.
fuzz::HullInput hullCase(const std::string& name);

}  // namespace tumble::test
