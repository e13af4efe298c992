#pragma once
// Internal: four lanes of double, for the work done once per row per step where the bits must be
// those of glm on one lane at a time (packing contact rows, ball-joint rows' poses). GCC/Clang
// vector extensions: SSE2 runs two lanes per instruction. Comparisons and square roots go through
// SSE2 intrinsics: GCC leaves a comparison of 32-byte vectors without AVX to one lane at a time
// through memory (scalar compares, a stack round trip and a stalled reload).
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "tumble/math.h"

// The lanes are passed by value between inline functions; GCC and Clang note that the ABI of a
// 32-byte vector argument or result differs with and without AVX. Nothing here crosses a
// non-inline call.
#if defined(__GNUC__)  // GCC and Clang (both name the warning -Wpsabi)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace tumble::wide {

typedef Real Dbl __attribute__((vector_size(4 * sizeof(Real))));
typedef int64_t DblMask __attribute__((vector_size(4 * sizeof(Real))));

[[gnu::always_inline]] inline Dbl dsplat(Real x) {
  return Dbl{x, x, x, x};
}
/// a > b per lane: all ones or zeros (signalling on NaN, as the scalar comparison).
[[gnu::always_inline]] inline DblMask greater(const Dbl& a, const Dbl& b) {
#if defined(__SSE2__)
  const __m128d lo = _mm_cmpgt_pd(__m128d{a[0], a[1]}, __m128d{b[0], b[1]});
  const __m128d hi = _mm_cmpgt_pd(__m128d{a[2], a[3]}, __m128d{b[2], b[3]});
  const __m128i l = _mm_castpd_si128(lo), h = _mm_castpd_si128(hi);
  return DblMask{_mm_cvtsi128_si64(l), _mm_cvtsi128_si64(_mm_unpackhi_epi64(l, l)),
                 _mm_cvtsi128_si64(h), _mm_cvtsi128_si64(_mm_unpackhi_epi64(h, h))};
#else
  return a > b;
#endif
}
/// Lane-wise: m ? a : b.
[[gnu::always_inline]] inline Dbl dselect(const DblMask& m, const Dbl& a, const Dbl& b) {
  return reinterpret_cast<Dbl>((m & reinterpret_cast<DblMask>(a)) |
                               (~m & reinterpret_cast<DblMask>(b)));
}
/// Lane-wise square root, correctly rounded: std::sqrt's bits per lane.
[[gnu::always_inline]] inline Dbl dsqrt(const Dbl& a) {
#if defined(__SSE2__)
  const __m128d lo = _mm_sqrt_pd(__m128d{a[0], a[1]});
  const __m128d hi = _mm_sqrt_pd(__m128d{a[2], a[3]});
  return Dbl{lo[0], lo[1], hi[0], hi[1]};
#else
  Dbl r;
  for (int i = 0; i < 4; ++i) r[i] = std::sqrt(a[i]);
  return r;
#endif
}

}  // namespace tumble::wide
