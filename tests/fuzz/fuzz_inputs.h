#pragma once
// The input formats of the fuzz targets that the unit tests also read (tests/support/corpus.h
// loads the regression files through these): one decoder, so a test checks the points the fuzzer
// found.
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_support.h"
#include "tumble/settings.h"

namespace tumble::fuzz {

/// fuzz_narrowphase: two point sets and the settings the target runs them with.
struct NarrowphaseInput {
  std::vector<Vec3> a, b;
  Settings settings;  ///< defaults, or small iteration and pivot caps when flag bit 0 is set
};

/// Byte 0: points in A (1..16), byte 1: in B, byte 2: bit 0 small caps (GJK/EPA 1..8 iterations, LP
/// 1..8 pivots) from byte 3. Then A's and B's points, three grid coordinates each.
inline NarrowphaseInput decodeNarrowphase(std::span<const uint8_t> data) {
  Bytes in(data.data(), data.size());
  NarrowphaseInput out;
  const int na = 1 + in.byte() % 16, nb = 1 + in.byte() % 16;
  const uint8_t flags = in.byte(), caps = in.byte();
  if (flags & 1) {
    out.settings.gjk.maxIterations = 1 + caps % 8;
    out.settings.epa.maxIterations = 1 + (caps >> 3) % 8;
    out.settings.lp.maxPivots = 1 + (caps >> 5) % 8;
  }
  for (int i = 0; i < na; ++i) out.a.push_back(in.gridVec3());
  for (int i = 0; i < nb; ++i) out.b.push_back(in.gridVec3());
  return out;
}

/// fuzz_hull: up to 64 points.
struct HullInput {
  std::vector<Vec3> points;
  bool raw = false;  ///< any bit pattern (NaN, inf) instead of grid coordinates
};

/// Byte 0: bit 0 raw doubles instead of grid coordinates, bit 1 a jitter of up to 255e-13 per
/// coordinate (near-degenerate sets). Then points until the input ends.
inline HullInput decodeHull(std::span<const uint8_t> data) {
  Bytes in(data.data(), data.size());
  HullInput out;
  const uint8_t mode = in.byte();
  out.raw = mode & 1;
  const bool jitter = mode & 2;
  while (in.left() > 0 && out.points.size() < 64) {
    Vec3 p = out.raw ? in.rawVec3() : in.gridVec3();
    if (jitter) p += in.byteVec3() * 1e-13;
    out.points.push_back(p);
  }
  return out;
}

}  // namespace tumble::fuzz
