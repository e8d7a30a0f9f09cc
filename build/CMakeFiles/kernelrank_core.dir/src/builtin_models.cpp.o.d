CMakeFiles/kernelrank_core.dir/src/builtin_models.cpp.o: \
 /work/main/src/builtin_models.cpp /usr/include/stdc-predef.h
