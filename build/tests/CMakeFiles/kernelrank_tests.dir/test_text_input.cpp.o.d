tests/CMakeFiles/kernelrank_tests.dir/test_text_input.cpp.o: \
 /work/main/tests/test_text_input.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
