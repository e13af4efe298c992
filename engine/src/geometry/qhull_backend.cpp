#include "geometry/qhull_backend.h"

#include "geometry/fp_hold.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace tumble::detail {
namespace {

// Qhull writes warnings and errors to a FILE*; a memory stream keeps stdout/stderr clean and lets
// us put the message into the error we return.
class MemoryStream {
 public:
  MemoryStream() : file_(open_memstream(&buffer_, &size_)) {
    if (file_ == nullptr) file_ = std::fopen("/dev/null", "w");
  }
  ~MemoryStream() {
    if (file_ != nullptr) std::fclose(file_);
    std::free(buffer_);
  }
  MemoryStream(const MemoryStream&) = delete;
  MemoryStream& operator=(const MemoryStream&) = delete;

  FILE* file() const { return file_; }
  std::string text() {
    if (file_ == nullptr) return {};
    std::fflush(file_);
    return buffer_ != nullptr ? std::string(buffer_, size_) : std::string();
  }

 private:
  char* buffer_ = nullptr;
  size_t size_ = 0;
  FILE* file_ = nullptr;
};

// Owns one reentrant Qhull state and frees it, whatever path leaves the function.
class QhullState {
 public:
  explicit QhullState(FILE* errFile) : qh_(std::make_unique<qhT>()) { qh_zero(qh_.get(), errFile); }
  ~QhullState() {
    int currentLong = 0;
    int totalLong = 0;
    qh_freeqhull(qh_.get(), !qh_ALL);
    qh_memfreeshort(qh_.get(), &currentLong, &totalLong);
  }
  QhullState(const QhullState&) = delete;
  QhullState& operator=(const QhullState&) = delete;
  qhT* get() const { return qh_.get(); }

 private:
  std::unique_ptr<qhT> qh_;
};

std::string firstLines(const std::string& text, size_t maxChars) {
  std::string out = text.substr(0, maxChars);
  for (char& c : out) {
    if (c == '\n') c = ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

template <class T>
void forEachInSet(setT* set, const auto& fn) {
  if (set == nullptr) return;
  for (void** p = &set->e[0].p; *p != nullptr; ++p) fn(static_cast<T*>(*p));
}

// Newell's method: the area-weighted normal of a polygon (twice the vector area).
Vec3 newellNormal(const std::vector<int>& cycle, const coordT* coords) {
  Vec3 n(0.0);
  for (size_t i = 0; i < cycle.size(); ++i) {
    const coordT* p = coords + 3 * cycle[i];
    const coordT* q = coords + 3 * cycle[(i + 1) % cycle.size()];
    n.x += (p[1] - q[1]) * (p[2] + q[2]);
    n.y += (p[2] - q[2]) * (p[0] + q[0]);
    n.z += (p[0] - q[0]) * (p[1] + q[1]);
  }
  return n;
}

// Orders a facet's boundary by chaining its ridges (in 3-d each ridge is an edge with 2 vertices).
bool chainRidges(facetT* facet, const coordT* coords, std::vector<int>& cycle) {
  std::vector<std::pair<int, int>> links;  // (vertex, other end), both directions
  bool ok = true;
  forEachInSet<ridgeT>(facet->ridges, [&](ridgeT* ridge) {
    std::vector<int> ends;
    forEachInSet<vertexT>(ridge->vertices, [&](vertexT* v) {
      ends.push_back(static_cast<int>((v->point - coords) / 3));
    });
    if (ends.size() != 2) {
      ok = false;
      return;
    }
    links.emplace_back(ends[0], ends[1]);
    links.emplace_back(ends[1], ends[0]);
  });
  if (!ok || links.size() < 6) return false;
  std::sort(links.begin(), links.end());
  // Every boundary vertex must have exactly two links: then the walk is a simple cycle.
  for (size_t i = 0; i < links.size(); i += 2) {
    if (i + 1 >= links.size() || links[i].first != links[i + 1].first) return false;
    if (i + 2 < links.size() && links[i + 2].first == links[i].first) return false;
  }
  auto linksOf = [&](int v) {
    auto it = std::lower_bound(links.begin(), links.end(), std::make_pair(v, -1));
    return std::make_pair(it->second, (it + 1)->second);
  };
  const size_t count = links.size() / 2;
  cycle.clear();
  int previous = links[0].first;
  int current = links[0].second;
  cycle.push_back(previous);
  while (current != links[0].first) {
    if (cycle.size() >= count) return false;  // a second cycle: not a simple polygon
    cycle.push_back(current);
    auto [a, b] = linksOf(current);
    int next = (a == previous) ? b : a;
    previous = current;
    current = next;
  }
  return cycle.size() == count;
}

}  // namespace

Expected<QhullFaces> runQhull(std::span<const Vec3> points, Real inputRoundoff) {
  std::vector<coordT> coords(points.size() * 3);
  for (size_t i = 0; i < points.size(); ++i) {
    coords[3 * i] = points[i].x;
    coords[3 * i + 1] = points[i].y;
    coords[3 * i + 2] = points[i].z;
  }
  // 'C-0' merges facets that are coplanar within roundoff (Qhull's default in 3-d, stated so
  // that it stays on); 'En' raises the roundoff to the error the input already carries.
  char command[96];
  if (inputRoundoff > 0.0) {
    std::snprintf(command, sizeof(command), "qhull C-0 E%.6g", inputRoundoff);
  } else {
    std::snprintf(command, sizeof(command), "qhull C-0");
  }

  FloatingPointHold fpHold;
  MemoryStream messages;
  QhullState state(messages.file());
  qhT* qh = state.get();
  int exitCode = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False, command,
                              nullptr, messages.file());
  if (exitCode != 0) {
    return Expected<QhullFaces>::failure("convex hull: Qhull failed with exit code " +
                                         std::to_string(exitCode) + ": " +
                                         firstLines(messages.text(), 600));
  }

  QhullFaces out;
  const coordT* base = coords.data();
  for (facetT* facet = qh->facet_list; facet != nullptr && facet->next != nullptr;
       facet = facet->next) {
    if (facet->visible) continue;
    std::vector<int> cycle;
    if (facet->simplicial || facet->ridges == nullptr) {
      forEachInSet<vertexT>(facet->vertices, [&](vertexT* v) {
        cycle.push_back(static_cast<int>((v->point - base) / 3));
      });
      if (cycle.size() != 3) {
        return Expected<QhullFaces>::failure("convex hull: Qhull returned a facet with " +
                                             std::to_string(cycle.size()) +
                                             " vertices and no ridges to order them");
      }
    } else if (!chainRidges(facet, base, cycle)) {
      return Expected<QhullFaces>::failure("convex hull: a merged Qhull facet (f" +
                                           std::to_string(facet->id) +
                                           ") has a boundary that is not a simple cycle");
    }
    Vec3 qhullNormal(facet->normal[0], facet->normal[1], facet->normal[2]);
    if (glm::dot(newellNormal(cycle, base), qhullNormal) < 0.0) {
      std::reverse(cycle.begin(), cycle.end());
    }
    out.faces.push_back(std::move(cycle));
    out.normals.push_back(qhullNormal);
  }
  return out;
}

}  // namespace tumble::detail
