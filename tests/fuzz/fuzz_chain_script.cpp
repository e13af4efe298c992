// Fuzz target: the chain script parser of `tumble-cli chain` (demo/cli/chain_script.cpp) on
// arbitrary text. Checks: a script or an error, never a crash; a script has radius > 0, at least 3
// finite points and folds with joints in [1, n-2], finite non-zero axes and finite angles.
#include <cmath>
#include <string_view>

#include "chain_script.h"
#include "fuzz_support.h"

using namespace tumble;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto script = cli::parseChainScript(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!script) {
    TUMBLE_FUZZ_CHECK(!script.error().empty());
    return 0;
  }
  TUMBLE_FUZZ_CHECK(std::isfinite(script->radius) && script->radius > 0.0);
  const int n = static_cast<int>(script->points.size());
  TUMBLE_FUZZ_CHECK(n >= 3);
  for (const Vec3& p : script->points) TUMBLE_FUZZ_CHECK(fuzz::finite(p));
  for (const cli::ChainFold& f : script->folds) {
    TUMBLE_FUZZ_CHECK(f.joint >= 1 && f.joint <= n - 2);
    TUMBLE_FUZZ_CHECK(fuzz::finite(f.axis) && glm::length(f.axis) > 0.0);
    TUMBLE_FUZZ_CHECK(std::isfinite(f.angle));
  }
  return 0;
}
