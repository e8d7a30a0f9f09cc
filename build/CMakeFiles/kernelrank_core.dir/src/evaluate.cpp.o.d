CMakeFiles/kernelrank_core.dir/src/evaluate.cpp.o: \
 /work/main/src/evaluate.cpp /usr/include/stdc-predef.h
