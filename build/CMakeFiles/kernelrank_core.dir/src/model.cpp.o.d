CMakeFiles/kernelrank_core.dir/src/model.cpp.o: /work/main/src/model.cpp \
 /usr/include/stdc-predef.h
