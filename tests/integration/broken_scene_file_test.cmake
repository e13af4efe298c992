# A scene file the engine refuses is listed all the same (from assets/scenes) and, chosen, shows
# the loader's error instead of crashing the demo: a copy of assets/ with tower.json, an empty
# file and a truncated one; --list-scenes lists all three (the broken ones with their problem);
# PageUp three times from tower (the browser's dynamics: broken, the class sample character, empty,
# tower, valley) chooses broken.json, and --dump-state shows that scene and its error.
# Run with cmake -P -DDEMO=... -DASSETS=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/assets/scenes)
file(COPY ${ASSETS}/shapes DESTINATION ${WORK_DIR}/assets)
file(COPY ${ASSETS}/scenes/tower.json DESTINATION ${WORK_DIR}/assets/scenes)
file(WRITE ${WORK_DIR}/assets/scenes/broken.json "{\"description\": \"cut short\", \"bodies\": [")
file(WRITE ${WORK_DIR}/assets/scenes/empty.json "")
set(ENV{TUMBLE_ASSETS} ${WORK_DIR}/assets)

execute_process(COMMAND ${DEMO} --list-scenes RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
if(NOT rc EQUAL 0 OR NOT listing MATCHES "broken +dynamics +\\(invalid JSON\\)\n"
   OR NOT listing MATCHES "empty +dynamics +\\(empty file\\)\n"
   OR NOT listing MATCHES "tower +dynamics +20 boxes stacked on the ground.\n")
  message(FATAL_ERROR "--list-scenes (exit ${rc}) does not list the three files:\n${listing}")
endif()

file(WRITE ${WORK_DIR}/choose.script "2 key PageUp\n4 key PageUp\n6 key PageUp\n")
execute_process(COMMAND ${DEMO} --headless --scene tower --frames 8
                        --script ${WORK_DIR}/choose.script --dump-state ${WORK_DIR}/state.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo failed (exit ${rc}):\n${out}${err}")
endif()
file(READ ${WORK_DIR}/state.json state)
string(JSON scene GET "${state}" scene)
string(JSON error GET "${state}" scene_error)
if(NOT scene STREQUAL "broken" OR NOT error MATCHES "broken.json:1: invalid JSON: parse error")
  message(FATAL_ERROR "choosing broken.json: scene '${scene}', error '${error}'")
endif()
message(STATUS "ok: listed, and chosen it shows: ${error}")
