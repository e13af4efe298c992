#pragma once
/// The cross-check: GJK (with EPA for the depth) and the vertex LP test on the same pair, and
/// whether their verdicts agree. Used by `tumble-cli collide`, the tests and the world
/// (docs/ARCHITECTURE.md, "Cross-check").
///
/// Tolerance band. Neither method can tell touching from a hair's breadth apart, so a pair whose
/// GJK distance (separated) or EPA depth (intersecting) is at most
///   band = h * max(32 sqrt(3) sqrt(eps), 2 sqrt(3) lp.epsilon, 100 gjk.tolerance)
/// counts as agreeing whatever the verdicts say: h is the LP's normalising length (half the largest
/// side of the bounding box of both sets, `LpResult::scale`), eps the machine epsilon. The terms
/// are GJK's rounding floor near contact, the LP's allowed gap and GJK's stopping tolerance
/// (derived in crosscheck.cpp). With the default settings the band is 8.3e-7 h (0.83 micrometre
/// for a 1 m body).

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/lp.h"
#include "tumble/settings.h"
#include "tumble/support.h"

namespace tumble {

struct CrossCheckResult {
  GjkResult gjk;              ///< the GJK distance query
  bool epaRan = false;        ///< EPA ran (GJK said Intersecting)
  EpaResult epa;              ///< valid when epaRan
  LpResult lp;                ///< the LP test
  bool gjkIntersect = false;  ///< GJK's verdict: status Intersecting
  /// m: GJK's distance when separated (with MaxIterations its best estimate), EPA's depth when
  /// intersecting; >= 0.
  Real gjkMeasure = 0.0;
  Real band = 0.0;    ///< m, the tolerance band (file comment)
  bool agree = true;  ///< gjkIntersect == lp.intersect, or gjkMeasure <= band

  /// Either method stopped on its cap (GJK or EPA max iterations, LP max pivots).
  bool gjkCapped() const {
    return gjk.status == GjkStatus::MaxIterations ||
           (epaRan && epa.status == EpaStatus::MaxIterations);
  }
  bool lpCapped() const { return lp.status == LpStatus::MaxPivots; }
  /// The LP's status as the collide format and the GJK viewer name it: "max_pivots",
  /// "uncertified" (LpResult::certified is false) or "ok".
  const char* lpStatusName() const {
    return lpCapped() ? "max_pivots" : (lp.certified ? "ok" : "uncertified");
  }
};

/// The tolerance band in metres for a pair of normalising length `scale` (file comment).
Real crossCheckBand(Real scale, const Settings& settings);

/// Runs GJK (and EPA when intersecting) and the LP test on A (local points, under `xa`) and B.
/// Shapes need at least one point each, finite coordinates.
CrossCheckResult crossCheck(const SupportShape& a, const Transform& xa, const SupportShape& b,
                            const Transform& xb, const Settings& settings);

/// The same on world-space point sets. Shifts copies of both sets by A's first point first (the
/// answers are translation invariant; far offsets then cost no precision), so it allocates.
CrossCheckResult crossCheck(std::span<const Vec3> a, std::span<const Vec3> b,
                            const Settings& settings);

/// Counts cross-checked pairs and appends each disagreeing pair to a file as one line of
/// `tumble-cli collide` input (world-space points, full precision), so it replays with
/// `tumble-cli collide FILE`. The file is opened in append mode at the first disagreement and
/// flushed after each line. An empty path only counts.
class CrossCheckLog {
 public:
  explicit CrossCheckLog(std::string path = {});
  ~CrossCheckLog();
  CrossCheckLog(const CrossCheckLog&) = delete;
  CrossCheckLog& operator=(const CrossCheckLog&) = delete;

  /// Counts `result`; when it disagrees, appends {"id": id, "a": world A, "b": world B}.
  /// Returns false only when the line could not be written (see error()).
  bool record(std::string_view id, const SupportShape& a, const Transform& xa,
              const SupportShape& b, const Transform& xb, const CrossCheckResult& result);
  /// The same with world-space points.
  bool record(std::string_view id, std::span<const Vec3> a, std::span<const Vec3> b,
              const CrossCheckResult& result);

  int64_t checked() const { return checked_; }
  int64_t disagreed() const { return disagreed_; }
  const std::string& path() const { return path_; }
  /// The last write error (names the file and the reason); empty when none.
  const std::string& error() const { return error_; }

 private:
  bool write(const std::string& line);

  std::string path_;
  std::FILE* file_ = nullptr;
  int64_t checked_ = 0;
  int64_t disagreed_ = 0;
  std::string error_;
};

}  // namespace tumble
