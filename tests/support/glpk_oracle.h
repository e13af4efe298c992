#pragma once
// An independent check of the vertex LP (lp.h): the same LP built and solved with GLPK's own API.
#include <vector>

#include "tumble/math.h"

namespace tumble::test {

struct GlpkAnswer {
  bool solved = false;
  Real objective = 0.0;  ///< e^T (b - A x) at GLPK's optimum, in [0, 2]; 0: the hulls intersect
};

/// The constraint matrix in GLPK's triplet form, kept between calls to spare allocations (bench).
struct GlpkScratch {
  std::vector<int> ia, ja;
  std::vector<double> ar;
};

/// Kreuzer's problem P2 for the hulls of `a` and `b` (both non-empty), solved by GLPK's simplex;
/// `exact` then re-solves from that basis with GLPK's rational simplex. Floating-point traps are
/// off while GLPK runs.
GlpkAnswer glpkObjective(const std::vector<Vec3>& a, const std::vector<Vec3>& b, bool exact = false,
                         GlpkScratch* scratch = nullptr);

}  // namespace tumble::test
