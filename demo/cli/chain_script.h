#pragma once
// The chain script of `tumble-cli chain` (docs/ARCHITECTURE.md, "Chain scripts"), parsed apart
// from the command so that the fuzz target (tests/fuzz/fuzz_chain_script.cpp) and the CLI share
// one parser.
#include <string_view>
#include <vector>

#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble::cli {

/// One fold of a script: points joint+1..n-1 turn about the line through points[joint].
struct ChainFold {
  int joint = 0;     ///< in [1, n-2]
  Vec3 axis{0.0};    ///< non-zero, finite
  Real angle = 0.0;  ///< rad, finite
};

/// A parsed chain script: radius > 0, at least 3 finite points, folds with joints in range.
struct ChainScript {
  Real radius = 0.0;
  std::vector<Vec3> points;
  std::vector<ChainFold> folds;
};

/// Parses the JSON text of a chain script. Errors read `<json path>: <what was expected>, got
/// <what was found>` (`folds[2].joint: 7 is out of range 1..4`), or `invalid JSON: ...` with the
/// line and column for text that is not JSON.
Expected<ChainScript> parseChainScript(std::string_view text);

}  // namespace tumble::cli
