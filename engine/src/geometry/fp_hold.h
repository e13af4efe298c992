#pragma once
// Internal: holds floating-point traps off while third-party code that raises exceptions on
// purpose runs (Qhull's REALmax sentinels, strtod overflowing on "1e999").

#include <cfenv>

namespace tumble::detail {

/// Saves the floating-point environment, clears the flags and disables traps (feholdexcept);
/// the destructor restores the caller's environment, flags raised meanwhile included.
class FloatingPointHold {
 public:
  FloatingPointHold() { std::feholdexcept(&saved_); }
  ~FloatingPointHold() { std::fesetenv(&saved_); }
  FloatingPointHold(const FloatingPointHold&) = delete;
  FloatingPointHold& operator=(const FloatingPointHold&) = delete;

 private:
  std::fenv_t saved_;
};

}  // namespace tumble::detail
