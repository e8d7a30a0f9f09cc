set( kernelrank_tests_TESTS)
