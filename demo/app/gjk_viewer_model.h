#pragma once
// The GJK/LP viewer's logic, free of SDL, GL and ImGui (header-only, so the unit test
// tests/unit/test_gjk_viewer.cpp includes it and links the engine alone): two posed point sets,
// the query the viewer shows (the cross-check of tumble-cli collide, GJK's trace, EPA's final
// polytope), the Minkowski difference, the drawable pieces of a traced simplex, reading a pair
// from a collide-format file, and the turn fields' Euler angles.
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tumble/collide_format.h"
#include "tumble/crosscheck.h"
#include "tumble/epa.h"
#include "tumble/gjk.h"
#include "tumble/hull.h"
#include "tumble/result.h"

namespace tumble::demo {

/// One body of the viewer: local points turned by `rotation` about `pivot` and carried so that
/// the pivot sits at `position` (world, m).
struct ViewerBody {
  std::string name;          ///< shape name or "<file>:<line> a"
  std::vector<Vec3> points;  ///< local points, at least one
  Vec3 pivot{0.0};           ///< local centre (the points' mean) the body turns about
  Vec3 position{0.0};        ///< world position of the pivot
  Quat rotation{1.0, 0.0, 0.0, 0.0};

  /// x_world = rotation * (x - pivot) + position. With the identity rotation and
  /// position == pivot it is exactly the identity, so a loaded pair keeps its coordinates bit
  /// for bit.
  Transform transform() const { return Transform{position - rotation * pivot, rotation}; }

  std::vector<Vec3> worldPoints() const {
    const Transform x = transform();
    std::vector<Vec3> out;
    out.reserve(points.size());
    for (const Vec3& p : points) out.push_back(x.apply(p));
    return out;
  }
};

/// The "turn deg" field of one viewer body: Euler angles in degrees, in the order Quat(Vec3) takes
/// them (glm: x pitch, y yaw, z roll). Euler angles are not unique: at yaw +-90 degrees pitch and
/// roll trade off, and past 90 glm::eulerAngles folds yaw back (yaw 100 reads as 80 with pitch and
/// roll turned by 180). Recomputing the field from the quaternion every frame therefore made it
/// jump under the user's hands, and a drag of yaw could not pass 90. So the field keeps the
/// angles the user typed or dragged while the rotation is the one they gave, and recomputes them
/// only when the rotation changed some other way (Ctrl+drag, reset pose, a loaded pair).
struct TurnField {
  Vec3 degrees{0.0};                   ///< the angles shown (degrees)
  Quat describes{0.0, 0.0, 0.0, 0.0};  ///< the rotation `degrees` stand for (zero: none yet)

  /// The angles to show for `rotation`, for the user to edit in place: the kept ones when
  /// `rotation` is the one they stand for, else recomputed from it.
  Vec3& sync(const Quat& rotation) {
    if (rotation != describes) {
      degrees = glm::degrees(glm::eulerAngles(rotation)) + Vec3{0.0};  // no "-0.0"
      describes = rotation;
    }
    return degrees;
  }

  /// After the user edited `degrees`: the unit rotation they give, which `degrees` now stand for.
  Quat apply() {
    describes = glm::normalize(Quat(glm::radians(degrees)));
    return describes;
  }
};

/// The mean of `points` (origin when empty).
inline Vec3 centroid(std::span<const Vec3> points) {
  Vec3 c{0.0};
  for (const Vec3& p : points) c += p;
  return points.empty() ? c : c / static_cast<Real>(points.size());
}

/// A body whose local points are world-space `points` as given, unmoved (pivot at their mean).
inline ViewerBody bodyAt(std::string name, std::vector<Vec3> points) {
  ViewerBody b;
  b.name = std::move(name);
  b.points = std::move(points);
  b.pivot = centroid(b.points);
  b.position = b.pivot;
  return b;
}

/// Every pairwise difference a_i - b_j: the Minkowski difference A - B is their convex hull.
inline std::vector<Vec3> minkowskiPoints(std::span<const Vec3> a, std::span<const Vec3> b) {
  std::vector<Vec3> out;
  out.reserve(a.size() * b.size());
  for (const Vec3& p : a)
    for (const Vec3& q : b) out.push_back(p - q);
  return out;
}

/// What the viewer shows for one pose of the pair.
struct ViewerQuery {
  std::vector<Vec3> worldA, worldB;  ///< the posed points (world, m)
  /// The cross-check exactly as `tumble-cli collide` runs it on the world points (so a saved
  /// disagreement reproduces), except that witness points are moved back to world space.
  CrossCheckResult check;
  GjkTrace trace;  ///< GJK's iterations on the same input (step 0 is the start simplex)
  EpaTrace epa;    ///< EPA's final polytope when GJK said Intersecting
  Vec3 closestA{0.0}, closestB{0.0};  ///< GJK's closest points (world)
  Vec3 deepA{0.0}, deepB{0.0};        ///< EPA's witness points (world) when epaRan
};

/// Runs the cross-check, GJK with its trace and (when intersecting) EPA with its polytope on the
/// world point sets `a` and `b` (at least one point each). Like crossCheck on spans, every point
/// is first shifted by a.front(), so the answers are crossCheck's bit for bit.
inline ViewerQuery runViewerQuery(std::vector<Vec3> a, std::vector<Vec3> b,
                                  const Settings& settings) {
  ViewerQuery q;
  q.worldA = std::move(a);
  q.worldB = std::move(b);
  q.check = crossCheck(q.worldA, q.worldB, settings);
  const Vec3 ref = q.worldA.front();
  std::vector<Vec3> la(q.worldA), lb(q.worldB);
  for (Vec3& p : la) p -= ref;
  for (Vec3& p : lb) p -= ref;
  const SupportShape sa{la, {}, {}}, sb{lb, {}, {}};
  const GjkResult gjk =
      gjkDistance(sa, Transform{}, sb, Transform{}, settings.gjk, nullptr, &q.trace);
  for (GjkTraceStep& s : q.trace.steps) {
    s.pointA += ref;
    s.pointB += ref;
  }
  q.closestA = gjk.pointA + ref;
  q.closestB = gjk.pointB + ref;
  if (gjk.intersecting()) {
    const EpaResult epa =
        epaPenetration(sa, Transform{}, sb, Transform{}, settings.epa, gjk, &q.epa);
    q.deepA = epa.pointA + ref;
    q.deepB = epa.pointB + ref;
  }
  return q;
}

/// The drawable pieces of a traced simplex: its points, edges and triangles (indices into
/// GjkTraceStep::vertices). A point has no edge, a segment one, a triangle 3 edges and 1 face,
/// a tetrahedron 6 edges and 4 faces.
struct SimplexPieces {
  std::vector<std::pair<int, int>> edges;
  std::vector<std::array<int, 3>> triangles;
};

inline SimplexPieces simplexPieces(int count) {
  SimplexPieces s;
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j) s.edges.emplace_back(i, j);
  for (int i = 0; i < count && count >= 3; ++i)
    for (int j = i + 1; j < count; ++j)
      for (int k = j + 1; k < count; ++k) s.triangles.push_back({i, j, k});
  return s;
}

/// The step the viewer shows first for a trace of `steps` steps: the middle one, so that a
/// picture shows GJK at work rather than its start or its answer.
inline int middleStep(int steps) {
  return steps <= 1 ? 0 : steps / 2;
}

/// A "FILE[:LINE]" argument: the file and the 1-based line (0 when not given: the first pair).
/// A suffix after the last ':' counts as a line number only when it is all digits.
inline std::pair<std::string, int> splitPairSpec(const std::string& spec) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon + 1 == spec.size()) return {spec, 0};
  int line = 0;
  const char* first = spec.data() + colon + 1;
  const char* last = spec.data() + spec.size();
  const auto [end, ec] = std::from_chars(first, last, line);
  if (ec != std::errc() || end != last || line < 1) return {spec, 0};
  return {spec.substr(0, colon), line};
}

/// Reads line `line` (1-based; 0: the first non-blank line) of a collide-format JSON Lines file
/// and parses it. Errors name the file and line: missing file, no such line, a bad line (with
/// the parser's message naming the key).
inline Expected<CollideQuery> loadCollidePair(const std::filesystem::path& file, int line) {
  std::ifstream in(file);
  if (!in)
    return Expected<CollideQuery>::failure("cannot open " + file.string() +
                                           " (a collide-format JSON Lines file)");
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    const bool blank = text.find_first_not_of(" \t\r") == std::string::npos;
    if (line == 0 ? blank : n != line) continue;
    auto query = parseCollideQuery(text);
    if (!query)
      return Expected<CollideQuery>::failure(file.string() + ":" + std::to_string(n) + ": " +
                                             query.error());
    return query;
  }
  return Expected<CollideQuery>::failure(
      file.string() + (line == 0 ? ": no pair in the file" : ": no line " + std::to_string(line)));
}

}  // namespace tumble::demo
