#pragma once
/// Engine-internal: large arrays on huge pages where the kernel offers them.
///
/// A box heap's landing wrote its pair and manifold lists further than ever before (the lists
/// double-buffer: this step's and last step's swap), and each fresh 4 KiB page cost a page fault:
/// 1,800 in each of the 2000-box heap's two worst steps, a few milliseconds in a VM. Asking for
/// transparent huge pages (Linux `madvise(MADV_HUGEPAGE)`, honoured when
/// /sys/kernel/mm/transparent_hugepage/enabled says `always` or `madvise`) makes that a handful
/// of 2 MiB faults. Only the whole 2 MiB pages inside the range are advised; elsewhere (another
/// system, a kernel without THP) this does nothing. It changes no value, only how the memory is
/// mapped.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace tumble::detail {

/// Advises the 2 MiB pages wholly inside [p, p + bytes).
void adviseHugePages(const void* p, size_t bytes);

/// v.reserve(n), its storage then advised (adviseHugePages) when it is 2 MiB or more.
template <class T>
void reserveLarge(std::vector<T>& v, size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  if (v.capacity() * sizeof(T) >= (size_t{2} << 20))
    adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

/// v.resize(n), growing as resize would (to at least twice the capacity) through reserveLarge.
template <class T>
void resizeLarge(std::vector<T>& v, size_t n) {
  if (n > v.capacity()) reserveLarge(v, std::max(n, 2 * v.capacity()));
  v.resize(n);
}

}  // namespace tumble::detail
