file(REMOVE_RECURSE
  "libkernelrank_core.a"
)
