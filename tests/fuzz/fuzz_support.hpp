// Shared helpers of the libFuzzer targets in tests/fuzz (see docs/robustness.md).
//
// A target calls one parser on the fuzzer's bytes. Rejection with the parser's documented
// error type is a normal outcome; any other exception escapes, and libFuzzer reports it as
// a crash (uncaught exception -> abort), as it does for sanitizer findings. Properties that
// must hold for every accepted input (canonical forms, round trips) are checked with
// FUZZ_REQUIRE, which aborts with a message naming the property.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_REQUIRE(condition)                                                                   \
  do {                                                                                            \
    if (!(condition)) {                                                                           \
      std::fprintf(stderr, "fuzz property failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__); \
      std::abort();                                                                               \
    }                                                                                             \
  } while (false)

inline std::string fuzz_bytes(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}
