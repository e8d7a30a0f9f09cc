CMakeFiles/kernelrank_core.dir/src/model_io.cpp.o: \
 /work/main/src/model_io.cpp /usr/include/stdc-predef.h
