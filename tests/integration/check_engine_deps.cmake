# Fails when the engine uses SDL, OpenGL, EGL/GLX, glad or Dear ImGui. Run with cmake -P; each part
# runs only when its input is given:
#   -DSOURCE_DIR=dir   every C/C++ file under dir is grepped for those headers
#   -DLIBRARY=lib.a    with -DNM=nm: the archive's symbols (defined or undefined) are inspected
#   -DLINK_LIBS=a|b    the target's link libraries ('|'-separated) are inspected
set(problems "")

if(DEFINED SOURCE_DIR AND NOT SOURCE_DIR STREQUAL "")
  file(GLOB_RECURSE files ${SOURCE_DIR}/*.h ${SOURCE_DIR}/*.hpp ${SOURCE_DIR}/*.cpp
       ${SOURCE_DIR}/*.cc ${SOURCE_DIR}/*.c ${SOURCE_DIR}/*.inl)
  list(LENGTH files count)
  if(count EQUAL 0)
    list(APPEND problems "no sources found under ${SOURCE_DIR}")
  endif()
  foreach(f IN LISTS files)
    file(STRINGS ${f} includes REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS includes)
      if(line MATCHES "[<\"/](SDL[A-Za-z0-9_]*|GL|GLES[0-9]*|EGL|GLFW|KHR|glad|imgui|backends/imgui)[/.]"
         OR line MATCHES "[<\"/](imgui[a-z_]*|gl|glext|glcorearb)\\.h")
        file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
        string(STRIP "${line}" line)
        list(APPEND problems "${rel}: ${line}")
      endif()
    endforeach()
  endforeach()
  message(STATUS "engine check: ${count} source files under ${SOURCE_DIR} grepped")
endif()

if(DEFINED LIBRARY AND NOT LIBRARY STREQUAL "")
  if(NOT EXISTS ${LIBRARY})
    list(APPEND problems "library not found: ${LIBRARY}")
  else()
    execute_process(COMMAND ${NM} --format=posix ${LIBRARY} OUTPUT_VARIABLE symbols
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(NOT rc EQUAL 0)
      list(APPEND problems "${NM} failed on ${LIBRARY}")
    endif()
    # One symbol per line: "name type [value size]". C names of SDL, GL, EGL, GLX and glad, and
    # any (mangled) name in namespace ImGui.
    string(REGEX MATCHALL "(^|\n)(SDL_[A-Za-z0-9_]*|gl[A-Z][A-Za-z0-9_]*|egl[A-Z][A-Za-z0-9_]*|glX[A-Za-z0-9_]*|glad[A-Za-z0-9_]*|_Z[A-Za-z0-9_]*ImGui[A-Za-z0-9_]*) [A-Za-z]"
           hits "${symbols}")
    list(REMOVE_DUPLICATES hits)
    foreach(hit IN LISTS hits)
      string(STRIP "${hit}" hit)
      list(APPEND problems "symbol in ${LIBRARY}: ${hit}")
    endforeach()
    string(REGEX MATCHALL "\n" lines "${symbols}")
    list(LENGTH lines nsymbols)
    message(STATUS "engine check: ${nsymbols} symbols of ${LIBRARY} inspected")
  endif()
endif()

if(DEFINED LINK_LIBS AND NOT LINK_LIBS STREQUAL "")
  string(REPLACE "|" ";" libs "${LINK_LIBS}")
  foreach(lib IN LISTS libs)
    string(TOLOWER "${lib}" lower)
    if(lower MATCHES "sdl|opengl|(^|[^a-z])gl(::|$|[^a-z])|libgl|egl|glx|glad|imgui|glfw")
      list(APPEND problems "links ${lib}")
    endif()
  endforeach()
  message(STATUS "engine check: link libraries ${libs}")
endif()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "the engine must not use SDL, OpenGL or Dear ImGui:\n  ${text}")
endif()
message(STATUS "engine check: no SDL, OpenGL, glad or Dear ImGui")
