#pragma once
// Helpers shared by the unit tests.
#include <cfenv>

namespace tumble::test {

/// Turns floating-point traps off for a scope (third-party code such as GLPK or Qhull may compute
/// infinities on purpose).
class FpTrapsOff {
 public:
  FpTrapsOff() : saved_(fegetexcept()) { fedisableexcept(FE_ALL_EXCEPT); }
  ~FpTrapsOff() {
    feclearexcept(FE_ALL_EXCEPT);
    feenableexcept(saved_);
  }
  FpTrapsOff(const FpTrapsOff&) = delete;
  FpTrapsOff& operator=(const FpTrapsOff&) = delete;

 private:
  int saved_;
};

}  // namespace tumble::test
