// Fuzz target: GJK (+ EPA) and the LP test on two arbitrary point sets through crosscheck.h.
// Input: fuzz_inputs.h, decodeNarrowphase (coordinates on a coarse grid: touching, duplicate, flat
// sets are common). Checks: within the caps, finite results, a valid status, and GJK and LP agree
// outside the tolerance band unless one of them stopped on its cap.
#include <cmath>
#include <vector>

#include "fuzz_inputs.h"
#include "tumble/crosscheck.h"

using namespace tumble;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::NarrowphaseInput input = fuzz::decodeNarrowphase({data, size});
  const std::vector<Vec3>&a = input.a, &b = input.b;
  const Settings& s = input.settings;

  const CrossCheckResult r = crossCheck(a, b, s);
  TUMBLE_FUZZ_CHECK(r.gjk.iterations >= 0 && r.gjk.iterations <= s.gjk.maxIterations);
  TUMBLE_FUZZ_CHECK(r.gjk.status == GjkStatus::Separated ||
                    r.gjk.status == GjkStatus::Intersecting ||
                    r.gjk.status == GjkStatus::MaxIterations);
  TUMBLE_FUZZ_CHECK(std::isfinite(r.gjk.distance) && r.gjk.distance >= 0.0);
  TUMBLE_FUZZ_CHECK(fuzz::finite(r.gjk.pointA) && fuzz::finite(r.gjk.pointB));
  if (r.epaRan) {
    TUMBLE_FUZZ_CHECK(r.epa.iterations >= 0 && r.epa.iterations <= s.epa.maxIterations);
    TUMBLE_FUZZ_CHECK(r.epa.status == EpaStatus::Converged ||
                      r.epa.status == EpaStatus::MaxIterations ||
                      r.epa.status == EpaStatus::Touching);
    TUMBLE_FUZZ_CHECK(std::isfinite(r.epa.depth) && r.epa.depth >= 0.0);
    TUMBLE_FUZZ_CHECK(fuzz::finite(r.epa.normal) &&
                      std::abs(glm::length(r.epa.normal) - 1.0) < 1e-6);
  }
  TUMBLE_FUZZ_CHECK(r.lp.pivots >= 0 && r.lp.pivots <= s.lp.maxPivots);
  TUMBLE_FUZZ_CHECK(r.lp.status == LpStatus::Optimal || r.lp.status == LpStatus::MaxPivots);
  TUMBLE_FUZZ_CHECK(std::isfinite(r.lp.objective) && r.lp.objective >= -1e-9 &&
                    r.lp.objective <= 2.0 + 1e-9);
  TUMBLE_FUZZ_CHECK(std::isfinite(r.gjkMeasure) && r.gjkMeasure >= 0.0 && std::isfinite(r.band));
  // Like a cap, an LP that says its verdict is uncertified (lp.h) excuses a disagreement.
  if (!r.gjkCapped() && !r.lpCapped() && r.lp.certified) {
    if (!r.agree)
      std::fprintf(stderr,
                   "disagreement: gjk %s (measure %.17g), lp %s (objective %.17g), band %.3g\n",
                   r.gjkIntersect ? "intersect" : "separate", r.gjkMeasure,
                   r.lp.intersect ? "intersect" : "separate", r.lp.objective, r.band);
    TUMBLE_FUZZ_CHECK(r.agree);
  }
  return 0;
}
