CMakeFiles/kernelrank_core.dir/src/softmax_base.cpp.o: \
 /work/main/src/softmax_base.cpp /usr/include/stdc-predef.h
