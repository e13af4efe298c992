#pragma once
/// Engine-internal: a software prefetch that the optimiser keeps.
///
/// GCC 12 treats `__builtin_prefetch` as free of side effects in its interprocedural analysis: a
/// helper (a lambda or a small function) that only prefetches, and is not inlined, is found
/// `pure`, and every call of it is deleted as a call whose result nobody reads. The broad phase's
/// hull fetch, the joints' prepare fetch and the wide ball rows' body fetch were all compiled to
/// nothing that way. The empty `asm volatile` statement is a side effect the analysis cannot see
/// through, so a function calling this one is never pure; it clobbers nothing (no "memory"), so
/// loads and stores still move across it freely.

namespace tumble::detail {

/// Fetches the cache line holding `p` into every cache level, for a read.
inline void prefetch(const void* p) {
  __builtin_prefetch(p);
  asm volatile("" : : "r"(p));
}

/// Fetches the cache line holding `p` for a write.
inline void prefetchWrite(const void* p) {
  __builtin_prefetch(p, 1);
  asm volatile("" : : "r"(p));
}

}  // namespace tumble::detail
