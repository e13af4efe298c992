// The character mover: cast-and-slide on World::castShape (Quake's PM_SlideMove clipping against
// every plane met, Jolt's CharacterVirtual for stairs, ground and platforms, Box3D's mover).
#include "tumble/character.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "tumble/world.h"

namespace tumble {
namespace {

constexpr Real kPi = 3.14159265358979323846;
// A displacement shorter than this (m) is not cast.
constexpr Real kMinMove = 1e-9;

std::string fieldError(const char* field, Real value, const char* range) {
  return std::string("character settings: ") + field + " = " + std::to_string(value) +
         " is out of range (expected " + range + ")";
}

Vec3 horizontal(const Vec3& v) {
  return Vec3(v.x, 0.0, v.z);
}

// The velocity closest to `v` that moves away from (or along) every plane through the origin
// with normal n_i: the projection of v onto the cone {x : x . n_i >= 0}. In 3D the closest point
// lies on v itself, on one plane, on the crease of two, or at the apex 0; every candidate is tried
// and the nearest feasible one kept (Quake's PM_SlideMove tries the same planes and creases).
Vec3 clipToPlanes(const Vec3& v, const std::vector<Vec3>& planes) {
  const Real tolerance = 1e-12 * (1.0 + glm::length(v));
  auto feasible = [&](const Vec3& x) {
    for (const Vec3& n : planes)
      if (glm::dot(x, n) < -tolerance) return false;
    return true;
  };
  if (feasible(v)) return v;
  Vec3 best(0.0);
  Real bestDistance = glm::dot(v, v);
  auto consider = [&](const Vec3& c) {
    const Vec3 d = v - c;
    const Real distance = glm::dot(d, d);
    if (distance < bestDistance && feasible(c)) {
      best = c;
      bestDistance = distance;
    }
  };
  for (const Vec3& n : planes) consider(v - glm::dot(v, n) * n);
  for (size_t i = 0; i < planes.size(); ++i)
    for (size_t j = i + 1; j < planes.size(); ++j) {
      Vec3 e = glm::cross(planes[i], planes[j]);
      const Real length = glm::length(e);
      if (!(length > 1e-9)) continue;
      e /= length;
      consider(glm::dot(v, e) * e);
    }
  return best;
}

struct Contact {
  BodyId body;
  Vec3 point{0.0};
  Vec3 normal{0.0};
};

struct Ground {
  GroundState state = GroundState::InAir;
  Vec3 normal{0.0, 1.0, 0.0};
  Vec3 point{0.0};
  BodyId body;
  Real gap = 0.0;  // m, vertical distance to the hit
};

// The casts of one update: settings, capsule and world in one place.
class Mover {
 public:
  Mover(World& world, const CharacterSettings& s, const Shape& shape)
      : world_(world),
        s_(s),
        shape_(shape),
        cosMax_(std::cos(s.maxSlopeAngle)),
        probe_(s.skin * (2.0 + 1.0 / std::max(std::cos(s.maxSlopeAngle), 0.25))) {}

  Real probeDistance() const { return probe_; }
  bool walkable(const Vec3& n) const { return n.y >= cosMax_; }

  std::optional<ShapeCastHit> cast(const Vec3& pos, const Vec3& d, const QueryFilter& f) const {
    return world_.castShape(shape_, Transform{pos, Quat(1.0, 0.0, 0.0, 0.0)}, d, f);
  }

  // Moves `pos` out of a body it overlaps along `n` (unit): a cast from pos + n k back towards
  // pos finds where the capsule first touches, and every position on that sweep is free. False
  // when that start overlaps too (no free place within k).
  bool depenetrate(Vec3& pos, const Vec3& n, const QueryFilter& f) const {
    const Real k = s_.radius + s_.skin;
    const Vec3 q = pos + k * n;
    const auto hit = cast(q, -k * n, f);
    if (!hit) {
      pos = q - (k - s_.skin) * n;
      return true;
    }
    if (hit->fraction == 0.0) return false;
    const Real travel = hit->fraction * k;
    pos = q - std::max(0.0, travel - s_.skin) * n;
    return true;
  }

  // Casts down `distance` m: what is below and whether the character can stand on it.
  Ground probe(const Vec3& pos, Real distance, const QueryFilter& f) const {
    Ground g;
    const auto hit = cast(pos, Vec3(0.0, -distance, 0.0), f);
    if (!hit) return g;
    g.point = hit->point;
    g.body = hit->body;
    g.gap = hit->fraction * distance;
    g.normal = hit->normal;
    if (walkable(hit->normal)) {
      g.state = GroundState::OnGround;
    } else if (const auto n = surfaceBeyond(pos, hit->point, f)) {
      // The rounded bottom rests on an edge (a stair's nose) whose top is walkable.
      g.state = GroundState::OnGround;
      g.normal = *n;
    } else {
      g.state = GroundState::OnSteepGround;
    }
    return g;
  }

  // The walkable surface just past a contact point, seen from the capsule's axis (Jolt's
  // step-forward test): a short ray down beside the point. Nothing when the surface there is
  // steep or absent.
  std::optional<Vec3> surfaceBeyond(const Vec3& pos, const Vec3& point,
                                    const QueryFilter& f) const {
    Vec3 u = horizontal(point - pos);
    const Real length = glm::length(u);
    if (!(length > 1e-9)) return std::nullopt;
    u /= length;
    const Real h = std::max(4.0 * s_.skin, 0.05);
    const Vec3 origin = point + (2.0 * s_.skin + 0.01) * u + Vec3(0.0, h, 0.0);
    const auto ray = world_.castRayClosest(origin, Vec3(0.0, -2.0 * h, 0.0), f);
    if (ray && ray->fraction > 0.0 && walkable(ray->normal)) return ray->normal;
    return std::nullopt;
  }

  // Cast-and-slide: moves `pos` by `displacement`, stopping a skin short of each surface met and
  // sliding on for the rest, clipped against every plane met so far (corners included). Steep
  // upward-facing surfaces add a vertical wall as well, so walking never climbs them.
  Vec3 slide(Vec3 pos, const Vec3& displacement, const QueryFilter& f,
             std::vector<Contact>* contacts) const {
    std::vector<Vec3> planes;
    Vec3 remaining = displacement;
    for (int it = 0; it < s_.maxIterations; ++it) {
      const Real length = glm::length(remaining);
      if (!(length > kMinMove)) break;
      // Cast a skin further than the move: a surface touched just at the end of the move (a cast
      // rounds that to a miss) is seen, and the skin is kept from it.
      const Real reach = length + s_.skin;
      const auto hit = cast(pos, (reach / length) * remaining, f);
      const Real approach = hit ? -glm::dot(remaining, hit->normal) / length : 0.0;
      const Real travel = hit ? hit->fraction * reach : reach;
      const Real back = approach > 1e-12 ? std::min(travel, s_.skin / approach) : travel;
      if (!hit || travel - back >= length) {
        pos += remaining;
        break;
      }
      const Vec3 n = hit->normal;
      Real moved = 0.0;  // of `remaining`
      if (hit->fraction == 0.0) {
        // Overlapping at the start (a body moved into the capsule): get out first.
        if (!depenetrate(pos, n, f)) break;
      } else {
        moved = (travel - back) / length;
        pos += moved * remaining;
      }
      if (contacts) contacts->push_back({hit->body, hit->point, n});
      planes.push_back(n);
      if (n.y > 0.0 && !walkable(n)) {
        const Vec3 wall = horizontal(n);
        const Real wallLength = glm::length(wall);
        if (wallLength > 1e-9) planes.push_back(wall / wallLength);
      }
      const Vec3 clipped = clipToPlanes((1.0 - moved) * remaining, planes);
      // Never turn back against the asked direction (Quake): that is how slides jitter.
      if (!(glm::dot(clipped, displacement) > 0.0)) break;
      remaining = clipped;
    }
    return pos;
  }

  // Moves down by what a probe of `distance` finds, leaving a skin: snapping to the ground.
  Vec3 dropTo(const Vec3& pos, const Ground& g) const {
    return pos - Vec3(0.0, std::max(0.0, g.gap - s_.skin), 0.0);
  }

  // Stair climbing (Jolt's WalkStairs): up by at most the step height, forward by the horizontal
  // displacement, down onto walkable ground. Nothing when there is no room above or no walkable
  // landing.
  std::optional<Vec3> step(const Vec3& pos, const Vec3& forward, const QueryFilter& f) const {
    const Real h = s_.stepHeight;
    const auto up = cast(pos, Vec3(0.0, h + s_.skin, 0.0), f);
    const Real rise = up ? std::min(h, std::max(0.0, up->fraction * (h + s_.skin) - s_.skin)) : h;
    if (!(rise > s_.skin)) return std::nullopt;
    const Vec3 raised = slide(pos + Vec3(0.0, rise, 0.0), forward, f, nullptr);
    const Ground landing = probe(raised, rise + probe_, f);
    // A rounded bottom raised by h can rest on the nose of a step higher than h: not a step.
    const Real foot = pos.y - s_.halfHeight - s_.radius;
    if (landing.state != GroundState::OnGround || landing.point.y > foot + s_.stepHeight)
      return std::nullopt;
    return dropTo(raised, landing);
  }

 private:
  World& world_;
  const CharacterSettings& s_;
  const Shape& shape_;
  Real cosMax_;
  Real probe_;
};

}  // namespace

Expected<void> validate(const CharacterSettings& s) {
  auto bad = [](const char* field, Real value, const char* range) {
    return Expected<void>::failure(fieldError(field, value, range));
  };
  if (!(s.radius > 0.0) || !std::isfinite(s.radius)) return bad("radius", s.radius, "> 0 m");
  if (!(s.halfHeight >= 0.0) || !std::isfinite(s.halfHeight))
    return bad("halfHeight", s.halfHeight, ">= 0 m");
  if (!(s.maxSlopeAngle >= 0.0) || !(s.maxSlopeAngle < 0.5 * kPi))
    return bad("maxSlopeAngle", s.maxSlopeAngle, "[0, pi/2) rad");
  if (!(s.stepHeight >= 0.0) || !std::isfinite(s.stepHeight))
    return bad("stepHeight", s.stepHeight, ">= 0 m");
  if (!(s.skin > 0.0) || !(s.skin < s.radius)) return bad("skin", s.skin, "(0, radius) m");
  if (!(s.mass > 0.0) || !std::isfinite(s.mass)) return bad("mass", s.mass, "> 0 kg");
  if (!(s.maxPushForce >= 0.0) || !std::isfinite(s.maxPushForce))
    return bad("maxPushForce", s.maxPushForce, ">= 0 N");
  if (s.maxIterations < 1 || s.maxIterations > 64)
    return bad("maxIterations", s.maxIterations, "[1, 64]");
  return {};
}

Character::Character(const CharacterSettings& settings, const Shape& shape, const Vec3& position)
    : settings_(settings), shape_(shape), position_(position) {}

Expected<Character> Character::create(const CharacterSettings& settings, const Vec3& position) {
  if (auto ok = validate(settings); !ok) return Expected<Character>::failure(ok.error());
  if (!isFinite(position)) return Expected<Character>::failure("character: position is not finite");
  auto shape = makeCapsule(settings.radius, settings.halfHeight);
  if (!shape) return Expected<Character>::failure(shape.error());
  return Character(settings, *shape, position);
}

Expected<void> Character::setSettings(const CharacterSettings& settings) {
  if (auto ok = validate(settings); !ok) return ok;
  auto shape = makeCapsule(settings.radius, settings.halfHeight);
  if (!shape) return Expected<void>::failure(shape.error());
  settings_ = settings;
  shape_ = *shape;
  return {};
}

void Character::setPosition(const Vec3& position) {
  if (!isFinite(position)) return;
  position_ = position;
  ground_ = GroundState::InAir;
  groundBody_ = BodyId{};
  groundVelocity_ = Vec3(0.0);
}

Vec3 Character::footPosition() const {
  return position_ - Vec3(0.0, settings_.halfHeight + settings_.radius, 0.0);
}

Expected<void> Character::update(World& world, const Vec3& desiredVelocity, Real dt) {
  if (!(dt > 0.0) || !std::isfinite(dt))
    return Expected<void>::failure("character update: dt = " + std::to_string(dt) +
                                   " is out of range (expected a finite dt > 0 s)");
  if (!isFinite(desiredVelocity))
    return Expected<void>::failure("character update: desiredVelocity is not finite");
  const Mover m(world, settings_, shape_);
  const QueryFilter& filter = settings_.filter;
  const Vec3 start = position_;
  Vec3 pos = position_;
  pushes_.clear();

  // Carried by the ground: the pose change its body made since the ground was found, at the
  // ground point (exact for platforms that turn as well). The ground body itself is not cast
  // against: it moved with the character.
  if (ground_ != GroundState::InAir && world.isAlive(groundBody_)) {
    const auto view = world.body(groundBody_);
    const Vec3 carried = view->transform().apply(groundPose_.applyInverse(groundPoint_));
    const Vec3 carry = carried - groundPoint_;
    if (glm::length(carry) > kMinMove) {
      QueryFilter notGround = filter;
      const BodyId ground = groundBody_;
      notGround.predicate = [&filter, ground](BodyId id) {
        return id != ground && (!filter.predicate || filter.predicate(id));
      };
      pos = m.slide(pos, carry, notGround, nullptr);
    }
  }
  // Out of anything that moved into the capsule.
  for (int it = 0; it < settings_.maxIterations; ++it) {
    const auto overlap = m.cast(pos, Vec3(0.0), filter);
    if (!overlap || !m.depenetrate(pos, overlap->normal, filter)) break;
  }

  const bool wasOnGround = m.probe(pos, m.probeDistance(), filter).state == GroundState::OnGround;
  const Vec3 displacement = desiredVelocity * dt;
  std::vector<Contact> contacts;
  Vec3 moved = m.slide(pos, displacement, filter, &contacts);

  // Stopped short on the ground: try the step.
  const Vec3 forward = horizontal(displacement);
  const Real forwardLength = glm::length(forward);
  if (wasOnGround && displacement.y <= 0.0 && settings_.stepHeight > 0.0 &&
      forwardLength > kMinMove && !contacts.empty()) {
    const Vec3 dir = forward / forwardLength;
    const Real reached = glm::dot(moved - pos, dir);
    if (reached < forwardLength - settings_.skin * 1e-3) {
      if (const auto stepped = m.step(pos, forward, filter);
          stepped && glm::dot(*stepped - pos, dir) > reached + 1e-6)
        moved = *stepped;
    }
  }
  // Stick to the ground going down slopes and stairs.
  if (wasOnGround && displacement.y <= 0.0) {
    const Ground below = m.probe(moved, settings_.stepHeight + m.probeDistance(), filter);
    if (below.state == GroundState::OnGround) moved = m.dropTo(moved, below);
  }

  // Push the dynamic bodies met, each once, with at most maxPushForce.
  for (const Contact& c : contacts) {
    const auto view = world.body(c.body);
    if (!view || !view->isDynamic()) continue;
    const bool seen = std::any_of(pushes_.begin(), pushes_.end(),
                                  [&](const CharacterPush& p) { return p.body == c.body; });
    const Real approach = -glm::dot(desiredVelocity, c.normal);
    if (seen || !(approach > 0.0) || !(settings_.maxPushForce > 0.0)) continue;
    const Real impulse = std::min(settings_.mass * approach, settings_.maxPushForce * dt);
    const Vec3 j = -impulse * c.normal;
    world.applyLinearImpulse(c.body, j, c.point);
    pushes_.push_back({c.body, c.point, c.normal, j});
  }

  const Ground g = m.probe(moved, m.probeDistance(), filter);
  ground_ = g.state;
  groundNormal_ = g.state == GroundState::InAir ? Vec3(0.0, 1.0, 0.0) : g.normal;
  groundPoint_ = g.point;
  groundBody_ = g.state == GroundState::InAir ? BodyId{} : g.body;
  groundVelocity_ = Vec3(0.0);
  if (groundBody_.valid()) {
    const auto view = world.body(groundBody_);
    groundPose_ = view->transform();
    groundVelocity_ = view->velocityAt(groundPoint_);
  }
  position_ = moved;
  velocity_ = (moved - start) / dt;
  return {};
}

}  // namespace tumble
