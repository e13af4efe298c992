// Fuzz target: the collide line parser (parseCollideQuery) on arbitrary text. Checks: a query or
// an error, never a crash; a query has non-empty finite point sets and survives
// formatCollideQuery -> parseCollideQuery bit for bit.
#include <cstring>
#include <string_view>

#include "fuzz_support.h"
#include "tumble/collide_format.h"

using namespace tumble;

namespace {

bool same(const std::vector<Vec3>& x, const std::vector<Vec3>& y) {
  return x.size() == y.size() &&
         (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(Vec3)) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  auto q = parseCollideQuery(line);
  if (!q) {
    TUMBLE_FUZZ_CHECK(!q.error().empty());
    return 0;
  }
  TUMBLE_FUZZ_CHECK(!q->a.empty() && !q->b.empty());
  for (const Vec3& p : q->a) TUMBLE_FUZZ_CHECK(fuzz::finite(p));
  for (const Vec3& p : q->b) TUMBLE_FUZZ_CHECK(fuzz::finite(p));
  auto again = parseCollideQuery(formatCollideQuery(q->id, q->a, q->b));
  TUMBLE_FUZZ_CHECK(again);
  TUMBLE_FUZZ_CHECK(again->id == q->id);
  TUMBLE_FUZZ_CHECK(same(again->a, q->a) && same(again->b, q->b));
  return 0;
}
