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
  uint16_t u16() { return static_cast<uint16_t>(byte() | (byte() << 8)); }
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

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

inline bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace tumble::fuzz
