# Empty dependencies file for kernelrank_core.
# This may be replaced when dependencies are built.
