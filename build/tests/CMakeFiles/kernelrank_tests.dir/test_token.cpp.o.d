tests/CMakeFiles/kernelrank_tests.dir/test_token.cpp.o: \
 /work/main/tests/test_token.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
