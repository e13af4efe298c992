# Renders SCENE headless for FRAMES frames into OUTPUT and compares it with GOLDEN (tolerances in
# image_compare.cpp). The panel's first line (measured FPS and frame times, which differ between
# runs and machines) is left out of the comparison; the rest of the panel is compared. With TUMBLE_UPDATE_GOLDEN=1 in the environment it rewrites GOLDEN instead.
# Run with cmake -P -DDEMO=... -DCOMPARE=... -DGOLDEN=... -DOUTPUT=... -DSCENE=... -DFRAMES=...
file(REMOVE ${OUTPUT})
execute_process(COMMAND ${DEMO} --headless --scene ${SCENE} --frames ${FRAMES} --screenshot ${OUTPUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUTPUT})
  message(FATAL_ERROR "tumble-demo failed (exit ${rc}) or wrote no ${OUTPUT}")
endif()
if("$ENV{TUMBLE_UPDATE_GOLDEN}" STREQUAL "1")
  file(COPY_FILE ${OUTPUT} ${GOLDEN})
  message(STATUS "golden image updated: ${GOLDEN}")
  return()
endif()
get_filename_component(dir ${OUTPUT} DIRECTORY)
get_filename_component(stem ${OUTPUT} NAME_WE)
execute_process(COMMAND ${COMPARE} ${GOLDEN} ${OUTPUT} --ignore 10,30,380,22
                        --diff ${dir}/${stem}-diff.png
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OUTPUT} differs from ${GOLDEN}; differing pixels are marked in "
                      "${dir}/${stem}-diff.png. If the change is intended, rerun with "
                      "TUMBLE_UPDATE_GOLDEN=1 and commit the new golden image.")
endif()
