CMakeFiles/kernelrank_core.dir/src/tabulated_eval.cpp.o: \
 /work/main/src/tabulated_eval.cpp /usr/include/stdc-predef.h
