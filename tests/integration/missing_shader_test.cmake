# A tumble-demo with no shaders beside it must stop with an error that names the missing file.
# Run with cmake -P -DDEMO=... -DWORK_DIR=...
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY ${DEMO} DESTINATION ${WORK_DIR})
get_filename_component(name ${DEMO} NAME)
execute_process(COMMAND ${WORK_DIR}/${name} --headless --frames 1
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo ran without its shaders:\n${out}${err}")
endif()
if(NOT err MATCHES "shader file not found: [^\n]*/shaders/mesh\\.vert")
  message(FATAL_ERROR "the error does not name the missing shader file:\n${err}")
endif()
message(STATUS "${err}")
