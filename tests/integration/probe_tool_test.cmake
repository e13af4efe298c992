# The probe tool (issue 16, Jolt's mouse probe): in the tower scene, paused (the same poses for
# every query), the mouse over the tower's middle, M three times: ray, shape cast, overlap, each
# run on a later frame with the same mouse ray. --dump-state keeps each mode's last result, which
# must agree with geometry: the ray's hits come sorted by fraction; the sphere swept along the same
# ray from the same origin touches no later than the ray enters the first body; the sphere placed
# at the ray's first hit overlaps that body.
# Run with cmake -P -DDEMO=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/probe.script
     "0 mousemove 840 400\n1 key m\n5 key m\n9 key m\n13 quit\n")
execute_process(COMMAND ${DEMO} --headless --scene tower --paused --frames 30
                        --script ${WORK_DIR}/probe.script --dump-state ${WORK_DIR}/state.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo failed (exit ${rc}):\n${out}${err}")
endif()
file(READ ${WORK_DIR}/state.json state)
string(JSON probe GET "${state}" scene_state probe)
string(JSON hits LENGTH "${probe}" ray)
if(hits LESS 1)
  message(FATAL_ERROR "the ray under the mouse hit nothing: ${probe}")
endif()
# Fractions (decimal strings in [0, 1]) as integers of 1e-12, for math(EXPR) comparisons.
function(fixed12 out value)
  string(REGEX MATCH "^([0-9]+)\\.?([0-9]*)" m "${value}")
  set(int "${CMAKE_MATCH_1}")
  string(SUBSTRING "${CMAKE_MATCH_2}000000000000" 0 12 frac)
  string(REGEX REPLACE "^0+([0-9])" "\\1" frac "${frac}")
  math(EXPR scaled "${int} * 1000000000000 + ${frac}")
  set(${out} ${scaled} PARENT_SCOPE)
endfunction()
set(previous 0)
math(EXPR last "${hits} - 1")
foreach(i RANGE ${last})
  string(JSON f GET "${probe}" ray ${i} fraction)
  fixed12(fi "${f}")
  if(fi LESS previous)
    message(FATAL_ERROR "ray hits out of order at ${i}: ${probe}")
  endif()
  set(previous ${fi})
endforeach()
string(JSON firstBody GET "${probe}" ray 0 body)
string(JSON firstFraction GET "${probe}" ray 0 fraction)
string(JSON castFraction GET "${probe}" cast fraction)
fixed12(rayT "${firstFraction}")
fixed12(castT "${castFraction}")
if(castT GREATER rayT)
  message(FATAL_ERROR "the swept sphere touched at ${castFraction}, after the ray entered body "
                      "${firstBody} at ${firstFraction}: ${probe}")
endif()
string(JSON atBody GET "${probe}" overlap at_body)
string(JSON overlapped GET "${probe}" overlap bodies)
string(JSON count LENGTH "${overlapped}")
set(found FALSE)
if(count GREATER 0)
  math(EXPR lastOverlap "${count} - 1")
  foreach(i RANGE ${lastOverlap})
    string(JSON b GET "${overlapped}" ${i})
    if(b EQUAL firstBody)
      set(found TRUE)
    endif()
  endforeach()
endif()
if(NOT atBody EQUAL firstBody OR NOT found)
  message(FATAL_ERROR "the overlap at the ray's first hit (body ${firstBody}) misses it: ${probe}")
endif()
message(STATUS "ok: ${hits} ray hits in order, cast at ${castFraction} <= ${firstFraction}, "
               "overlap ${overlapped} holds body ${firstBody}")
