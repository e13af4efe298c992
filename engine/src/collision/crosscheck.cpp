// GJK/EPA beside the vertex LP test on the same pair; the band and the disagreement log.
#include "tumble/crosscheck.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tumble/collide_format.h"

namespace tumble {

// The tolerance band, h * max(32 sqrt(3) sqrt(eps), 2 sqrt(3) lp.epsilon, 100 gjk.tolerance), h the
// LP's normalising length (`scale`), the size all relative tolerances refer to.
// - The LP term: an LP "intersect" allows a gap of up to sqrt(3) lp.epsilon h (lp.cpp).
// - The GJK terms: GJK stops when its relative progress falls under gjk.tolerance; and it computes
//   the closest point from coordinates of size |w| (the simplex), so near contact its squared
//   distance is only known to about eps |w|^2 and its distance to a few sqrt(eps) |w| (eps the
//   machine epsilon): when the origin lies on a face of A - B spanned by far vertices, a step that
//   should gain a little is lost in that rounding and GJK stops short. fuzz_narrowphase found such
//   slivers (sets up to 1000 m across sharing a vertex) where GJK stops at 2.2e-5 m and 2.4e-4 m
//   for a true distance of 0 (|w| about 1024 m: 2.4e-7 |w|), after the tilted and nearest-tie
//   retries of gjk.cpp (which resolve tied supports, a different cause of stalls) have failed.
//   The band takes 16 sqrt(eps) |w| with |w| at most the diagonal of the joint bounding box,
//   2 sqrt(3) h: 32 sqrt(3) sqrt(eps) = 8.3e-7. (It was 16 sqrt(eps) h, which took h for |w|, and
//   the 2.4e-4 m finding fell outside.)
Real crossCheckBand(Real scale, const Settings& settings) {
  // 16 sqrt(eps) |w| with |w| <= 2 sqrt(3) h = 8.3e-7 h: GJK's floor near contact (above).
  const Real rootEps = std::sqrt(std::numeric_limits<Real>::epsilon());
  const Real rel =
      std::max({32.0 * std::sqrt(3.0) * rootEps, 2.0 * std::sqrt(3.0) * settings.lp.epsilon,
                100.0 * settings.gjk.tolerance});
  return scale * rel;
}

CrossCheckResult crossCheck(const SupportShape& a, const Transform& xa, const SupportShape& b,
                            const Transform& xb, const Settings& settings) {
  CrossCheckResult r;
  r.gjk = gjkDistance(a, xa, b, xb, settings.gjk);
  r.gjkIntersect = r.gjk.status == GjkStatus::Intersecting;
  if (r.gjkIntersect) {
    r.epa = epaPenetration(a, xa, b, xb, settings.epa, r.gjk);
    r.epaRan = true;
    r.gjkMeasure = r.epa.depth;
  } else {
    r.gjkMeasure = r.gjk.distance;
  }
  r.lp = lpIntersect(a.points, xa, b.points, xb, settings.lp);
  r.band = crossCheckBand(r.lp.scale, settings);
  r.agree = r.gjkIntersect == r.lp.intersect || r.gjkMeasure <= r.band;
  return r;
}

CrossCheckResult crossCheck(std::span<const Vec3> a, std::span<const Vec3> b,
                            const Settings& settings) {
  // Both answers are translation invariant: shift by A's first point, so that nearby points
  // subtract exactly (Sterbenz) and offsets of 1e4 cost no precision in GJK's world frame.
  const Vec3 ref = a.front();
  std::vector<Vec3> la(a.begin(), a.end()), lb(b.begin(), b.end());
  for (Vec3& p : la) p -= ref;
  for (Vec3& p : lb) p -= ref;
  SupportShape sa, sb;
  sa.points = la;
  sb.points = lb;
  return crossCheck(sa, Transform{}, sb, Transform{}, settings);
}

CrossCheckLog::CrossCheckLog(std::string path) : path_(std::move(path)) {}

CrossCheckLog::~CrossCheckLog() {
  if (file_ != nullptr) std::fclose(file_);
}

bool CrossCheckLog::write(const std::string& line) {
  if (file_ == nullptr) {
    file_ = std::fopen(path_.c_str(), "a");
    if (file_ == nullptr) {
      error_ = "cross-check log " + path_ + ": cannot open for appending: " + std::strerror(errno);
      return false;
    }
  }
  if (std::fputs(line.c_str(), file_) == EOF || std::fputc('\n', file_) == EOF ||
      std::fflush(file_) != 0) {
    error_ = "cross-check log " + path_ + ": write failed: " + std::strerror(errno);
    return false;
  }
  return true;
}

bool CrossCheckLog::record(std::string_view id, std::span<const Vec3> a, std::span<const Vec3> b,
                           const CrossCheckResult& result) {
  ++checked_;
  if (result.agree) return true;
  ++disagreed_;
  if (path_.empty()) return true;
  return write(formatCollideQuery(id, a, b));
}

bool CrossCheckLog::record(std::string_view id, const SupportShape& a, const Transform& xa,
                           const SupportShape& b, const Transform& xb,
                           const CrossCheckResult& result) {
  if (result.agree || path_.empty())
    return record(id, std::span<const Vec3>{}, std::span<const Vec3>{}, result);
  auto world = [](const SupportShape& s, const Transform& x) {
    std::vector<Vec3> out;
    out.reserve(s.points.size());
    for (const Vec3& p : s.points) out.push_back(x.apply(p));
    return out;
  };
  const std::vector<Vec3> wa = world(a, xa), wb = world(b, xb);
  return record(id, wa, wb, result);
}

}  // namespace tumble
