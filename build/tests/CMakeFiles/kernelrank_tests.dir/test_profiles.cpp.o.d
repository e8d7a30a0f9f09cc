tests/CMakeFiles/kernelrank_tests.dir/test_profiles.cpp.o: \
 /work/main/tests/test_profiles.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
