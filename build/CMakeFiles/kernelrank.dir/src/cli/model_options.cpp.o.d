CMakeFiles/kernelrank.dir/src/cli/model_options.cpp.o: \
 /work/main/src/cli/model_options.cpp /usr/include/stdc-predef.h
