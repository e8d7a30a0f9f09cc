CMakeFiles/kernelrank_core.dir/src/code.cpp.o: /work/main/src/code.cpp \
 /usr/include/stdc-predef.h
