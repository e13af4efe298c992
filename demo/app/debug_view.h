#pragma once
// The demo's side of the engine's debug-draw interface (tumble/debug_draw.h): World::debugDraw
// reports boxes, contacts, islands and bodies; this turns them into renderer lines according to
// the panel's toggles. Cross-check disagreements come from the World's JSON Lines log (the
// collide format) and are outlined; a click on one opens it in the GJK viewer.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "renderer.h"
#include "tumble/collide_format.h"
#include "tumble/debug_draw.h"
#include "ui_state.h"

namespace tumble {
class World;
}

namespace tumble::demo {

/// One saved disagreement: the pair's world-space points and their bounding box.
struct Disagreement {
  CollideQuery query;
  Vec3 lo{0.0}, hi{0.0};  ///< m, box around both point sets
};

class DebugView final : public DebugDraw {
 public:
  explicit DebugView(Renderer& renderer) : renderer_(renderer) {}

  /// Draws `world` with `toggles` (everything but the bodies' faces and edges, which the renderer
  /// draws with the bodies' meshes; a compound's children are outlined by their own meshes).
  void draw(const World& world, const DebugToggles& toggles);

  /// Follows the cross-check log `file` (JSON Lines): new lines since the last call become
  /// disagreements (the newest 64 are kept).
  void pollDisagreements(const std::filesystem::path& file);
  void clearDisagreements();
  const std::vector<Disagreement>& disagreements() const { return disagreements_; }
  /// The disagreement whose box the ray meets first, if any.
  std::optional<CollideQuery> pickDisagreement(const Vec3& origin, const Vec3& direction) const;

  void drawBody(const BodyView& body, int island) override;
  void drawAabb(const Aabb& box, int depth, const Color& color) override;
  void drawContact(const Vec3& point, const Vec3& normal, Real normalImpulse,
                   Real separation) override;
  void drawSegment(const Vec3& a, const Vec3& b, const Color& color) override;

 private:
  // The static trees of the world's meshes and compounds (StaticBvh::nodes(), placed by each
  // body's pose) down to `maxDepth`, and each height field's box.
  void drawShapeTrees(const World& world, int maxDepth);

  Renderer& renderer_;
  DebugToggles toggles_;
  std::vector<Disagreement> disagreements_;
  std::streamoff logOffset_ = 0;
};

}  // namespace tumble::demo
