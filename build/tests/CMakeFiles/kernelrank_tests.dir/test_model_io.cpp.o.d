tests/CMakeFiles/kernelrank_tests.dir/test_model_io.cpp.o: \
 /work/main/tests/test_model_io.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
