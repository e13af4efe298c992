# The short long-run: `tumble-cli sim pile --steps STEPS --churn 1 --json` must end with exit
# status 0, no non-finite state, bodies added and removed, and the memory figures reported.
execute_process(COMMAND ${CLI} sim pile --steps ${STEPS} --churn 1 --json
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sim --churn: exit status ${rc}\n${err}\n${out}")
endif()
string(JSON nan GET "${out}" nan)
string(JSON nonfinite LENGTH "${out}" nonfinite)
string(JSON steps GET "${out}" steps)
string(JSON added GET "${out}" churn added)
string(JSON removed GET "${out}" churn removed)
string(JSON early GET "${out}" churn rss_kb early)
string(JSON end GET "${out}" churn rss_kb end)
string(JSON peak GET "${out}" churn rss_kb peak)
string(JSON first GET "${out}" churn step_ms first_10pct_median)
string(JSON last GET "${out}" churn step_ms last_10pct_median)
message(STATUS "steps ${steps}, added ${added}, removed ${removed}, RSS KiB early ${early} end "
               "${end} peak ${peak}, step ms first tenth ${first} last tenth ${last}")
if(NOT nan STREQUAL "OFF" OR NOT nonfinite EQUAL 0 OR NOT steps EQUAL STEPS)
  message(FATAL_ERROR "sim --churn: non-finite state or a short run:\n${out}")
endif()
if(added LESS 1 OR removed LESS 1 OR early LESS 1 OR peak LESS end)
  message(FATAL_ERROR "sim --churn: no churn or no memory figures:\n${out}")
endif()
