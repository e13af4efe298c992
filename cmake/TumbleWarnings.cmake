# Per-target settings for project code only: warnings as errors, no FP contraction (determinism),
# optional sanitizers. Third-party headers are included as SYSTEM so they never trip -Werror.
function(tumble_project_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror -ffp-contract=off)
  if(TUMBLE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=undefined
                                             -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
