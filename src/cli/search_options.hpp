// The search budget options shared by `search` and `min-rank` (--timeout, --memory,
// --rlimit, --seed, --restarts, --iterations), checked with the same messages.
#pragma once

#include "kernelrank/search/rank_search.hpp"

#include <cstddef>
#include <cstdint>

namespace kernelrank::cli {

// Throws UsageError for a negative timeout, a memory cap below 256 MiB (0: none) or negative
// restarts/iterations.
SearchOptions search_options_from(int r, SearchClass search_class, unsigned long long rlimit,
                                  double timeout, std::size_t memory_mb, std::uint64_t seed,
                                  int restarts, int iterations);

}  // namespace kernelrank::cli
