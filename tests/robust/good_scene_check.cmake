# Runs `tumble-cli ARGS...` (ARGS: arguments joined with |) and checks that it exits with 0 and that
# stdout contains every EXPECT (joined with |) word for word. Used for scene files that must run
# (tests/robust/CMakeLists.txt).
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" EXPECT "${EXPECT}")
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-cli ${ARGS}: exit status ${rc}, expected 0\n${err}")
endif()
foreach(want IN LISTS EXPECT)
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "tumble-cli ${ARGS}: stdout lacks\n  ${want}\nit reads\n  ${out}")
  endif()
endforeach()
