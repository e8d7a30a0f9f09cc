#include "search_options.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::cli {

SearchOptions search_options_from(int r, SearchClass search_class, unsigned long long rlimit,
                                  double timeout, std::size_t memory_mb, std::uint64_t seed,
                                  int restarts, int iterations) {
  if (timeout < 0) throw UsageError("--timeout must be >= 0 seconds (0: no limit)");
  if (memory_mb != 0 && memory_mb < 256)
    throw UsageError("--memory must be at least 256 MiB (or 0: no limit)");
  if (restarts < 0 || iterations < 0) throw UsageError("--restarts and --iterations must be >= 0");
  SearchOptions options;
  options.r = r;
  options.search_class = search_class;
  options.rlimit = rlimit;
  options.timeout_seconds = timeout;
  options.memory_mb = memory_mb;
  options.heuristic_options.seed = seed;
  options.heuristic_options.restarts = restarts;
  options.heuristic_options.iterations = iterations;
  return options;
}

}  // namespace kernelrank::cli
