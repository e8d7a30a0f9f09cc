
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/src/atomic_write.cpp" "CMakeFiles/kernelrank_core.dir/src/atomic_write.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/atomic_write.cpp.o.d"
  "/work/main/src/builtin_models.cpp" "CMakeFiles/kernelrank_core.dir/src/builtin_models.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/builtin_models.cpp.o.d"
  "/work/main/src/code.cpp" "CMakeFiles/kernelrank_core.dir/src/code.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/code.cpp.o.d"
  "/work/main/src/evaluate.cpp" "CMakeFiles/kernelrank_core.dir/src/evaluate.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/evaluate.cpp.o.d"
  "/work/main/src/family_io.cpp" "CMakeFiles/kernelrank_core.dir/src/family_io.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/family_io.cpp.o.d"
  "/work/main/src/golay.cpp" "CMakeFiles/kernelrank_core.dir/src/golay.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/golay.cpp.o.d"
  "/work/main/src/instance.cpp" "CMakeFiles/kernelrank_core.dir/src/instance.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/instance.cpp.o.d"
  "/work/main/src/model.cpp" "CMakeFiles/kernelrank_core.dir/src/model.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/model.cpp.o.d"
  "/work/main/src/model_forms.cpp" "CMakeFiles/kernelrank_core.dir/src/model_forms.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/model_forms.cpp.o.d"
  "/work/main/src/model_io.cpp" "CMakeFiles/kernelrank_core.dir/src/model_io.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/model_io.cpp.o.d"
  "/work/main/src/profile_eval.cpp" "CMakeFiles/kernelrank_core.dir/src/profile_eval.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/profile_eval.cpp.o.d"
  "/work/main/src/progress.cpp" "CMakeFiles/kernelrank_core.dir/src/progress.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/progress.cpp.o.d"
  "/work/main/src/rational.cpp" "CMakeFiles/kernelrank_core.dir/src/rational.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/rational.cpp.o.d"
  "/work/main/src/softmax_base.cpp" "CMakeFiles/kernelrank_core.dir/src/softmax_base.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/softmax_base.cpp.o.d"
  "/work/main/src/tabulated_eval.cpp" "CMakeFiles/kernelrank_core.dir/src/tabulated_eval.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/tabulated_eval.cpp.o.d"
  "/work/main/src/text_input.cpp" "CMakeFiles/kernelrank_core.dir/src/text_input.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/text_input.cpp.o.d"
  "/work/main/src/token.cpp" "CMakeFiles/kernelrank_core.dir/src/token.cpp.o" "gcc" "CMakeFiles/kernelrank_core.dir/src/token.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
