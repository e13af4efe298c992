# A cross-check disagreement is outlined and a click on it opens the pair in the GJK viewer:
# tower with crosscheck=all and gjk.max_iterations=1 (GJK stops after one iteration, so the LP
# test disagrees on the bottom box against the ground), a scripted click inside the red box at
# frame 28, then --dump-state must show the gjk scene.
# Run with cmake -P -DDEMO=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(WRITE ${WORK_DIR}/click.script "27 screenshot ${WORK_DIR}/outlined.png\n28 click 900 450\n")
execute_process(COMMAND ${DEMO} --headless --scene tower --frames 31 --set crosscheck=all
                        --set gjk.max_iterations=1 --script ${WORK_DIR}/click.script
                        --dump-state ${WORK_DIR}/state.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo failed (exit ${rc}):\n${out}${err}")
endif()
file(READ ${WORK_DIR}/state.json state)
string(JSON scene GET "${state}" scene)
string(JSON error GET "${state}" scene_error)
if(NOT scene STREQUAL "gjk" OR NOT error STREQUAL "")
  message(FATAL_ERROR "the click did not open the disagreement in the viewer: scene '${scene}', "
                      "error '${error}' (the outlined frame is ${WORK_DIR}/outlined.png)")
endif()
message(STATUS "ok: the click opened the disagreement in the GJK viewer")
