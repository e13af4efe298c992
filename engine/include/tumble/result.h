#pragma once
/// Tumble's one error convention: a function that can fail returns `Expected<T>` (or
/// `Expected<void>`), which holds either the value or a message naming what was wrong (file,
/// line, JSON path, key or value, and what was expected). Query outcomes that are not failures
/// (GJK separated or intersecting, an LP verdict) are status enums in the query's result instead.
///
///   tumble::Expected<void> r = world.step(1.0 / 60.0);
///   if (!r) std::fprintf(stderr, "%s\n", r.error().c_str());
///
/// Reading the value of a failed Expected prints its message and aborts (never undefined
/// behaviour).

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

namespace tumble {

namespace detail {
[[noreturn]] inline void expectedValueOfFailure(const std::string& error) {
  std::fprintf(stderr, "tumble: value of a failed Expected read: %s\n", error.c_str());
  std::abort();
}
}  // namespace detail

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
  static Expected failure(std::string message) {
    Expected e;
    e.error_ = std::move(message);
    return e;
  }
  explicit operator bool() const { return value_.has_value(); }
  bool ok() const { return value_.has_value(); }
  T& value() { return check(), *value_; }
  const T& value() const { return check(), *value_; }
  T* operator->() { return check(), &*value_; }
  const T* operator->() const { return check(), &*value_; }
  T& operator*() { return check(), *value_; }
  const T& operator*() const { return check(), *value_; }
  /// The message; empty when ok().
  const std::string& error() const { return error_; }

 private:
  Expected() = default;
  void check() const {
    if (!value_) detail::expectedValueOfFailure(error_);
  }
  std::optional<T> value_;
  std::string error_;
};

/// Success or an error message, for functions with nothing to return (World::step, setSetting,
/// validate, writeFileAtomic). Default-constructed it is a success.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  static Expected failure(std::string message) {
    Expected e;
    e.failed_ = true;
    e.error_ = std::move(message);
    return e;
  }
  /// Carries another Expected's error (its value, if any, is dropped).
  template <class U>
  static Expected failureOf(const Expected<U>& other) {
    return failure(other.error());
  }
  explicit operator bool() const { return !failed_; }
  bool ok() const { return !failed_; }
  /// The message; empty when ok().
  const std::string& error() const { return error_; }

 private:
  bool failed_ = false;
  std::string error_;
};

/// A success of `Expected<void>`: `return ok();`.
inline Expected<void> ok() {
  return {};
}

}  // namespace tumble
