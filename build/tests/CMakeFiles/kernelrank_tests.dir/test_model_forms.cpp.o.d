tests/CMakeFiles/kernelrank_tests.dir/test_model_forms.cpp.o: \
 /work/main/tests/test_model_forms.cpp /usr/include/stdc-predef.h \
 /usr/include/doctest/doctest.h
