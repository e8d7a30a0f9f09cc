CMakeFiles/kernelrank_core.dir/src/profile_eval.cpp.o: \
 /work/main/src/profile_eval.cpp /usr/include/stdc-predef.h
