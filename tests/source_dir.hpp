// The checkout's path, for tests that read shipped files (instances/, tests/data/, docs/).
// It lives in one small file generated at configure time (tests/source_dir.cpp.in), so no
// other test object depends on where the checkout is, and a compiler cache serves them to
// every clone.
#pragma once

namespace kernelrank_test {
const char* source_dir();
}  // namespace kernelrank_test

#define KERNELRANK_SOURCE_DIR ::kernelrank_test::source_dir()
