# Fails when a Catch test case's name holds a ';'. catch_discover_tests hands the names to CTest as
# a CMake list, which splits them there: the pieces match no test case, so CTest "runs" them, runs
# nothing and passes (seven test cases went unrun that way until 2026-11-25).
# Run with cmake -P -DSOURCE_DIR=dir (every .cpp under it is read).
file(GLOB_RECURSE sources ${SOURCE_DIR}/*.cpp)
list(LENGTH sources count)
if(count EQUAL 0)
  message(FATAL_ERROR "no sources found under ${SOURCE_DIR}")
endif()
set(problems "")
foreach(f IN LISTS sources)
  file(READ ${f} text)
  # A semicolon inside a string that follows TEST_CASE( or SCENARIO( reads as a list separator
  # once in a CMake variable; match on the raw text first.
  string(REGEX MATCHALL "(TEST_CASE|SCENARIO)\\(\"[^\"]*\"" cases "${text}")
  foreach(c IN LISTS cases)
    # `cases` is itself a list: a name with ';' arrives here in pieces, the first without its
    # closing quote.
    if(NOT c MATCHES "\"$")
      file(RELATIVE_PATH rel ${SOURCE_DIR} ${f})
      list(APPEND problems "${rel}: ${c}...")
    endif()
  endforeach()
endforeach()
if(problems)
  string(REPLACE ";" "\n  " lines "${problems}")
  message(FATAL_ERROR "Catch test names with ';' (CTest would split them and run nothing):\n  ${lines}")
endif()
message(STATUS "catch names: ${count} files, no ';' in a test name")
