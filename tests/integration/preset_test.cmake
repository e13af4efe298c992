# Settings presets through tumble-demo's --script and --dump-state, headless:
#  1. round trip: set a value, save a preset, change the value, load the preset: the saved value
#     is back, and the file was written whole (no temporary file left beside it);
#  2. broken presets (bad JSON, an out-of-range value, an unknown key, a wrong type): each load
#     fails with an error naming the file (and the key), and no setting changes.
# Run with cmake -P -DDEMO=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(run_demo name script_text)
  file(WRITE ${WORK_DIR}/${name}.script "${script_text}")
  execute_process(COMMAND ${DEMO} --headless --scene tower --frames 8
                          --script ${WORK_DIR}/${name}.script --dump-state ${WORK_DIR}/${name}.state.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: tumble-demo failed (exit ${rc}):\n${out}${err}")
  endif()
  file(READ ${WORK_DIR}/${name}.state.json state)
  set(state "${state}" PARENT_SCOPE)
endfunction()

# CMake prints JSON numbers with 17 significant digits (0.0125 reads 0.012500000000000001):
# a decimal `expected` matches when the digits agree up to a last-place difference.
function(expect_number what actual expected)
  string(REPLACE "." "\\." pattern "${expected}")
  if(NOT "${actual}" MATCHES "^${pattern}(0*[0-9]|9*[0-9])?$")
    message(FATAL_ERROR "${what}: got '${actual}', expected '${expected}'")
  endif()
  message(STATUS "ok: ${what} = ${actual}")
endfunction()

function(expect_equal what actual expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(FATAL_ERROR "${what}: got '${actual}', expected '${expected}'")
  endif()
  message(STATUS "ok: ${what} = ${actual}")
endfunction()

# 1. Round trip.
set(preset ${WORK_DIR}/round.json)
run_demo(round_trip "# save, change, load
1 set solver.velocity_iterations 17
1 set contact.slop 0.0125
1 set crosscheck sample
1 set gravity 0,-3.5,1
2 preset-save ${preset}
3 set solver.velocity_iterations 3
3 set contact.slop 0.001
3 set crosscheck off
3 set gravity 0,-9.81,0
4 preset-load ${preset}
")
string(JSON v GET "${state}" settings solver.velocity_iterations)
expect_equal("round trip solver.velocity_iterations" "${v}" 17)
string(JSON v GET "${state}" settings contact.slop)
expect_number("round trip contact.slop" "${v}" 0.0125)
string(JSON v GET "${state}" settings crosscheck)
expect_equal("round trip crosscheck" "${v}" sample)
string(JSON v GET "${state}" settings gravity 1)
expect_number("round trip gravity.y" "${v}" -3.5)
string(JSON v GET "${state}" preset failed)
expect_equal("round trip preset failed" "${v}" OFF)
file(GLOB leftovers ${WORK_DIR}/.round.json.tmp-* ${preset}.tmp)  # writeFileAtomic's temporaries
if(NOT EXISTS ${preset} OR leftovers)
  message(FATAL_ERROR "the preset ${preset} is missing, or a temporary file was left behind: "
                      "${leftovers}")
endif()

# 2. Broken presets: each must fail, name what is wrong and change nothing.
file(WRITE ${WORK_DIR}/bad_json.json "{\"settings\": {\"contact.slop\": 0.01,")
file(WRITE ${WORK_DIR}/bad_range.json
     "{\"settings\": {\"solver.velocity_iterations\": 4, \"contact.slop\": 0.5}}")
file(WRITE ${WORK_DIR}/bad_key.json "{\"settings\": {\"solver.velocity_iterations\": 4, \"contact.slp\": 0.01}}")
file(WRITE ${WORK_DIR}/bad_type.json "{\"settings\": {\"solver.velocity_iterations\": \"many\"}}")
foreach(case IN ITEMS bad_json:not.valid.JSON bad_range:contact.slop bad_key:contact.slp
                      bad_type:solver.velocity_iterations)
  string(REPLACE ":" ";" parts ${case})
  list(GET parts 0 name)
  list(GET parts 1 named)
  run_demo(${name} "1 set solver.velocity_iterations 13
2 preset-load ${WORK_DIR}/${name}.json
")
  string(JSON v GET "${state}" preset failed)
  expect_equal("${name}: preset failed" "${v}" ON)
  string(JSON message GET "${state}" preset message)
  string(REPLACE "." " " named_words ${named})
  if(NOT message MATCHES "settings unchanged" OR NOT message MATCHES "${name}.json"
     OR NOT (message MATCHES "${named}" OR message MATCHES "${named_words}"))
    message(FATAL_ERROR "${name}: the error does not name the file and '${named}': ${message}")
  endif()
  message(STATUS "ok: ${name}: ${message}")
  string(JSON v GET "${state}" settings solver.velocity_iterations)
  expect_equal("${name}: solver.velocity_iterations unchanged" "${v}" 13)
  string(JSON v GET "${state}" settings contact.slop)
  expect_number("${name}: contact.slop unchanged" "${v}" 0.005)
endforeach()
