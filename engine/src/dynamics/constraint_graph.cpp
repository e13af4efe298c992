#include "dynamics/constraint_graph.h"

#include <algorithm>
#include <bit>

namespace tumble {

void ConstraintGraph::build(const std::vector<int>& bodies, const std::vector<char>& dynamic,
                            int bodyCount) {
  static_assert(kColors <= 32, "a body's colours are one 32-bit mask");
  // Per body, the colours it is in (bit c: colour c): the first colour free for two bodies is the
  // lowest bit set in neither mask, one look instead of a walk over the colours.
  used_.assign(static_cast<size_t>(bodyCount), 0u);
  for (std::vector<int>& c : colors_) c.clear();
  overflow_.clear();
  colorCount_ = 0;
  constexpr uint32_t kAll = kColors == 32 ? ~0u : (1u << kColors) - 1u;
  const int n = static_cast<int>(bodies.size() / 2);
  for (int i = 0; i < n; ++i) {
    const int a = bodies[2 * i], b = bodies[2 * i + 1];
    const bool da = dynamic[a] != 0, db = dynamic[b] != 0;
    int chosen = -1;
    if (da || db) {
      // Free for both; one with a single dynamic body starts from colour 1 (build's comment).
      uint32_t free = kAll & ~((da ? used_[a] : 0u) | (db ? used_[b] : 0u));
      if (!(da && db)) free &= ~1u;
      if (free != 0) chosen = std::countr_zero(free);
    } else {
      chosen = 0;  // nothing moves: any colour (the solver skips such constraints anyway)
    }
    if (chosen < 0) {
      overflow_.push_back(i);
      continue;
    }
    if (da) used_[a] |= 1u << chosen;
    if (db) used_[b] |= 1u << chosen;
    // When a colour must grow, every colour takes room for all n constraints (4 bytes each): the
    // colours a scene uses drift while it moves (a bridge that never rests took a colour it had
    // not used before after 700 steps, another after 1900), and once a scene's constraint count
    // has been reached a step allocates nothing.
    std::vector<int>& members = colors_[chosen];
    if (members.size() == members.capacity())
      for (std::vector<int>& c : colors_) c.reserve(static_cast<size_t>(n));
    members.push_back(i);
    colorCount_ = std::max(colorCount_, chosen + 1);
  }
}

}  // namespace tumble
