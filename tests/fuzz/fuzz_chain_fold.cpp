// Fuzz target: Chain folds. The bytes make a chain (3..12 points by a walk along one of 26 grid
// directions, lengths 0.25..2 m, radius 0.02..0.4 m) and up to 8 folds (joint, axis, angle in
// [-2 pi, 2 pi]). Checks the chain promise (docs/ARCHITECTURE.md, "Chain scripts") after every
// fold: the applied angle has the requested sign and is no larger, blocked means shorter, segment
// lengths are kept, the chain does not intersect itself, and a fold blocked by contact stops at
// contact.
#include <cmath>
#include <numbers>
#include <vector>

#include "fuzz_support.h"
#include "tumble/chain.h"

using namespace tumble;

namespace {

Vec3 direction(uint8_t k) {
  k %= 26;
  if (k >= 13) ++k;  // skip (0, 0, 0)
  return Vec3(k % 3 - 1.0, (k / 3) % 3 - 1.0, k / 9 - 1.0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Bytes in(data, size);
  const int n = 3 + in.byte() % 10;
  const Real radius = 0.02 + 0.38 * in.byte() / 255.0;
  std::vector<Vec3> pts{Vec3(0.0)};
  for (int i = 1; i < n; ++i) {
    const Vec3 d = glm::normalize(direction(in.byte()));
    pts.push_back(pts.back() + (0.25 + 1.75 * in.byte() / 255.0) * d);
  }
  Settings::Chain settings;
  settings.maxSubsteps = 20000;
  auto chain = Chain::create(pts, radius, settings);
  if (!chain) return 0;
  std::vector<Real> lengths;
  for (int i = 0; i + 1 < n; ++i) lengths.push_back(glm::length(pts[i + 1] - pts[i]));

  for (int k = 0; k < 8 && in.left() >= 6; ++k) {
    const int joint = 1 + in.byte() % (n - 2);
    // One statement a byte: the order of a constructor's arguments is unspecified.
    const Real ax = static_cast<int8_t>(in.byte()), ay = static_cast<int8_t>(in.byte());
    const Vec3 axis(ax, ay, static_cast<int8_t>(in.byte()));
    const Real angle = (static_cast<int>(in.u16()) - 32768) / 32768.0 * 2.0 * std::numbers::pi;
    auto r = chain->fold(joint, axis, angle, settings);
    if (!r) {
      TUMBLE_FUZZ_CHECK(!(glm::length(axis) > 0.0));  // the only refusal for these inputs
      continue;
    }
    TUMBLE_FUZZ_CHECK(std::isfinite(r->applied));
    TUMBLE_FUZZ_CHECK(std::abs(r->applied) <= std::abs(angle));
    TUMBLE_FUZZ_CHECK(r->applied * angle >= 0.0);
    TUMBLE_FUZZ_CHECK(r->blocked == (std::abs(r->applied) < std::abs(angle)));
    const auto& p = chain->points();
    for (int i = 0; i + 1 < n; ++i) {
      TUMBLE_FUZZ_CHECK(fuzz::finite(p[i + 1]));
      TUMBLE_FUZZ_CHECK(std::abs(glm::length(p[i + 1] - p[i]) - lengths[i]) <= 1e-9 * lengths[i]);
    }
    TUMBLE_FUZZ_CHECK(validateChain(p, radius, settings).ok());
    if (r->minGap) {
      TUMBLE_FUZZ_CHECK(std::isfinite(*r->minGap));
      TUMBLE_FUZZ_CHECK(*r->minGap >= -settings.tolerance * radius * (1.0 + 1e-9));
      if (r->status == ChainMotionStatus::Blocked)
        TUMBLE_FUZZ_CHECK(*r->minGap <= settings.tolerance * radius * (1.0 + 1e-9) + 1e-12);
    }
  }
  return 0;
}
