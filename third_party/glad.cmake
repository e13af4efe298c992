# glad 2 (python3-glad): the OpenGL 3.3 core loader, generated at build time into the build tree and
# never committed. `--reproducible` keeps glad offline (it uses its bundled Khronos XML).
# Defines the static library `tumble_glad` (alias tumble::glad) with its headers as SYSTEM.
if(TARGET tumble_glad)
  return()
endif()

find_program(TUMBLE_GLAD_EXECUTABLE glad PATHS /usr/bin NO_DEFAULT_PATH)
find_program(TUMBLE_GLAD_EXECUTABLE glad)
if(NOT TUMBLE_GLAD_EXECUTABLE)
  message(FATAL_ERROR "glad not found: install python3-glad (third_party/install-deps.sh)")
endif()

set(TUMBLE_GLAD_DIR ${CMAKE_BINARY_DIR}/third_party/glad)
add_custom_command(
  OUTPUT ${TUMBLE_GLAD_DIR}/src/gl.c ${TUMBLE_GLAD_DIR}/include/glad/gl.h
  COMMAND ${TUMBLE_GLAD_EXECUTABLE} --quiet --reproducible --api gl:core=3.3 --extensions=
          --out-path ${TUMBLE_GLAD_DIR} c
  COMMENT "Generating the OpenGL 3.3 core loader with glad"
  VERBATIM)

add_library(tumble_glad STATIC ${TUMBLE_GLAD_DIR}/src/gl.c ${TUMBLE_GLAD_DIR}/include/glad/gl.h)
add_library(tumble::glad ALIAS tumble_glad)
target_include_directories(tumble_glad SYSTEM PUBLIC ${TUMBLE_GLAD_DIR}/include)
set_target_properties(tumble_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)
# glad's generated C is third-party code: no project warnings, but sanitizers must match the demo.
if(TUMBLE_SANITIZE)
  target_compile_options(tumble_glad PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer)
endif()
