tests/CMakeFiles/kernelrank_tests.dir/test_rational.cpp.o: \
 /work/main/tests/test_rational.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
