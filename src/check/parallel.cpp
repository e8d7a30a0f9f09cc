// Worker threads; see parallel.hpp.
#include "check/parallel.hpp"

#include <exception>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace krcheck {

int resolve_threads(int requested) {
  if (requested < 0) throw std::invalid_argument("a negative thread count");
  if (requested > 0) return requested;
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
}

void run_workers(int workers, const std::function<void(int worker)>& body) {
  if (workers < 1) workers = 1;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(workers));
  const auto guarded = [&](int worker) {
    try {
      body(worker);
    } catch (...) {
      errors[static_cast<std::size_t>(worker)] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(workers - 1));
  for (int worker = 1; worker < workers; ++worker) {
    try {
      threads.emplace_back(guarded, worker);
    } catch (const std::system_error&) {
      break;  // no more threads: the tasks go to the workers that run (they share a counter)
    }
  }
  guarded(0);
  for (auto& thread : threads) thread.join();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace krcheck
