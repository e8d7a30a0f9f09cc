tests/CMakeFiles/kernelrank_tests.dir/test_builtin_models.cpp.o: \
 /work/main/tests/test_builtin_models.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
