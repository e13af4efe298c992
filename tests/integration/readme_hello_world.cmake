# README.md's hello world (the ```cpp block after the line <!-- hello-world -->) must be exactly
# tests/consumer/main.cpp, which integration:installed_package_consumer builds against the
# installed package and runs. Run with cmake -DREADME=... -DPROGRAM=... -P.
file(READ ${README} readme)
string(FIND "${readme}" "<!-- hello-world -->\n```cpp\n" start)
if(start LESS 0)
  message(FATAL_ERROR "${README}: no ```cpp block right after the line <!-- hello-world -->")
endif()
string(LENGTH "<!-- hello-world -->\n```cpp\n" skip)
math(EXPR start "${start} + ${skip}")
string(SUBSTRING "${readme}" ${start} -1 rest)
string(FIND "${rest}" "\n```" end)
math(EXPR end "${end} + 1")
string(SUBSTRING "${rest}" 0 ${end} block)
file(READ ${PROGRAM} program)
if(NOT block STREQUAL program)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_hello_world.cpp "${block}")
  message(FATAL_ERROR "README's hello world differs from ${PROGRAM} (README's block written to "
                      "${CMAKE_CURRENT_BINARY_DIR}/readme_hello_world.cpp; diff the two)")
endif()
message(STATUS "README's hello world is ${PROGRAM}")
