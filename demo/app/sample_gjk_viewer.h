#pragma once
// The GJK/LP viewer scene (issue 6): two convex point sets the user moves and turns, their
// Minkowski difference A - B with the origin, GJK's simplex at each iteration, the closest points,
// EPA's polytope and normal when they overlap, and the LP test's verdict beside GJK's with a red
// banner when the two disagree outside the cross-check's tolerance band (tumble/crosscheck.h).
#include <memory>
#include <string>

#include "sample.h"
#include "tumble/collide_format.h"

namespace tumble::demo {

/// The environment variable the `gjk` scene of the table reads at create(): a collide-format file
/// and optional 1-based line, "FILE[:LINE]", opened instead of the default pair.
inline constexpr const char* kViewerPairEnv = "TUMBLE_VIEWER_PAIR";

/// The viewer with its default pair (two shapes of assets/shapes, GJK shown mid-iteration), or
/// the pair named by $TUMBLE_VIEWER_PAIR when that is set. This is the scene table's `gjk` row.
std::unique_ptr<Sample> makeGjkViewerSample();

/// The viewer on a pair from code, e.g. a cross-check disagreement: the world-space point sets of
/// `query` shown unmoved (the verdicts are those of `tumble-cli collide` on the same line).
std::unique_ptr<Sample> makeGjkViewerSample(const CollideQuery& query);

/// The viewer on line LINE (1-based; the first pair when absent) of a collide-format JSON Lines
/// file, `spec` = "FILE[:LINE]" (what `--viewer-pair` takes). A missing file or a bad line makes
/// create() fail with a message naming the file, the line and the key.
std::unique_ptr<Sample> makeGjkViewerSampleFromFile(std::string spec);

}  // namespace tumble::demo
