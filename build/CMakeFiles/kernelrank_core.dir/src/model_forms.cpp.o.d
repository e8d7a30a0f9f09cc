CMakeFiles/kernelrank_core.dir/src/model_forms.cpp.o: \
 /work/main/src/model_forms.cpp /usr/include/stdc-predef.h
