# Empty dependencies file for kernelrank_tests.
# This may be replaced when dependencies are built.
