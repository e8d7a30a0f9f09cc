CMakeFiles/kernelrank_core.dir/src/golay.cpp.o: /work/main/src/golay.cpp \
 /usr/include/stdc-predef.h
