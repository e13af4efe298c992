# Installs the build tree into a temporary prefix, then configures, builds and runs the consumer
# project (find_package(tumble) + tumble::engine) against that prefix only. Run with cmake -P.
foreach(var BUILD_DIR CONSUMER_SOURCE WORK_DIR GENERATOR CXX_COMPILER C_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer_build.cmake needs -D${var}=...")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
if(NOT EXISTS ${prefix}/include/tumble/settings.h)
  message(FATAL_ERROR "cmake --install did not install the headers into ${prefix}/include/tumble")
endif()

set(flags "")
if(SANITIZE)
  # libtumble.a was built with the sanitizers: the consumer must link their runtimes too.
  set(flags -DCMAKE_CXX_FLAGS=-fsanitize=address,undefined
            -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()
run("configure the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE} -B ${WORK_DIR}/build
    -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF ${flags})
# The package must come from the prefix, not from the build or source tree.
file(STRINGS ${WORK_DIR}/build/CMakeCache.txt found REGEX "^tumble_DIR:")
if(NOT found MATCHES "^tumble_DIR:PATH=${prefix}/")
  message(FATAL_ERROR "find_package(tumble) did not use the installed package: ${found}")
endif()
run("build the consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run("run the consumer" ${WORK_DIR}/build/tumble-consumer)
message(STATUS "${run_output}")
# The hello world (README "Using the engine") drops a 1 m box onto a ground whose top is y = 0: it
# must rest with its centre at 0.5 m, less at most the contact slop (0.005 m).
if(NOT run_output MATCHES "box height: (-?[0-9.]+) m")
  message(FATAL_ERROR "the consumer did not print the box's height:\n${run_output}")
endif()
set(height ${CMAKE_MATCH_1})
if(height LESS 0.494 OR height GREATER 0.501)
  message(FATAL_ERROR "the box rests at ${height} m; expected 0.5 m (within the 0.005 m slop)")
endif()
