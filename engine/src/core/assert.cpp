// The assert handler of tumble/assert.h.
#include "tumble/assert.h"

#include <cstdio>
#include <cstdlib>

namespace tumble {
namespace {

void defaultHandler(const char* condition, const char* message, const char* file, int line) {
  std::fprintf(stderr, "tumble: %s (%s) at %s:%d\n", message, condition, file, line);
#ifndef NDEBUG
  std::abort();
#endif
}

AssertHandler current = defaultHandler;

}  // namespace

AssertHandler setAssertHandler(AssertHandler handler) {
  AssertHandler previous = current;
  current = handler ? handler : defaultHandler;
  return previous;
}

void reportAssert(const char* condition, const char* message, const char* file, int line) {
  current(condition, message, file, line);
}

}  // namespace tumble
