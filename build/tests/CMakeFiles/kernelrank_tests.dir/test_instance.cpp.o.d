tests/CMakeFiles/kernelrank_tests.dir/test_instance.cpp.o: \
 /work/main/tests/test_instance.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
