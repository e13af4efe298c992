#pragma once
// Internal: an exact solve of the equality rows of acyclic joint groups (Baraff 1996,
// "Linear-time dynamics using Lagrange multipliers"), used by the joint solver
// (joint_solver.cpp) inside each iteration, between the iterative rows (limits, motors, springs,
// friction, joints in loops) and the contacts (block Gauss-Seidel).
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "dynamics/solver_body.h"

namespace tumble {

class JointTree {
 public:
  /// Constraint force mixing: each row's diagonal of K gains this times the row's own J M^-1 J^T
  /// (joint_tree.cpp), so redundant rows take bounded impulses. The joints' groups use it;
  /// contact groups (contact_tree.cpp) set their own with setMixing.
  static constexpr Real kMixing = 1e-4;
  void setMixing(Real mixing) { mixing_ = mixing; }

  /// A joint's equality rows (at most 6): per row, the Jacobian on body a and on body b, each as
  /// linear (0-2) and angular (3-5) parts.
  struct Rows {
    int m = 0;
    /// The rows of a point first (JointSet's): rows 0-2 have the linear parts -e_k on a and
    /// +e_k on b, later rows none. The products skip those zeros and ones, which gives the same
    /// bits as the dense sums (each sum starts at +0, and adding a zero to it changes nothing).
    bool point = false;
    Real a[6][6] = {};
    Real b[6][6] = {};
  };
  /// A candidate joint: its index (the caller's) and its solver bodies, 0 for an immovable one.
  struct Link {
    int joint = 0;
    int a = 0, b = 0;
  };

  /// Groups `links` by the movable bodies they connect (`movable[solver body]`); a group whose
  /// joints form a loop (two joints between the same pair included) is left out, unless
  /// setLeavePairLoops and setOpenLoops leave out the links that close it instead. Lists the joints
  /// kept in elimination order (`entries()`); deterministic in the order of `links`.
  void build(const std::vector<Link>& links, const std::vector<char>& movable);
  bool empty() const { return entries_.empty(); }
  int size() const { return static_cast<int>(entries_.size()); }
  /// The caller's joint index of entry e (elimination order).
  int joint(int e) const { return entries_[e].joint; }
  /// The rows of entry e, to be filled before factor().
  Rows& rows(int e) { return entries_[e].rows; }
  const Rows& rows(int e) const { return entries_[e].rows; }

  /// Factors K = J M^-1 J^T (plus the mixing) of every group (O(n): one 6x6 matrix per body,
  /// one m x m per joint) for the rows as filled.
  void factor(const std::vector<SolverBody>& sb);
  /// The groups (each a tree of bodies), and the group of entry e. factorGroup(g) factors group
  /// g alone, as factor() would (after its rows changed).
  int groupCount() const { return static_cast<int>(groups_.size()); }
  int groupOf(int e) const { return entryGroup_[e]; }
  void factorGroup(int g, const std::vector<SolverBody>& sb);
  /// The entries of group g: [first, second) in elimination order.
  std::pair<int, int> groupEntries(int g) const {
    return {groups_[g].entryBegin, groups_[g].entryEnd};
  }
  /// The solver bodies of group g (its movable bodies).
  std::span<const int> groupBodies(int g) const {
    return {bodies_.data() + groups_[g].bodyBegin, bodies_.data() + groups_[g].bodyEnd};
  }
  /// solve() for group g's entries alone (the others' values in r are left as they are).
  void solveGroup(int g, std::vector<Real>& r);
  /// The forward half of solveGroup(g, r) alone. With K = L D L^T (L unit lower by blocks, D the
  /// entries' pivot blocks), group g's entries of r become D^-1 L^-1 r and those of yhat (6 per
  /// entry, as r) L^-1 r, the values before each pivot solve: a^T K^-1 b is then the sum over
  /// the entries of (L^-1 a) . (D^-1 L^-1 b). An entry whose right-hand side is zero and whose
  /// bodies no earlier entry's sums reached is skipped, its values left 0 in both (what it would
  /// compute), so a right-hand side on a few entries costs their paths to the group's root;
  /// `reached` gets the entries computed, in elimination order.
  void forwardGroup(int g, std::vector<Real>& r, std::vector<Real>& yhat,
                    std::vector<int>& reached);
  /// Solves K x = r for every group in place: `r` holds 6 values per entry (its m rows first).
  void solve(std::vector<Real>& r);
  /// solve() for every group, with entry e's right-hand side written by rhs(e, &r[6 e]) as the
  /// forward substitution reaches it and its solution handed to done(e, &r[6 e]) as the backward
  /// one finishes it (the substitutions read nothing of the caller's, so done may change what
  /// rhs reads: the bodies' velocities). The same values as solve() to rounding: where the
  /// entries' pairs are few (usesPairs), each entry's coupling to an earlier one at a shared
  /// body is one m x m product H = J G kept by factor() (a chain: one a joint), about half the
  /// operations of the per-body sums solve() takes.
  template <class Rhs, class Done>
  void solveWith(std::vector<Real>& r, Rhs&& rhs, Done&& done) {
    const int ne = size();
    if (!usePairs_) {
      for (int q = 0; q < ne; ++q) rhs(q, &r[6 * static_cast<size_t>(q)]);
      solve(r);
      for (int q = ne - 1; q >= 0; --q)
        done(q, static_cast<const Real*>(&r[6 * static_cast<size_t>(q)]));
      return;
    }
    for (int q = 0; q < ne; ++q) {
      Real* y = &r[6 * static_cast<size_t>(q)];
      rhs(q, y);
      forwardPairs(q, y);
    }
    for (int q = ne - 1; q >= 0; --q) {
      const Real* x = &r[6 * static_cast<size_t>(q)];
      done(q, x);
      backwardPairs(q, r);
    }
  }
  /// Whether solveWith takes the pairs' products: asked for (setPairs, before build; the joints'
  /// groups do, the contact groups, which solve() alone, do not) and the entries' pairs at most
  /// kPairsPerEntry per entry (a body with many joints has pairs in the square of their number).
  void setPairs(bool on) { wantPairs_ = on; }
  /// Whether a link between two movable bodies that an earlier link already joins (a second hinge
  /// on a door's frame, a third ball joint between two bodies) is left out of the groups alone,
  /// its group kept, instead of leaving the whole group out as a loop; the caller solves the
  /// links left out otherwise (they have no entry). Set before build; the joints' groups do.
  void setLeavePairLoops(bool on) { leavePairLoops_ = on; }
  /// Up to `count` links per group that close a loop through other bodies (a ring, a linkage on a
  /// moving base) are left out of the groups alone, the group spanned by the others, in the order
  /// of `links` (the caller solves them otherwise); a group with more is left out whole (Box3D's
  /// joint_grid: 9,801). 0 (the default): any such loop leaves its group out. Set before build.
  void setOpenLoops(int count) { openLoops_ = count; }
  bool usesPairs() const { return usePairs_; }
  static constexpr int kPairsPerEntry = 4;

  /// Calls f(std::integral_constant<int, m>) for m rows (1 to 6), so loops over a joint's rows
  /// have fixed bounds (unrolled; the same operations in the same order as a run-time bound).
  template <class F>
  static void withRows(int m, F&& f) {
    switch (m) {
      case 1:
        f(std::integral_constant<int, 1>{});
        break;
      case 2:
        f(std::integral_constant<int, 2>{});
        break;
      case 3:
        f(std::integral_constant<int, 3>{});
        break;
      case 4:
        f(std::integral_constant<int, 4>{});
        break;
      case 5:
        f(std::integral_constant<int, 5>{});
        break;
      default:
        f(std::integral_constant<int, 6>{});
        break;
    }
  }

 private:
  struct Entry {
    int joint = 0;
    int up = 0, down = 0;  // solver bodies: up stays after this joint is eliminated; down 0: none
    bool upIsA = true;     // up is the joint's body a
    Rows rows;
    Real L[6][6] = {};  // unit lower factor of the pivot block D = L diag(dinv) L^T
    Real dinv[6] = {};
    Real G[6][6] = {};  // W_up J_up^T D^-1, 6 x m
  };
  struct Mat6 {
    Real m[6][6];
  };
  // Per entry, with its row count m as a constant (joint_tree.cpp's withRows) and whether its
  // rows are a point's first (Rows::point).
  template <int m>
  static void solvePivot(const Entry& e, Real* x);
  template <int m, bool point>
  void factorEntry(Entry& e, const std::vector<SolverBody>& sb);
  template <int m, bool point>
  void forward(const Entry& e, Real* y);
  template <int m, bool point>
  void forwardSums(const Entry& e, Real* y);  // forward() before its pivot solve
  template <int m, bool point>
  void backward(const Entry& e, Real* x);
  // solveWith's steps for entry q: the pairs' products subtracted, the pivot solved; the
  // products' transposes pushed to the earlier entries.
  void forwardPairs(int q, Real* y);
  void backwardPairs(int q, std::vector<Real>& r);
  void pairProducts(int q);
  // Entry q's earlier partners: entries c < q whose body `up` is one of q's, and H = J_q G_c
  // (m_q x m_c, J_q's rows on that body).
  struct Pair {
    int c = 0;
    bool onUp = true;  // the shared body is q's up (else its down)
  };
  std::vector<Pair> pairs_;
  std::vector<int> pairStart_;        // per entry, and one past the last
  std::vector<Mat6> H_, Ht_;          // per pair: H and its transpose (the forward's rows)
  std::vector<Real> yhat_;            // per entry, 6: the forward values before the pivot solve
  std::vector<int> upHead_, upNext_;  // build's scratch: entries by their up body
  bool wantPairs_ = false, usePairs_ = false, leavePairLoops_ = false;
  int openLoops_ = 0;
  std::vector<int> closing_, closingCount_;  // build's scratch: links closing loops, per root
  // Whether an earlier link (in build's adjacency) joins bodies a and b.
  bool linked(const std::vector<Link>& links, int a, int b) const;
  // Calls f(integral_constant m, bool_constant point) for entry e.
  template <class F>
  static void withShape(const Entry& e, F&& f);

  Real mixing_ = kMixing;
  // A group's entries and bodies are contiguous in elimination order.
  struct Group {
    int entryBegin = 0, entryEnd = 0, bodyBegin = 0, bodyEnd = 0;
  };
  void factorRange(int bodyBegin, int bodyEnd, int entryBegin, int entryEnd,
                   const std::vector<SolverBody>& sb);
  void solveRange(int bodyBegin, int bodyEnd, int entryBegin, int entryEnd, std::vector<Real>& r);
  std::vector<Group> groups_;
  std::vector<int> entryGroup_;
  std::vector<Entry> entries_;
  std::vector<int> bodies_;    // solver bodies of the groups
  std::vector<Mat6> W_;        // per solver body: inverse mass with the eliminated joints applied
  std::vector<Real> z_;        // per solver body: 6 values of the substitution's running sums
  std::vector<char> reached_;  // per solver body: forwardGroup's sums there are not all zero
  // build's scratch
  std::vector<int> parent_, rank_, firstLink_, nextLink_, order_, seen_;
  std::vector<char> loop_;
};

}  // namespace tumble
