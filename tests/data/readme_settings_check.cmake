# README.md's settings table must be exactly what `tumble-cli settings --markdown` prints, so the
# documented defaults, units and ranges cannot drift from the engine's settingsTable().
# Regenerate: build/release/demo/tumble-cli settings --markdown, and paste it over the table.
execute_process(COMMAND ${CLI} settings --markdown RESULT_VARIABLE rc OUTPUT_VARIABLE table)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-cli settings --markdown: exit status ${rc}")
endif()
file(READ ${README} readme)
string(FIND "${readme}" "${table}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README}: the settings table differs from `tumble-cli settings --markdown`:\n${table}")
endif()
