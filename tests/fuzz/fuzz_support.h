#pragma once
// Shared by the fuzz targets: a byte reader that turns arbitrary input into numbers, and a check
// that aborts (libFuzzer saves the input; the replay runner fails) naming the broken property.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>

#include "tumble/math.h"

#define TUMBLE_FUZZ_CHECK(cond)                                                           \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace tumble::fuzz {

/// Reads the input front to back; past the end every read returns zero bytes.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t left() const { return size_ - pos_; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  /// Two bytes, low first (in statements: the operands of | are unsequenced).
  uint16_t u16() {
    const int lo = byte();
    return static_cast<uint16_t>(lo | (byte() << 8));
  }
  /// The next 8 bytes as a double, any bit pattern (NaN, inf, subnormal).
  Real raw() {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(byte()) << (8 * i);
    Real x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
  /// A coordinate on a coarse grid (multiples of 1/64 in [-512, 512)): duplicates, collinear and
  /// coplanar points come up often.
  Real grid() { return (static_cast<int>(u16()) - 32768) / 64.0; }
  /// Three grid() coordinates, x first. Reads in statements: the order in which a constructor's
  /// arguments are evaluated is unspecified (GCC reads Vec3(grid(), grid(), grid()) z first, clang
  /// x first), and the replay must decode what the fuzzer decoded.
  Vec3 gridVec3() {
    const Real x = grid();
    const Real y = grid();
    return Vec3(x, y, grid());
  }
  /// Three raw() coordinates, x first.
  Vec3 rawVec3() {
    const Real x = raw();
    const Real y = raw();
    return Vec3(x, y, raw());
  }
  /// Three bytes, x first.
  Vec3 byteVec3() {
    const Real x = byte();
    const Real y = byte();
    return Vec3(x, y, byte());
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

inline bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace tumble::fuzz
