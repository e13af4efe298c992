# The demo's rewind buffer under the long run: `tumble-cli sim pile --churn 1 --steps STEPS
# --timeline-mb MB --json` (bodies removed and dropped every second, a setting changed every 10 s:
# each an edit, so a keyframe) holds at most MB megabytes at every step (peak_mb), had to drop old
# steps to stay there (first_step > 1), and still reaches its oldest step with the recorded hash.
execute_process(COMMAND ${CLI} sim pile --steps ${STEPS} --churn 1 --timeline-mb ${MB} --json
                WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sim --churn --timeline-mb: exit status ${rc}\n${err}\n${out}")
endif()
string(JSON peak GET "${out}" timeline peak_mb)
string(JSON first GET "${out}" timeline first_step)
string(JSON last GET "${out}" timeline last_step)
string(JSON keyframes GET "${out}" timeline keyframes)
string(JSON seek GET "${out}" timeline seek_ok)
message(STATUS "${STEPS} steps: peak ${peak} MB of ${MB}; steps ${first} to ${last} held in "
               "${keyframes} keyframes; seek to the oldest: ${seek}")
if(peak GREATER MB OR first LESS_EQUAL 1 OR NOT last EQUAL STEPS OR NOT seek STREQUAL "ON")
  message(FATAL_ERROR "the timeline broke its bound or lost its oldest step:\n${out}")
endif()
