# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/main/build/tests/kernelrank_tests_include-b858cb2.cmake")
add_test([=[cli_tests]=] "bash" "/work/main/tests/cli/run_cli_tests.sh" "/work/main/build/kernelrank" "/work/main")
set_tests_properties([=[cli_tests]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;25;add_test;/work/main/tests/CMakeLists.txt;0;")
