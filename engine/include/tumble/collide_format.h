#pragma once
/// The collide format of `tumble-cli collide` (docs/ARCHITECTURE.md, "Collision queries"): JSON
/// Lines, one pair per input line, one answer per output line.
///   input:  {"id": "p1", "a": [[x,y,z], ...], "b": [[x,y,z], ...]}
///   output: {"id": "p1", "gjk": {"intersect": true, "depth": 0.12, "iterations": 7,
///            "status": "ok"}, "lp": {"intersect": true, "objective": 0.0, "pivots": 5,
///            "status": "ok"}, "agree": true}
/// `distance` replaces `depth` when GJK says separated; `status` is "ok" or "max_iterations"
/// (GJK or EPA hit its cap) / "max_pivots", or for the LP "uncertified" (LpResult::certified
/// is false: its verdict may be wrong). Numbers are printed with 17 significant digits, so
/// they read back bit for bit.
///
/// Input rules: `id` is a string; `a` and `b` are non-empty arrays of 3-number arrays with finite
/// values. The key `truth` (the annotation of the sample files) is ignored; any other key is an
/// error naming it, so that a misspelt key is not silently dropped.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tumble/crosscheck.h"
#include "tumble/math.h"
#include "tumble/result.h"

namespace tumble {

/// One input line.
struct CollideQuery {
  std::string id;
  std::vector<Vec3> a;
  std::vector<Vec3> b;
};

/// Parses one input line. The error names the key or array element and what was expected (the
/// caller adds the line number).
Expected<CollideQuery> parseCollideQuery(std::string_view line);

/// One input line for `query` (what the cross-check log writes).
std::string formatCollideQuery(std::string_view id, std::span<const Vec3> a,
                               std::span<const Vec3> b);

/// One output line for a cross-check result, without the trailing newline.
std::string formatCollideResult(std::string_view id, const CrossCheckResult& result);

/// The output line of a bad input line: {"line": N, "error": "..."}.
std::string formatCollideError(long line, std::string_view message);

}  // namespace tumble
