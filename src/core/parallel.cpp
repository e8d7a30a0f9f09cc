// Threads and shards; see parallel.hpp.
#include "kernelrank/core/parallel.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace kernelrank {
namespace {

bool canonical_integer(const std::string& text) {
  if (text.empty() || text.size() > 7) return false;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  return text == "0" || text[0] != '0';
}

}  // namespace

int resolve_threads(int requested) {
  if (requested < 0) throw DomainError("{threads} must be 0 (all) or a positive count");
  if (requested > 4096) throw DomainError("{threads} must be at most 4096");
  if (requested > 0) return requested;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
}

void parallel_for(std::size_t tasks, int threads,
                  const std::function<void(std::size_t task, int worker)>& body) {
  const int workers = static_cast<int>(
      std::min<std::size_t>(std::max(threads, 1), std::max<std::size_t>(tasks, 1)));
  if (workers <= 1) {
    for (std::size_t t = 0; t < tasks; ++t) body(t, 0);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto run = [&](int worker) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::size_t t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tasks) return;
      try {
        body(t, worker);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(workers - 1));
  for (int w = 1; w < workers; ++w) pool.emplace_back(run, w);
  run(0);
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

Shard parse_shard(const std::string& text, const std::string& option) {
  const std::size_t slash = text.find('/');
  const DomainError usage(option +
                          " must be k/K with 1 <= k <= K <= 1000000 (for example 2/3), not '" +
                          ParameterMessage::literal(text) + "'");
  if (slash == std::string::npos) throw usage;
  const std::string k = text.substr(0, slash), count = text.substr(slash + 1);
  if (!canonical_integer(k) || !canonical_integer(count)) throw usage;
  Shard shard{std::stoull(k), std::stoull(count)};
  if (shard.index < 1 || shard.count < 1 || shard.index > shard.count || shard.count > 1'000'000)
    throw usage;
  return shard;
}

}  // namespace kernelrank
