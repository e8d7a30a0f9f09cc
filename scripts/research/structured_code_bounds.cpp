// The exact bound of every structured code the bound search tries at the given widths
// (docs/bounds.md, "Past the ceiling"): certify_pool with the subset search and swaps, exactly
// as `kernelrank bound` calls it, but for each code separately (bound keeps only the best).
//
//   cmake --build build-codes --target kernelrank_bounds kernelrank_eval kernelrank_models
//       kernelrank_core kernelrank_check_lib                   (one command line)
//   g++ -O2 -std=c++20 -Iinclude -o /tmp/structured_code_bounds
//       scripts/research/structured_code_bounds.cpp build-codes/libkernelrank_bounds.a
//       build-codes/libkernelrank_eval.a build-codes/libkernelrank_models.a
//       build-codes/libkernelrank_core.a build-codes/src/check/libkernelrank_check_lib.a
//       -lgmp                                                  (one command line)
//   /tmp/structured_code_bounds 24 25 32 33 34 35 44 48
// A second argument "max=N" caps the codes (default 100000, as in bound_search.cpp).
#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/structured_codes.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace kernelrank;

int main(int argc, char** argv) {
  std::size_t cap = 100'000;
  for (int a = 1; a < argc; ++a) {
    if (std::strncmp(argv[a], "max=", 4) == 0) {
      cap = std::strtoull(argv[a] + 4, nullptr, 10);
      continue;
    }
    const int m = std::atoi(argv[a]);
    for (const StructuredCode& s : structured_bound_codes(m, cap)) {
      const auto start = std::chrono::steady_clock::now();
      const BoundSearchEntry e = certify_pool(s.construction, s.code.words, 3, true, nullptr, true);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("m=%d | %s | pool %zu | rows %zu | T = %s | r >= %s | %.1f s\n", m,
                  s.construction.c_str(), e.pool, e.rows,
                  e.bound.applicable ? to_decimal(e.bound.trace_value(), 3).c_str() : "-",
                  e.bound.applicable ? to_string(e.bound.bound).c_str() : e.bound.reason.c_str(),
                  seconds);
      std::fflush(stdout);
    }
  }
  return 0;
}
