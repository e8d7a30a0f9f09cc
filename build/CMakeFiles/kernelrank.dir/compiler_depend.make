# Empty compiler generated dependencies file for kernelrank.
# This may be replaced when dependencies are built.
