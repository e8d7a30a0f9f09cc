# The Python module stands on the library alone: src/python/CMakeLists.txt compiles no source
# of the command-line tool (src/cli/) and no file of src/python includes one of its headers.
# Run as: cmake -DSOURCE_DIR=<checkout> -P check_python_sources.cmake
file(READ "${SOURCE_DIR}/src/python/CMakeLists.txt" build_text)
string(REGEX MATCH "cli/[A-Za-z0-9_]+\\.(cpp|cc|cxx)" compiled "${build_text}")
if(compiled)
  message(FATAL_ERROR "src/python/CMakeLists.txt compiles ${compiled}, a command-line source")
endif()
file(GLOB python_files "${SOURCE_DIR}/src/python/*.cpp" "${SOURCE_DIR}/src/python/*.hpp")
foreach(source IN LISTS python_files)
  file(STRINGS "${source}" included REGEX "^#include \"cli/")
  if(included)
    message(FATAL_ERROR "${source} includes a command-line header: ${included}")
  endif()
endforeach()
message(STATUS "src/python uses no command-line source")
