tests/CMakeFiles/kernelrank_tests.dir/test_softmax_base.cpp.o: \
 /work/main/tests/test_softmax_base.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
