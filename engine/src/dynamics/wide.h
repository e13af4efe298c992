#pragma once
// Internal: four-lane arithmetic for the contact solver's rows. One `Wide` holds one value of four
// constraints (structure of arrays), so one instruction advances four constraints that share no
// dynamic body (graph colouring makes that true). Written with GCC/Clang vector extensions: the
// compiler emits SSE2 (two 2-wide double instructions per operation) on any x86-64, and single
// 4-wide AVX instructions when the build enables them (CMake option TUMBLE_AVX2). Lanes are
// independent, so the results do not depend on the width the compiler picks; within one build
// they are bit-identical run to run.
#include <cmath>
#include <cstdint>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "dynamics/wide_double.h"
#include "tumble/math.h"

// Wide values are passed by value between inline functions; GCC notes that the ABI of a 32-byte
// vector argument differs with and without AVX. Nothing here crosses a non-inline call.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace tumble::wide {

constexpr int kLanes = 4;

// The lanes' scalar: double by default, float with the CMake option TUMBLE_SOLVER_FLOAT (half the
// memory per row and twice the lanes per SSE2 instruction; body poses stay double either way).
#if defined(TUMBLE_SOLVER_FLOAT)
using Lane = float;
using LaneBits = int32_t;
#else
using Lane = Real;
using LaneBits = int64_t;
#endif
/// The smallest positive value a lane takes where a division needs a nonzero divisor.
constexpr Lane kTiny = sizeof(Lane) == 4 ? Lane(1e-30) : Lane(1e-300);

typedef Lane Wide __attribute__((vector_size(sizeof(Lane) * kLanes)));
typedef LaneBits Mask __attribute__((vector_size(sizeof(Lane) * kLanes)));

inline Wide splat(Real x) {
  const Lane l = static_cast<Lane>(x);
  return Wide{l, l, l, l};
}
inline Wide zero() {
  return Wide{0, 0, 0, 0};
}
/// Lane-wise: mask ? a : b (mask lanes are all ones or all zeros, as comparisons give).
inline Wide select(Mask mask, Wide a, Wide b) {
  return reinterpret_cast<Wide>((mask & reinterpret_cast<Mask>(a)) |
                                (~mask & reinterpret_cast<Mask>(b)));
}
inline Wide max(Wide a, Wide b) {
  return select(a > b, a, b);
}
inline Wide min(Wide a, Wide b) {
  return select(a < b, a, b);
}
/// Lane-wise square root, correctly rounded (IEEE), so the same bits as std::sqrt per lane.
inline Wide sqrt(Wide a) {
#if defined(__SSE2__) && defined(TUMBLE_SOLVER_FLOAT)
  return reinterpret_cast<Wide>(_mm_sqrt_ps(reinterpret_cast<__m128>(a)));
#elif defined(__SSE2__)
  return dsqrt(a);  // double lanes: the same type as wide_double.h's
#else
  Wide r;
  for (int i = 0; i < kLanes; ++i) r[i] = std::sqrt(a[i]);
  return r;
#endif
}
#if defined(TUMBLE_SOLVER_FLOAT)
/// a > b per lane, as a mask (with double lanes Wide is wide_double.h's Dbl, and its `greater`
/// compares them through SSE2).
inline Mask greater(Wide a, Wide b) {
  return a > b;
}
#endif
inline bool anyNonZero(Wide a) {
  const Mask m = a != zero();
  return (m[0] | m[1] | m[2] | m[3]) != 0;
}

struct Vec {
  Wide x, y, z;
};

inline Vec operator+(const Vec& a, const Vec& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec operator-(const Vec& a, const Vec& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec operator*(Wide s, const Vec& a) {
  return {s * a.x, s * a.y, s * a.z};
}
inline Wide dot(const Vec& a, const Vec& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline Vec cross(const Vec& a, const Vec& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// A symmetric 3x3 matrix (inverse inertia in world axes).
struct Sym {
  Wide xx, xy, xz, yy, yz, zz;
};
inline Vec operator*(const Sym& m, const Vec& v) {
  return {m.xx * v.x + m.xy * v.y + m.xz * v.z, m.xy * v.x + m.yy * v.y + m.yz * v.z,
          m.xz * v.x + m.yz * v.y + m.zz * v.z};
}

/// A unit quaternion per lane.
struct Rot {
  Wide w, x, y, z;
};
/// q v q*, as v + 2 w (u x v) + 2 u x (u x v) with u the vector part.
inline Vec rotate(const Rot& q, const Vec& v) {
  const Vec u{q.x, q.y, q.z};
  const Wide two = splat(2.0);
  const Vec t = two * cross(u, v);
  return v + q.w * t + cross(u, t);
}

// Lane access for packing and unpacking.
inline void setLane(Vec& v, int lane, const Vec3& x) {
  v.x[lane] = static_cast<Lane>(x.x);
  v.y[lane] = static_cast<Lane>(x.y);
  v.z[lane] = static_cast<Lane>(x.z);
}
inline Vec3 lane(const Vec& v, int i) {
  return {v.x[i], v.y[i], v.z[i]};
}
inline void setLane(Sym& m, int lane, const Mat3& a) {
  m.xx[lane] = static_cast<Lane>(a[0][0]);
  m.xy[lane] = static_cast<Lane>(a[1][0]);
  m.xz[lane] = static_cast<Lane>(a[2][0]);
  m.yy[lane] = static_cast<Lane>(a[1][1]);
  m.yz[lane] = static_cast<Lane>(a[2][1]);
  m.zz[lane] = static_cast<Lane>(a[2][2]);
}

/// Lane-wise shuffle of two vectors: result lane k is lane i_k of the 8 lanes (a, b).
#if defined(__clang__)
#define TUMBLE_WIDE_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define TUMBLE_WIDE_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, Mask{i, j, k, l})
#endif

/// Transposes the 4x4 block whose rows are r0..r3 (lane k of row i becomes lane i of row k), as
/// _MM_TRANSPOSE4_PS does: two rounds of interleaves.
inline void transpose(Wide& r0, Wide& r1, Wide& r2, Wide& r3) {
  const Wide t0 = TUMBLE_WIDE_SHUFFLE(r0, r1, 0, 4, 1, 5);
  const Wide t1 = TUMBLE_WIDE_SHUFFLE(r2, r3, 0, 4, 1, 5);
  const Wide t2 = TUMBLE_WIDE_SHUFFLE(r0, r1, 2, 6, 3, 7);
  const Wide t3 = TUMBLE_WIDE_SHUFFLE(r2, r3, 2, 6, 3, 7);
  r0 = TUMBLE_WIDE_SHUFFLE(t0, t1, 0, 1, 4, 5);
  r1 = TUMBLE_WIDE_SHUFFLE(t0, t1, 2, 3, 6, 7);
  r2 = TUMBLE_WIDE_SHUFFLE(t2, t3, 0, 1, 4, 5);
  r3 = TUMBLE_WIDE_SHUFFLE(t2, t3, 2, 3, 6, 7);
}

#undef TUMBLE_WIDE_SHUFFLE

}  // namespace tumble::wide
