tests/CMakeFiles/kernelrank_tests.dir/test_evaluate.cpp.o: \
 /work/main/tests/test_evaluate.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
