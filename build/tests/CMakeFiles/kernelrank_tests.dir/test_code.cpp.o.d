tests/CMakeFiles/kernelrank_tests.dir/test_code.cpp.o: \
 /work/main/tests/test_code.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
