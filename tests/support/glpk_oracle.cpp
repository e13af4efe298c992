#include "glpk_oracle.h"

#include <glpk.h>

#include <algorithm>

#include "fp_traps.h"

namespace tumble::test {

// Kreuzer's problem P2 built directly with GLPK's API: rows = the normalised coordinates of
// sum(l s) - sum(m t) <= 0 and the two convexity rows <= 1; columns x >= 0; minimise
// -e^T A x (the objective e^T (b - A x) minus the constant e^T b = 2). Same normalisation as the
// engine documents (bounding-box centre, half-extent), computed here on its own.
GlpkAnswer glpkObjective(const std::vector<Vec3>& a, const std::vector<Vec3>& b, bool exact,
                         GlpkScratch* scratch) {
  Vec3 lo = a[0], hi = a[0];
  for (const auto* set : {&a, &b})
    for (const Vec3& p : *set) {
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  const Vec3 c = 0.5 * (lo + hi);
  const Real h = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}) * 0.5;
  const int m = static_cast<int>(a.size() + b.size());

  FpTrapsOff traps;
  glp_term_out(GLP_OFF);
  glp_prob* lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_rows(lp, 5);
  for (int i = 1; i <= 5; ++i) glp_set_row_bnds(lp, i, GLP_UP, 0.0, i <= 3 ? 0.0 : 1.0);
  glp_add_cols(lp, m);
  GlpkScratch local;
  GlpkScratch& g = scratch ? *scratch : local;
  std::vector<int>&ia = g.ia, &ja = g.ja;
  std::vector<double>& ar = g.ar;
  ia.assign(1, 0);  // GLPK's arrays start at 1
  ja.assign(1, 0);
  ar.assign(1, 0.0);
  for (int j = 1; j <= m; ++j) {
    const bool inA = j <= static_cast<int>(a.size());
    const Vec3 p = inA ? a[static_cast<size_t>(j - 1)] : b[static_cast<size_t>(j - 1) - a.size()];
    const Real sign = inA ? 1.0 : -1.0;
    const Vec3 col = sign * ((p - c) / h);
    glp_set_col_bnds(lp, j, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(lp, j, -(col.x + col.y + col.z + 1.0));
    for (int i = 0; i < 3; ++i) {
      ia.push_back(i + 1);
      ja.push_back(j);
      ar.push_back(col[i]);
    }
    ia.push_back(inA ? 4 : 5);
    ja.push_back(j);
    ar.push_back(1.0);
  }
  glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  GlpkAnswer ans;
  bool ok = glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
  // Near contact GLPK's floating-point simplex can be off by 1e-8; its rational simplex, started
  // from that basis, is exact on the (rounded) data.
  if (ok && exact) ok = glp_exact(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT;
  if (ok) {
    ans.solved = true;
    ans.objective = 2.0 + glp_get_obj_val(lp);
  }
  glp_delete_prob(lp);
  return ans;
}

}  // namespace tumble::test
