# Runs `tumble-cli ARGS...` (ARGS: arguments joined with |) and checks the exit status (EXPECT_RC) and that stderr
# contains EXPECT word for word. Used by the bad_input:* tests (tests/robust/CMakeLists.txt), one
# per row of README's "Bad input" table.
string(REPLACE "|" ";" ARGS "${ARGS}")  # the caller joins the arguments with |
execute_process(COMMAND ${CLI} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "tumble-cli ${ARGS}: exit status ${rc}, expected ${EXPECT_RC}\n${err}")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "tumble-cli ${ARGS}: stderr lacks\n  ${EXPECT}\nit reads\n  ${err}")
endif()
string(REGEX MATCHALL "\n" lines "${err}")
list(LENGTH lines n)
if(n GREATER 3)
  message(FATAL_ERROR "tumble-cli ${ARGS}: expected one clear message, got ${n} lines:\n${err}")
endif()
