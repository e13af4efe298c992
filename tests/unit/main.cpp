// Catch2 main for every unit test: floating-point exceptions (invalid, divide by zero, overflow)
// trap while tests run, so a NaN or infinity is caught where it is made (as in Jolt's tests).
#define CATCH_CONFIG_RUNNER
#include <cfenv>

#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  feenableexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW);
  return Catch::Session().run(argc, argv);
}
