# Per-target settings for project code only: warnings as errors, no FP contraction (determinism),
# optional sanitizers. Third-party headers are included as SYSTEM so they never trip -Werror.
# `tumble_project_target(name TEST_CODE)` marks a unit-test executable: under TUMBLE_SANITIZE its
# own sources compile with ASan only (UBSan doubled their compile time, half of the sanitizer
# build's; the engine, demo and CLI code they run keep both, and the test links both runtimes).
function(tumble_project_target target)
  set(sanitizers address,undefined)
  if("TEST_CODE" IN_LIST ARGN)
    set(sanitizers address)
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror -ffp-contract=off)
  # GCC 12 at -O3 warns falsely on `"text" + std::string` (GCC bug 105651): off for GCC 12.
  target_compile_options(${target} PRIVATE $<$<AND:$<CXX_COMPILER_ID:GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>)
  if(TUMBLE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${sanitizers} -fno-sanitize-recover=undefined
                                             -fno-omit-frame-pointer)
    # GCC 12 under ASan reports std::function inside std::regex (Catch2) as maybe uninitialized:
    # a known false positive of the instrumented code; release builds keep the warning.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(TUMBLE_TSAN)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=thread)
  endif()
endfunction()
