// The checker's own worker threads (it shares no code with the producer's parallel.hpp).
//
// A pass hands its tasks out through an atomic counter inside `body`, so faster workers
// take more; every result is combined afterwards with an exact, order-free operation
// (integer sums, the smallest index), which is why no output depends on the thread count.
#pragma once

#include <functional>

namespace krcheck {

// 0 means all hardware threads (at least 1); otherwise `requested` itself (>= 1).
int resolve_threads(int requested);

// Runs body(worker) for worker = 0..workers-1, worker 0 on the calling thread. A worker
// whose thread cannot be started does not run, so bodies must share their tasks through a
// counter rather than by worker number. When bodies throw, the exception of the
// lowest-numbered worker is rethrown after all have finished.
void run_workers(int workers, const std::function<void(int worker)>& body);

}  // namespace krcheck
