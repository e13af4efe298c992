#include "debug_view.h"

#include <algorithm>
#include <fstream>
#include <utility>
#include <vector>

#include "tumble/world.h"

namespace tumble::demo {
namespace {

constexpr size_t kMaxDisagreements = 64;
// Shape trees: inner nodes violet, leaves (a triangle's or a compound child's box) yellow-green.
constexpr glm::vec4 kShapeTreeNode{0.72f, 0.42f, 0.95f, 1.0f};
constexpr glm::vec4 kShapeTreeLeaf{0.80f, 0.95f, 0.35f, 1.0f};

glm::vec3 f(const Vec3& v) {
  return glm::vec3(v);
}

glm::vec4 rgba(const Color& c, float alpha = 1.0f) {
  return {c.r, c.g, c.b, alpha};
}

// Slab test of the ray origin + t * direction (t >= 0) against a box; the entry t or nullopt.
std::optional<Real> rayBox(const Vec3& origin, const Vec3& direction, const Vec3& lo,
                           const Vec3& hi) {
  Real t0 = 0.0, t1 = 1e30;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(direction[axis]) < 1e-12) {
      if (origin[axis] < lo[axis] || origin[axis] > hi[axis]) return std::nullopt;
      continue;
    }
    Real a = (lo[axis] - origin[axis]) / direction[axis];
    Real b = (hi[axis] - origin[axis]) / direction[axis];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return std::nullopt;
  }
  return t0;
}

// The 12 edges of `box` (in a body's frame) placed by the body's transform `xf`.
void drawPlacedBox(Renderer& renderer, const Aabb& box, const Transform& xf,
                   const glm::vec4& color) {
  glm::vec3 corner[8];
  for (int i = 0; i < 8; ++i)
    corner[i] =
        f(xf.apply(Vec3((i & 1) ? box.upper.x : box.lower.x, (i & 2) ? box.upper.y : box.lower.y,
                        (i & 4) ? box.upper.z : box.lower.z)));
  // Corners i and i + bit differ along one axis: an edge.
  for (int i = 0; i < 8; ++i)
    for (const int bit : {1, 2, 4})
      if (!(i & bit)) renderer.drawLine(corner[i], corner[i | bit], color);
}

// The nodes of `tree` from the root (depth 0) down to `maxDepth`, and the leaves above it.
void drawTree(Renderer& renderer, const StaticBvh& tree, const Transform& xf, int maxDepth) {
  const auto& nodes = tree.nodes();
  if (nodes.empty()) return;
  std::vector<std::pair<int, int>> stack{{0, 0}};  // node, depth
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    const StaticBvh::Node& node = nodes[static_cast<size_t>(index)];
    const bool leaf = node.left < 0;
    drawPlacedBox(renderer, node.box, xf, leaf ? kShapeTreeLeaf : kShapeTreeNode);
    if (leaf || depth == maxDepth) continue;
    stack.push_back({node.right, depth + 1});
    stack.push_back({node.left, depth + 1});
  }
}

}  // namespace

void DebugView::draw(const World& world, const DebugToggles& toggles) {
  toggles_ = toggles;
  DebugDrawFlags flags;
  flags.bodies = toggles.centers || toggles.velocities;
  flags.aabbs = toggles.aabbs;
  flags.treeNodes = toggles.tree;
  flags.contacts = toggles.contacts || toggles.normals || toggles.impulses;
  flags.islands = toggles.islands;
  flags.joints = toggles.joints;
  world.debugDraw(*this, flags);
  if (toggles.shapeTrees) drawShapeTrees(world, toggles.shapeTreeDepth);
  if (toggles.crosscheck) {
    for (const Disagreement& d : disagreements_) {
      // A red box around the pair, grown a little so it shows around touching faces.
      const Vec3 grow(0.02);
      renderer_.drawBox(f(d.lo - grow), f(d.hi + grow), {1.0f, 0.1f, 0.1f, 1.0f});
    }
  }
}

void DebugView::drawShapeTrees(const World& world, int maxDepth) {
  for (const BodyId id : world.bodyIds()) {
    const auto body = world.body(id);
    if (!body) continue;
    const Shape& shape = body->shape;
    const Transform xf = body->transform();
    if (const Compound* compound = shape.compound()) {
      drawTree(renderer_, compound->tree, xf, maxDepth);
    } else if (const TriangleMesh* mesh = shape.mesh()) {
      drawTree(renderer_, mesh->tree, xf, maxDepth);
    } else if (const HeightField* field = shape.heightField()) {
      // A height field is searched cell by cell, not through a tree: its box alone.
      drawPlacedBox(renderer_, field->box, xf, kShapeTreeNode);
    }
  }
}

void DebugView::drawBody(const BodyView& body, int island) {
  (void)island;
  if (body.type == BodyType::Static) return;
  const bool sleeping = body.isDynamic() && !body.awake;
  if (toggles_.centers) {
    renderer_.drawCross(f(body.centerOfMass), 0.08f,
                        sleeping ? glm::vec4(0.3f, 0.3f, 0.3f, 1.0f) : glm::vec4(1, 1, 1, 1));
  }
  if (toggles_.velocities && !sleeping) {
    // 0.1 s of travel.
    renderer_.drawLine(f(body.centerOfMass), f(body.centerOfMass + 0.1 * body.linearVelocity),
                       {0.1f, 0.9f, 0.9f, 1.0f});
  }
}

void DebugView::drawAabb(const Aabb& box, int depth, const Color& color) {
  (void)depth;
  renderer_.drawBox(f(box.lower), f(box.upper), rgba(color));
}

void DebugView::drawContact(const Vec3& point, const Vec3& normal, Real normalImpulse,
                            Real separation) {
  if (toggles_.contacts) {
    // Touching points yellow, speculative (separated) points grey.
    renderer_.drawCross(
        f(point), 0.03f,
        separation <= 0.0 ? glm::vec4(1.0f, 0.9f, 0.1f, 1.0f) : glm::vec4(0.6f, 0.6f, 0.6f, 1.0f));
  }
  if (toggles_.normals) {
    renderer_.drawLine(f(point), f(point + 0.15 * normal), {0.9f, 0.2f, 0.9f, 1.0f});
  }
  if (toggles_.impulses && normalImpulse > 0.0) {
    // 1 N s is drawn 0.1 m long, capped at 1 m.
    const Real length = std::min(0.1 * normalImpulse, 1.0);
    renderer_.drawLine(f(point), f(point + length * normal), {1.0f, 0.4f, 0.1f, 1.0f});
  }
}

void DebugView::drawSegment(const Vec3& a, const Vec3& b, const Color& color) {
  renderer_.drawLine(f(a), f(b), rgba(color));
}

void DebugView::pollDisagreements(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return;
  in.seekg(logOffset_);
  std::string line;
  std::streamoff consumed = logOffset_;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // a line still being written: read it next time
    consumed = in.tellg();
    auto query = parseCollideQuery(line);
    if (!query || query->a.empty() || query->b.empty()) continue;
    Disagreement d{*query, query->a.front(), query->a.front()};
    for (const auto* set : {&query->a, &query->b})
      for (const Vec3& p : *set) {
        d.lo = glm::min(d.lo, p);
        d.hi = glm::max(d.hi, p);
      }
    disagreements_.push_back(std::move(d));
  }
  logOffset_ = consumed;
  if (disagreements_.size() > kMaxDisagreements)
    disagreements_.erase(disagreements_.begin(),
                         disagreements_.end() - static_cast<std::ptrdiff_t>(kMaxDisagreements));
}

void DebugView::clearDisagreements() {
  disagreements_.clear();
  logOffset_ = 0;
}

std::optional<CollideQuery> DebugView::pickDisagreement(const Vec3& origin,
                                                        const Vec3& direction) const {
  std::optional<CollideQuery> best;
  Real bestT = 1e30;
  for (const Disagreement& d : disagreements_) {
    const auto t = rayBox(origin, direction, d.lo - Vec3(0.02), d.hi + Vec3(0.02));
    if (t && *t < bestT) {
      bestT = *t;
      best = d.query;
    }
  }
  return best;
}

}  // namespace tumble::demo
