// Work sharing for the heavy loops: threads inside a process, shards across processes.
//
// std::thread rather than OpenMP: no compiler runtime to install or to keep quiet under the
// sanitizers, and the loops here are few and coarse (tiles of pairs, blocks of instances).
// Every loop that uses this combines per-task results with an exact, order-free operation
// (integer sums, exact maxima, the smallest index), so the output never depends on how many
// threads or shards ran.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace kernelrank {

// 0 means "all hardware threads"; otherwise the value itself (>= 1, checked).
int resolve_threads(int requested);

// Runs body(task, worker) for task = 0..tasks-1 on `threads` workers (worker in
// 0..threads-1), handing out tasks in increasing order as workers become free. The first
// exception thrown by a body is rethrown here after all workers stopped.
void parallel_for(std::size_t tasks, int threads,
                  const std::function<void(std::size_t task, int worker)>& body);

// Shard k of K (1 <= k <= K): this process does the tasks t with t % K == k - 1.
struct Shard {
  std::uint64_t index = 1;  // k, 1-based
  std::uint64_t count = 1;  // K
  bool whole() const { return count == 1; }
  bool owns(std::size_t task) const { return task % count == index - 1; }
  std::string str() const { return std::to_string(index) + "/" + std::to_string(count); }
};

// Parses "k/K" (canonical decimal integers, 1 <= k <= K <= 1000000); DomainError naming
// `option` otherwise (a ParameterMessage pattern: the parameter {shard} by default, or a
// name the caller escaped with ParameterMessage::literal).
Shard parse_shard(const std::string& text, const std::string& option = "{shard}");

}  // namespace kernelrank
