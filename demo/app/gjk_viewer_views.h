#pragma once
// The two views of the GJK viewer, drawn as an overlay (gjk_viewer_overlay.h): the pair A, B with
// the closest points or EPA's witnesses and normal, and A - B around the origin with GJK's simplex
// at the chosen iteration and EPA's final polytope. Plain functions of what they draw.
#include <vector>

#include <glm/glm.hpp>

#include "gjk_viewer_model.h"
#include "gjk_viewer_overlay.h"

namespace tumble::demo {

inline constexpr glm::vec3 kViewerColorA{0.88f, 0.50f, 0.26f};
inline constexpr glm::vec3 kViewerColorB{0.33f, 0.55f, 0.88f};

/// Uniform display mapping of one view: world point p is drawn at (p - centre) * scale + anchor.
struct Framing {
  Vec3 centre{0.0};
  Real scale = 1.0;
  Vec3 anchor{0.0};
  Vec3 toDisplay(const Vec3& p) const { return (p - centre) * scale + anchor; }
};

/// What the views show; pointers are views of the scene's state for one frame.
struct ViewerPicture {
  const ViewerQuery* query = nullptr;
  const ConvexHull* minkowski = nullptr;     ///< hull of A - B; null when A - B is flat
  const std::vector<Vec3>* diffs = nullptr;  ///< the differences A - B is the hull of
  Framing work;                              ///< the pair's view
  Framing mink;                              ///< A - B's view
  int step = 0;                              ///< GJK trace step shown
  const ViewerBody* body[2] = {nullptr, nullptr};
  bool meshed[2] = {false, false};  ///< drawn as a mesh by the renderer (else as points here)
  Real radius[2] = {0.0, 0.0};      ///< world radius about the pivot (label placement)
};

/// A - B translucent (faces back to front), the origin's axes, the simplex of `step`, its
/// support point and v; at the last step of an overlapping pair EPA's polytope and normal.
void drawMinkowskiView(const Overlay& o, const ViewerPicture& pic);

/// Labels of A and B (and the points of sets without a mesh), this step's closest points and
/// distance, or at the last step of an overlapping pair EPA's witnesses, normal and depth.
void drawPairView(const Overlay& o, const ViewerPicture& pic);

/// The loud mark of a disagreement: a red banner across the top of the window.
void drawDisagreementBanner();

}  // namespace tumble::demo
