
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/tests/test_builtin_models.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_builtin_models.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_builtin_models.cpp.o.d"
  "/work/main/tests/test_code.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_code.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_code.cpp.o.d"
  "/work/main/tests/test_evaluate.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_evaluate.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_evaluate.cpp.o.d"
  "/work/main/tests/test_instance.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_instance.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_instance.cpp.o.d"
  "/work/main/tests/test_main.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_main.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_main.cpp.o.d"
  "/work/main/tests/test_model_forms.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_model_forms.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_model_forms.cpp.o.d"
  "/work/main/tests/test_model_io.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_model_io.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_model_io.cpp.o.d"
  "/work/main/tests/test_profiles.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_profiles.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_profiles.cpp.o.d"
  "/work/main/tests/test_rational.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_rational.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_rational.cpp.o.d"
  "/work/main/tests/test_softmax_base.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_softmax_base.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_softmax_base.cpp.o.d"
  "/work/main/tests/test_text_input.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_text_input.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_text_input.cpp.o.d"
  "/work/main/tests/test_token.cpp" "tests/CMakeFiles/kernelrank_tests.dir/test_token.cpp.o" "gcc" "tests/CMakeFiles/kernelrank_tests.dir/test_token.cpp.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build/CMakeFiles/kernelrank_core.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
