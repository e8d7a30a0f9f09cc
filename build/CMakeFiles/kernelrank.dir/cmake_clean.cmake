file(REMOVE_RECURSE
  "CMakeFiles/kernelrank.dir/src/cli/cmd_bench.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_bench.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_code.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_code.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_demo.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_demo.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_eval.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_eval.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_instances.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_instances.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_softmax_base.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/cmd_softmax_base.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/main.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/main.cpp.o.d"
  "CMakeFiles/kernelrank.dir/src/cli/model_options.cpp.o"
  "CMakeFiles/kernelrank.dir/src/cli/model_options.cpp.o.d"
  "kernelrank"
  "kernelrank.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/kernelrank.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
