file(REMOVE_RECURSE
  "CMakeFiles/kernelrank_tests.dir/test_builtin_models.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_builtin_models.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_code.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_code.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_evaluate.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_evaluate.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_instance.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_instance.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_main.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_main.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_model_forms.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_model_forms.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_model_io.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_model_io.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_profiles.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_profiles.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_rational.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_rational.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_softmax_base.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_softmax_base.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_text_input.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_text_input.cpp.o.d"
  "CMakeFiles/kernelrank_tests.dir/test_token.cpp.o"
  "CMakeFiles/kernelrank_tests.dir/test_token.cpp.o.d"
  "kernelrank_tests"
  "kernelrank_tests.pdb"
  "kernelrank_tests_tests-b858cb2.cmake"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/kernelrank_tests.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
