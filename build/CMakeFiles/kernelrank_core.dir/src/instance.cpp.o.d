CMakeFiles/kernelrank_core.dir/src/instance.cpp.o: \
 /work/main/src/instance.cpp /usr/include/stdc-predef.h
