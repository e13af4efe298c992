#include "debug_view.h"

#include <algorithm>
#include <fstream>

#include "tumble/world.h"

namespace tumble::demo {
namespace {

constexpr size_t kMaxDisagreements = 64;

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

}  // namespace

void DebugView::draw(const World& world, const DebugToggles& toggles) {
  toggles_ = toggles;
  DebugDrawFlags flags;
  flags.bodies = toggles.centers || toggles.velocities;
  flags.aabbs = toggles.aabbs;
  flags.treeNodes = toggles.tree;
  flags.contacts = toggles.contacts || toggles.normals || toggles.impulses;
  flags.islands = toggles.islands;
  world.debugDraw(*this, flags);
  if (toggles.crosscheck) {
    for (const Disagreement& d : disagreements_) {
      // A red box around the pair, grown a little so it shows around touching faces.
      const Vec3 grow(0.02);
      renderer_.drawBox(f(d.lo - grow), f(d.hi + grow), {1.0f, 0.1f, 0.1f, 1.0f});
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
