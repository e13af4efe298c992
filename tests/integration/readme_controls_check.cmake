# README.md's controls table must be exactly what `tumble-demo --controls-markdown` prints (the
# table the F1 overlay shows), so the documented keys cannot drift from the demo's.
# Regenerate: build/release/demo/tumble-demo --controls-markdown, and paste it over the table.
# Run with cmake -P -DDEMO=... -DREADME=...
execute_process(COMMAND ${DEMO} --controls-markdown RESULT_VARIABLE rc OUTPUT_VARIABLE table)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tumble-demo --controls-markdown: exit status ${rc}")
endif()
file(READ ${README} readme)
string(FIND "${readme}" "${table}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README}: the controls table differs from `tumble-demo --controls-markdown`:\n${table}")
endif()
