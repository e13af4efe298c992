# Every scene of `tumble-demo --list-scenes` must start and run FRAMES frames headless (the
# benchmark scenes, heap_* and Box3D's large_pyramid and many_pyramids, only 10 frames: thousands
# of bodies are slow under the sanitizers; Box3D's joint_grid, 10,000 spheres and 19,701 joints,
# only 3: 10 frames took 31 s under ASan).
# Run with cmake -P -DDEMO=... -DFRAMES=...
execute_process(COMMAND ${DEMO} --list-scenes RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo --list-scenes failed (${rc})")
endif()
string(REGEX MATCHALL "(^|\n)[a-z0-9_]+" names "${listing}")
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "no scenes listed:\n${listing}")
endif()
foreach(name IN LISTS names)
  string(STRIP "${name}" name)
  set(frames ${FRAMES})
  if(name MATCHES "^(heap_|large_pyramid$|many_pyramids$)")
    set(frames 10)
  elseif(name STREQUAL "joint_grid")
    set(frames 3)
  endif()
  execute_process(COMMAND ${DEMO} --headless --scene ${name} --frames ${frames}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scene ${name} failed (exit ${rc}):\n${out}${err}")
  endif()
  message(STATUS "scene ${name}: ${frames} frames ok")
endforeach()
