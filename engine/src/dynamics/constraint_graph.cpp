#include "dynamics/constraint_graph.h"

#include <algorithm>

namespace tumble {

void ConstraintGraph::build(const std::vector<int>& bodies, const std::vector<char>& dynamic,
                            int bodyCount) {
  const size_t words = (static_cast<size_t>(bodyCount) + 63) / 64;
  used_.assign(words * kColors, 0);
  for (std::vector<int>& c : colors_) c.clear();
  overflow_.clear();
  colorCount_ = 0;
  const int n = static_cast<int>(bodies.size() / 2);
  auto bit = [&](int color, int body) -> uint64_t& {
    return used_[static_cast<size_t>(color) * words + static_cast<size_t>(body) / 64];
  };
  for (int i = 0; i < n; ++i) {
    const int a = bodies[2 * i], b = bodies[2 * i + 1];
    const bool da = dynamic[a] != 0, db = dynamic[b] != 0;
    const uint64_t ma = uint64_t{1} << (a % 64), mb = uint64_t{1} << (b % 64);
    int chosen = -1;
    if (da && db) {
      for (int c = 0; c < kColors && chosen < 0; ++c)
        if (!(bit(c, a) & ma) && !(bit(c, b) & mb)) chosen = c;
    } else if (da || db) {
      const int k = da ? a : b;
      const uint64_t mk = da ? ma : mb;
      for (int c = 1; c < kColors && chosen < 0; ++c)
        if (!(bit(c, k) & mk)) chosen = c;
    } else {
      chosen = 0;  // nothing moves: any colour (the solver skips such constraints anyway)
    }
    if (chosen < 0) {
      overflow_.push_back(i);
      continue;
    }
    if (da) bit(chosen, a) |= ma;
    if (db) bit(chosen, b) |= mb;
    colors_[chosen].push_back(i);
    colorCount_ = std::max(colorCount_, chosen + 1);
  }
}

}  // namespace tumble
