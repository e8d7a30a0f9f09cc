CMakeFiles/kernelrank_core.dir/src/family_io.cpp.o: \
 /work/main/src/family_io.cpp /usr/include/stdc-predef.h
