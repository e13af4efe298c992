#include "collision/epa_polytope.h"

#include <algorithm>
#include <cmath>

namespace tumble::detail {

void EpaPolytope::reset(int maxVertices) {
  size_t v = static_cast<size_t>(maxVertices);
  if (verts_.size() < v) verts_.resize(v);
  if (faces_.size() < 2 * v) faces_.resize(2 * v);
  capacity_ = maxVertices;
  vertexCount_ = 0;
  faceCount_ = 0;
  free_.clear();
}

bool EpaPolytope::makeFace(int slot, int a, int b, int c) {
  const Vec3& pa = verts_[static_cast<size_t>(a)].w;
  Vec3 e1 = verts_[static_cast<size_t>(b)].w - pa;
  Vec3 e2 = verts_[static_cast<size_t>(c)].w - pa;
  Vec3 n = glm::cross(e1, e2);
  Real nn = glm::dot(n, n);
  // Degenerate: no usable normal (sine of the corner angle below 1e-15, or an absolute zero).
  if (!(nn > 1e-200) || nn <= 1e-30 * glm::dot(e1, e1) * glm::dot(e2, e2)) return false;
  setFace(slot, a, b, c, n, nn);
  return true;
}

// A face whose normal n = (b - a) x (c - a), |n|^2 = nn, was computed and checked by the caller.
void EpaPolytope::setFace(int slot, int a, int b, int c, const Vec3& n, Real nn) {
  EpaFace& f = faces_[static_cast<size_t>(slot)];
  f.v[0] = a;
  f.v[1] = b;
  f.v[2] = c;
  f.normal = n / std::sqrt(nn);
  f.distance = glm::dot(f.normal, verts_[static_cast<size_t>(a)].w);
  f.pass = 0;
  f.live = true;
}

int EpaPolytope::allocateFace() {
  if (!free_.empty()) {
    int f = free_.back();
    free_.pop_back();
    return f;
  }
  if (faceCount_ >= static_cast<int>(faces_.size())) return -1;
  return faceCount_++;
}

bool EpaPolytope::initTetrahedron(const MinkowskiVertex (&p)[4]) {
  for (int k = 0; k < 4; ++k) verts_[static_cast<size_t>(k)] = p[k];
  vertexCount_ = 4;
  Real det = glm::dot(p[1].w - p[0].w, glm::cross(p[2].w - p[0].w, p[3].w - p[0].w));
  if (det < 0.0) std::swap(verts_[1], verts_[2]);
  // Outward and counter-clockwise for a positively oriented tetrahedron.
  static constexpr int kFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  for (int f = 0; f < 4; ++f) {
    if (!makeFace(allocateFace(), kFaces[f][0], kFaces[f][1], kFaces[f][2])) return false;
  }
  // Neighbours of the fixed face table above: {face, edge in it} across each edge.
  static constexpr int kAdj[4][3][2] = {{{2, 2}, {3, 0}, {1, 0}},
                                        {{0, 2}, {3, 2}, {2, 0}},
                                        {{1, 2}, {3, 1}, {0, 0}},
                                        {{0, 1}, {2, 1}, {1, 1}}};
  for (int f = 0; f < 4; ++f) {
    EpaFace& face = faces_[static_cast<size_t>(f)];
    for (int e = 0; e < 3; ++e) {
      face.adj[e] = kAdj[f][e][0];
      face.adjEdge[e] = kAdj[f][e][1];
    }
  }
  return true;
}

int EpaPolytope::closestFace() const {
  int best = -1;
  Real bestDistance = 0.0;
  for (int f = 0; f < faceCount_; ++f) {
    const EpaFace& face = faces_[static_cast<size_t>(f)];
    if (!face.live) continue;
    if (best < 0 || face.distance < bestDistance) {
      best = f;
      bestDistance = face.distance;
    }
  }
  return best;
}

bool EpaPolytope::containsVertex(int ia, int ib) const {
  for (int k = 0; k < vertexCount_; ++k) {
    const MinkowskiVertex& v = verts_[static_cast<size_t>(k)];
    if (v.ia == ia && v.ib == ib) return true;
  }
  return false;
}

// Depth-first over the faces that see w, entering face f through its edge e; the faces that do
// not see w contribute their entry edge to the rim, in order around the hole (the walk of
// van den Bergen 2003, sec. 4.3.8, as in Bullet's gjkepa2 expand()).
void EpaPolytope::walk(int f, int e, const Vec3& w, Real eps) {
  EpaFace& face = faces_[static_cast<size_t>(f)];
  if (face.pass == pass_) return;
  if (glm::dot(face.normal, w) - face.distance > eps) {
    face.pass = pass_;
    removed_.push_back(f);
    int e1 = (e + 1) % 3, e2 = (e + 2) % 3;
    walk(face.adj[e1], face.adjEdge[e1], w, eps);
    walk(face.adj[e2], face.adjEdge[e2], w, eps);
  } else {
    rim_.push_back({f, e});
  }
}

bool EpaPolytope::expand(int from, const MinkowskiVertex& m, Real eps) {
  ++pass_;
  rim_.clear();
  removed_.clear();
  EpaFace& start = faces_[static_cast<size_t>(from)];
  start.pass = pass_;
  removed_.push_back(from);
  for (int e = 0; e < 3; ++e) walk(start.adj[e], start.adjEdge[e], m.w, eps);

  // The rim must be one simple loop: consecutive edges share their end points, no vertex twice.
  size_t k = rim_.size();
  if (k < 3) return false;
  auto rimA = [&](size_t i) {
    const EpaFace& g = faces_[static_cast<size_t>(rim_[i].face)];
    return g.v[(rim_[i].edge + 1) % 3];
  };
  auto rimB = [&](size_t i) {
    const EpaFace& g = faces_[static_cast<size_t>(rim_[i].face)];
    return g.v[rim_[i].edge];
  };
  for (size_t i = 0; i < k; ++i) {
    if (rimB(i) != rimA((i + 1) % k)) return false;
    for (size_t j = i + 1; j < k; ++j)
      if (rimA(i) == rimA(j)) return false;
  }
  // Every new face must have a normal (the makeFace test; kept for setFace below).
  for (size_t i = 0; i < k; ++i) {
    const Vec3& pa = verts_[static_cast<size_t>(rimA(i))].w;
    Vec3 e1 = verts_[static_cast<size_t>(rimB(i))].w - pa;
    Vec3 e2 = m.w - pa;
    Vec3 n = glm::cross(e1, e2);
    Real nn = glm::dot(n, n);
    if (!(nn > 1e-200) || nn <= 1e-30 * glm::dot(e1, e1) * glm::dot(e2, e2)) return false;
    rim_[i].normal = n;
    rim_[i].normal2 = nn;
  }

  int vi = vertexCount_++;
  verts_[static_cast<size_t>(vi)] = m;
  for (int f : removed_) {
    faces_[static_cast<size_t>(f)].live = false;
    free_.push_back(f);
  }
  int first = -1, previous = -1;
  for (size_t i = 0; i < k; ++i) {
    int slot = allocateFace();
    if (slot < 0) return false;  // cannot happen: faces are sized 2 x vertices (Euler)
    int a = rimA(i), b = rimB(i);
    setFace(slot, a, b, vi, rim_[i].normal, rim_[i].normal2);
    EpaFace& nf = faces_[static_cast<size_t>(slot)];
    EpaFace& g = faces_[static_cast<size_t>(rim_[i].face)];
    nf.adj[0] = rim_[i].face;
    nf.adjEdge[0] = rim_[i].edge;
    g.adj[rim_[i].edge] = slot;
    g.adjEdge[rim_[i].edge] = 0;
    if (previous >= 0) {
      faces_[static_cast<size_t>(previous)].adj[1] = slot;
      faces_[static_cast<size_t>(previous)].adjEdge[1] = 2;
      nf.adj[2] = previous;
      nf.adjEdge[2] = 1;
    } else {
      first = slot;
    }
    previous = slot;
  }
  faces_[static_cast<size_t>(previous)].adj[1] = first;
  faces_[static_cast<size_t>(previous)].adjEdge[1] = 2;
  faces_[static_cast<size_t>(first)].adj[2] = previous;
  faces_[static_cast<size_t>(first)].adjEdge[2] = 1;
  return true;
}

Real EpaPolytope::leastBarycentric(int f) const {
  const EpaFace& face = faces_[static_cast<size_t>(f)];
  const Vec3& a = verts_[static_cast<size_t>(face.v[0])].w;
  const Vec3& b = verts_[static_cast<size_t>(face.v[1])].w;
  const Vec3& c = verts_[static_cast<size_t>(face.v[2])].w;
  Vec3 p = face.normal * face.distance;
  Real l0 = glm::dot(face.normal, glm::cross(b - p, c - p));
  Real l1 = glm::dot(face.normal, glm::cross(c - p, a - p));
  Real l2 = glm::dot(face.normal, glm::cross(a - p, b - p));
  Real sum = l0 + l1 + l2;
  if (!(sum > 0.0)) return -1.0;
  return std::fmin(l0, std::fmin(l1, l2)) / sum;
}

int EpaPolytope::refineClosest(int best, Real eps) const {
  Real bestScore = leastBarycentric(best);
  if (bestScore >= 0.0) return best;
  Real limit = faces_[static_cast<size_t>(best)].distance + eps;
  int pick = best;
  for (int f = 0; f < faceCount_; ++f) {
    const EpaFace& face = faces_[static_cast<size_t>(f)];
    if (!face.live || f == best || face.distance > limit) continue;
    Real score = leastBarycentric(f);
    if (score > bestScore) {
      bestScore = score;
      pick = f;
    }
  }
  return pick;
}

void EpaPolytope::witnesses(int f, Vec3& pa, Vec3& pb) const {
  const EpaFace& face = faces_[static_cast<size_t>(f)];
  const MinkowskiVertex& a = verts_[static_cast<size_t>(face.v[0])];
  const MinkowskiVertex& b = verts_[static_cast<size_t>(face.v[1])];
  const MinkowskiVertex& c = verts_[static_cast<size_t>(face.v[2])];
  // Barycentric coordinates of the origin's projection on the face (signed areas).
  Vec3 p = face.normal * face.distance;
  Real l0 = std::max(0.0, glm::dot(face.normal, glm::cross(b.w - p, c.w - p)));
  Real l1 = std::max(0.0, glm::dot(face.normal, glm::cross(c.w - p, a.w - p)));
  Real l2 = std::max(0.0, glm::dot(face.normal, glm::cross(a.w - p, b.w - p)));
  Real sum = l0 + l1 + l2;
  if (!(sum > 0.0)) {
    l0 = l1 = l2 = 1.0;
    sum = 3.0;
  }
  l0 /= sum;
  l1 /= sum;
  l2 /= sum;
  pa = l0 * a.pa + l1 * b.pa + l2 * c.pa;
  pb = l0 * a.pb + l1 * b.pb + l2 * c.pb;
}

}  // namespace tumble::detail
