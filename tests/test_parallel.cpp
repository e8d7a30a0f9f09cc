// Threads and shards (parallel.hpp).
#include <doctest/doctest.h>

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace kernelrank;

TEST_CASE("parallel_for runs every task exactly once on any number of workers") {
  for (int threads : {1, 2, 5}) {
    std::vector<std::atomic<int>> seen(1000);
    std::atomic<int> bad_worker{0};
    parallel_for(seen.size(), threads, [&](std::size_t task, int worker) {
      seen[task].fetch_add(1);
      if (worker < 0 || worker >= threads) bad_worker.fetch_add(1);
    });
    for (const auto& s : seen) CHECK(s.load() == 1);
    CHECK(bad_worker.load() == 0);
  }
}

TEST_CASE("parallel_for rethrows a body's exception") {
  CHECK_THROWS_AS(parallel_for(100, 3,
                               [](std::size_t task, int) {
                                 if (task == 57) throw std::runtime_error("task 57");
                               }),
                  std::runtime_error);
}

TEST_CASE("shards: k/K parses canonically and partitions the tasks") {
  const Shard s = parse_shard("2/3");
  CHECK(s.index == 2);
  CHECK(s.count == 3);
  CHECK(s.owns(1));
  CHECK(s.owns(4));
  CHECK_FALSE(s.owns(0));
  for (const char* bad :
       {"0/3", "4/3", "1/0", "01/3", "1/03", "a/3", "1/", "/3", "2", "1/2/3", "-1/3", "1/1000001"})
    CHECK_THROWS_AS(parse_shard(bad), UsageError);
  CHECK(resolve_threads(3) == 3);
  CHECK(resolve_threads(0) >= 1);
  CHECK_THROWS_AS(resolve_threads(-1), UsageError);
}
