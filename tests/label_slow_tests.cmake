# Run by CTest once the doctest cases are discovered (TEST_INCLUDE_FILES): every case of the
# doctest suite "slow" gets the CTest label slow. doctest's own ADD_LABELS cannot label a case
# whose name holds a comma, and it runs the binary once per case; this runs it once.
# Expects TEST_BINARY, the test executable (set by the generated file that includes this one).
execute_process(COMMAND "${TEST_BINARY}" --list-test-cases --test-suite=slow
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot list the slow test cases of ${TEST_BINARY}: ${listing}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
foreach(name IN LISTS lines)
  if(name STREQUAL "" OR name MATCHES "^\\[doctest\\]" OR name MATCHES "^=+$")
    continue()
  endif()
  set_tests_properties("${name}" PROPERTIES LABELS slow)
endforeach()
