#pragma once
/// Per-step statistics of a World. Timings are measured and reported only: nothing in the engine
/// reads them, so they cannot change results (determinism).

#include <array>
#include <cstdint>

#include "tumble/math.h"

namespace tumble {

struct StepStats {
  int bodies = 0;       ///< live bodies
  int awakeBodies = 0;  ///< awake dynamic bodies
  int pairs = 0;        ///< broad-phase pairs (after filtering static-static and sleeping)
  int manifolds = 0;    ///< pairs with at least one contact point
  int contacts = 0;     ///< contact points
  int islands = 0;      ///< awake islands built this step
  int recycled = 0;     ///< manifolds kept without the narrow phase (contact.recycle_distance)
  int gjkCalls = 0;
  int gjkIterationsMax = 0;
  Real gjkIterationsMean = 0.0;
  int epaCalls = 0;
  int epaIterationsMax = 0;
  Real epaIterationsMean = 0.0;
  int64_t lpPivots = 0;           ///< summed over the cross-checked pairs
  int64_t crosscheckChecked = 0;  ///< pairs checked with the LP test, since the World was made
  int64_t crosscheckDisagreed = 0;
  int gjkMaxIterationsHit = 0;  ///< GJK runs that ended at the cap
  int epaMaxIterationsHit = 0;
  Real maxPenetration = 0.0;  ///< m, deepest contact after the step (>= 0)

  // Wall-clock milliseconds per phase, summed over substeps.
  Real broadphaseMs = 0.0;
  Real narrowphaseMs = 0.0;
  Real solverMs = 0.0;
  Real islandsMs = 0.0;
  Real stepMs = 0.0;
  /// solverMs by stage (Box2D's b2Profile splits its solver the same way): preparing the bodies
  /// and constraints (the colouring and the packing of the rows, the joints' preparation), the warm
  /// starts, the velocity passes, the relax passes, integrating velocities and positions, and the
  /// restitution, the impulses' store and the write-back to the bodies. Summed over substeps;
  /// drags and joints count in the pass they run in. The rest of solverMs (events, bullets,
  /// joint breaking) is in none of them.
  Real solverPrepareMs = 0.0;
  Real solverWarmStartMs = 0.0;
  Real solverSolveMs = 0.0;
  Real solverRelaxMs = 0.0;
  Real solverIntegrateMs = 0.0;
  Real solverStoreMs = 0.0;

  /// The solver's stages in the order above (prepare, warm start, solve, relax, integrate, store).
  std::array<Real, 6> solverStagesMs() const {
    return {solverPrepareMs, solverWarmStartMs, solverSolveMs,
            solverRelaxMs,   solverIntegrateMs, solverStoreMs};
  }
};

}  // namespace tumble
