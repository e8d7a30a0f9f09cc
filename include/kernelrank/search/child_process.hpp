// Running a memory-hungry computation (Z3's nonlinear solver) in a child
// process with an address-space limit and a wall-clock limit.
//
// Z3's max_memory is not a reliable cap (nlsat grew to 12 GB on T(5,3)), so the
// search forks, the child sets RLIMIT_AS and does the work, and the parent
// waits on a pipe with a deadline. The child's result travels back as text.
// Exceptions thrown by the work are re-thrown in the parent with the same kind
// (InputError as UsageError, ResourceError, InternalError, UsageError).
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>

namespace kernelrank {

struct ChildLimits {
  double wall_seconds = 0;           // 0: no wall-clock limit
  std::size_t address_space_mb = 0;  // 0: no RLIMIT_AS
};

enum class ChildStatus {
  Completed,  // the work returned; `output` holds its text
  TimedOut,   // killed at the wall-clock limit
  Died,       // ended by a signal or an unexpected exit (usually memory under RLIMIT_AS)
};

struct ChildOutcome {
  ChildStatus status = ChildStatus::Completed;
  std::string output;
  std::string detail;  // human-readable account of a timeout or a death
  double seconds = 0;
};

// False in AddressSanitizer builds, whose shadow memory needs far more address
// space than any sensible cap: there the cap is not applied.
bool address_space_limit_supported();

// False in AddressSanitizer builds: this toolchain's sanitizer allocator has no fork
// handlers, so a child forked while another thread allocates can hang on its first
// allocation. Callers that fork from worker threads run one worker at a time there.
bool fork_from_threads_supported();

// Runs `work` in a forked child (stdio is flushed first; the child never returns
// from this function). Throws the work's exception kinds in the parent.
// Safe to call from several threads at once: the child closes every descriptor but
// stdin/stdout/stderr and its own pipe (so no child holds another child's pipe open),
// and forks are serialised by fork_mutex().
ChildOutcome run_in_child(const std::function<std::string()>& work, const ChildLimits& limits);

// Held around each fork. A thread that writes to stdio while other threads may call
// run_in_child should hold it too, so that no child starts with a stdio lock taken.
std::mutex& fork_mutex();

}  // namespace kernelrank
