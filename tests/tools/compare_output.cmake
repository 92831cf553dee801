# Fails unless `TOOL operators` prints exactly the contents of DOC (a generated document kept
# in the repository): cmake -DTOOL=... -DDOC=... -P compare_output.cmake
execute_process(COMMAND ${TOOL} operators OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} operators exited ${rc}")
endif()
file(READ ${DOC} doc)
if(NOT out STREQUAL doc)
  message(FATAL_ERROR "${DOC} is not the output of `${TOOL} operators`: regenerate it with\n  ${TOOL} operators > ${DOC}")
endif()
