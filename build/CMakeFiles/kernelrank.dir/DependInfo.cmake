
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/cli/cmd_bench.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_bench.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_bench.cpp.o.d"
  "/work/main/src/cli/cmd_code.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_code.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_code.cpp.o.d"
  "/work/main/src/cli/cmd_demo.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_demo.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_demo.cpp.o.d"
  "/work/main/src/cli/cmd_eval.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_eval.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_eval.cpp.o.d"
  "/work/main/src/cli/cmd_instances.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_instances.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_instances.cpp.o.d"
  "/work/main/src/cli/cmd_softmax_base.cpp" "CMakeFiles/kernelrank.dir/src/cli/cmd_softmax_base.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/cmd_softmax_base.cpp.o.d"
  "/work/main/src/cli/main.cpp" "CMakeFiles/kernelrank.dir/src/cli/main.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/main.cpp.o.d"
  "/work/main/src/cli/model_options.cpp" "CMakeFiles/kernelrank.dir/src/cli/model_options.cpp.o" "gcc" "CMakeFiles/kernelrank.dir/src/cli/model_options.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/kernelrank_core.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
