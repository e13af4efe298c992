# The demo's timeline and snapshots (README, "The demo": Timeline; issue 17). In the pile scene:
# 100 steps, pause, thirty presses of ',' (one recorded step back each): the world shows step 70
# with the state hash `tumble-cli sim pile --steps 70` reports. Then a snapshot saved by the CLI
# after 50 steps, loaded with --load-snapshot and run 10 frames (one step each): step 60 with the
# CLI's 60-step hash, so the demo continues a snapshot bit for bit.
# Run with cmake -P -DDEMO=... -DCLI=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(cli_hash steps out)
  execute_process(COMMAND ${CLI} sim pile --steps ${steps} --json ${ARGN} OUTPUT_VARIABLE o
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tumble-cli sim pile --steps ${steps} ${ARGN}: exit ${rc}")
  endif()
  string(JSON h GET "${o}" state_hash)
  set(${out} ${h} PARENT_SCOPE)
endfunction()
function(demo_state script out)
  execute_process(COMMAND ${DEMO} --headless --scene pile ${ARGN} --dump-state ${WORK_DIR}/state.json
                          --script ${script}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tumble-demo ${ARGN}: exit ${rc}\n${o}${e}")
  endif()
  file(READ ${WORK_DIR}/state.json state)
  string(JSON s GET "${state}" scene_state)
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

# Thirty steps back.
set(script "100 key p\n")
foreach(frame RANGE 101 130)
  string(APPEND script "${frame} key ,\n")
endforeach()
string(APPEND script "131 quit\n")
file(WRITE ${WORK_DIR}/back.script "${script}")
demo_state(${WORK_DIR}/back.script back --frames 200)
string(JSON step GET "${back}" step)
string(JSON hash GET "${back}" state_hash)
cli_hash(70 want70)
message(STATUS "after 100 steps and 30 back: step ${step}, hash ${hash} (tumble-cli, 70 steps: ${want70})")
if(NOT step EQUAL 70 OR NOT hash STREQUAL want70)
  message(FATAL_ERROR "the timeline did not go back to step 70 bit for bit: ${back}")
endif()

# A CLI snapshot loaded by the demo and stepped on.
cli_hash(50 want50 --save ${WORK_DIR}/pile50.tumblesnap)
cli_hash(60 want60)
file(WRITE ${WORK_DIR}/run.script "9 quit\n")  # frames 0 to 9 each step once
demo_state(${WORK_DIR}/run.script loaded --frames 100 --load-snapshot ${WORK_DIR}/pile50.tumblesnap)
string(JSON step GET "${loaded}" step)
string(JSON hash GET "${loaded}" state_hash)
message(STATUS "snapshot of step 50 loaded, 10 frames: step ${step}, hash ${hash} (tumble-cli, 60 steps: ${want60})")
if(NOT step EQUAL 60 OR NOT hash STREQUAL want60)
  message(FATAL_ERROR "the loaded snapshot did not continue bit for bit: ${loaded}")
endif()
