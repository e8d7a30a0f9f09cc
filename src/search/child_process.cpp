// fork + RLIMIT_AS + deadline (see child_process.hpp).
#include "kernelrank/search/child_process.hpp"

#include "kernelrank/core/errors.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>

namespace kernelrank {
namespace {

// The first line of the child's message says how the work ended.
constexpr const char* kOk = "ok";
constexpr const char* kResource = "resource";
constexpr const char* kInternal = "internal";
constexpr const char* kUsage = "usage";
constexpr const char* kOutput = "output";
constexpr const char* kOther = "other";

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;
    }
    done += static_cast<std::size_t>(n);
  }
}

// Closes every descriptor from `from` up to `to` (inclusive).
void close_descriptors(unsigned from, unsigned to) {
  if (from > to) return;
#if defined(SYS_close_range)
  if (::syscall(SYS_close_range, from, to, 0U) == 0) return;
#endif
  const long open_max = ::sysconf(_SC_OPEN_MAX);
  const unsigned last = std::min<unsigned>(
      to, open_max > 0 && open_max < 65536 ? static_cast<unsigned>(open_max) : 65536U);
  for (unsigned d = from; d <= last; ++d) ::close(static_cast<int>(d));
}

[[noreturn]] void child_main(int fd, const std::function<std::string()>& work,
                             const ChildLimits& limits) {
  // Descriptors inherited from other threads' children (their pipes) must not stay open
  // here, or those children's parents would wait for this one to exit.
  close_descriptors(3, static_cast<unsigned>(fd) - 1);
  close_descriptors(static_cast<unsigned>(fd) + 1, ~0U);
  if (limits.address_space_mb > 0 && address_space_limit_supported()) {
    rlimit limit{};
    limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(limits.address_space_mb) * 1024 * 1024;
    ::setrlimit(RLIMIT_AS, &limit);
  }
  std::string kind = kOk, body;
  const auto failed = [&](const char* failure, const std::exception& e) {
    kind = failure;
    body = e.what();
  };
  try {
    body = work();
  } catch (const ResourceError& e) {
    failed(kResource, e);
  } catch (const std::bad_alloc&) {
    kind = kResource;
    body =
        "out of memory (address-space limit " + std::to_string(limits.address_space_mb) + " MiB)";
  } catch (const InternalError& e) {
    failed(kInternal, e);
  } catch (const UsageError& e) {
    failed(kUsage, e);
  } catch (const InputError& e) {
    failed(kUsage, e);
  } catch (const OutputError& e) {
    failed(kOutput, e);
  } catch (const std::exception& e) {
    // Z3 reports memory exhaustion as an exception with this text.
    const std::string what = e.what();
    failed(what.find("memory") != std::string::npos ? kResource : kOther, e);
  }
  write_all(fd, kind + "\n" + body);
  ::close(fd);
  std::fflush(nullptr);
  ::_exit(0);
}

std::string signal_name(int sig) {
  const char* name = ::strsignal(sig);
  return std::to_string(sig) + (name ? std::string(" (") + name + ")" : "");
}

// Reads the child's report from `fd` until end of file; false when the wall-clock limit
// (0 = none) passed first.
bool read_until_eof(int fd, std::chrono::steady_clock::time_point start, double wall_seconds,
                    std::string& message) {
  char buffer[65536];
  while (true) {
    int wait_ms = -1;
    if (wall_seconds > 0) {
      const double left =
          wall_seconds -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) return false;
      wait_ms = static_cast<int>(left * 1000) + 1;
    }
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return true;
    }
    if (ready == 0) continue;  // re-check the deadline
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return true;
    }
    if (n == 0) return true;  // EOF: the child closed the pipe or died
    message.append(buffer, static_cast<std::size_t>(n));
  }
}

// A report "kind\nbody" from a child that exited normally: the body, or the error it names.
std::string result_or_throw(const std::string& message) {
  const std::size_t newline = message.find('\n');
  const std::string kind = message.substr(0, newline);
  std::string body = message.substr(newline + 1);
  if (kind == kOk) return body;
  if (kind == kResource) throw ResourceError(body);
  if (kind == kInternal) throw InternalError(body);
  if (kind == kUsage) throw UsageError(body);
  if (kind == kOutput) throw OutputError(body);
  throw InternalError("search process failed: " + body);
}

}  // namespace

std::mutex& fork_mutex() {
  static std::mutex mutex;
  return mutex;
}

bool address_space_limit_supported() {
#if defined(__SANITIZE_ADDRESS__)
  return false;  // AddressSanitizer reserves terabytes of shadow address space
#else
  return true;
#endif
}

bool fork_from_threads_supported() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#else
  return true;
#endif
}

ChildOutcome run_in_child(const std::function<std::string()>& work, const ChildLimits& limits) {
  int fds[2];
  if (::pipe(fds) != 0)
    throw ResourceError(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::unique_lock<std::mutex> forking(fork_mutex());
  std::fflush(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  // The child is a copy of this thread, which holds the lock: it releases its copy.
  forking.unlock();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], work, limits);
  }
  ::close(fds[1]);
  std::string message;
  const bool timed_out = !read_until_eof(fds[0], start, limits.wall_seconds, message);
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildOutcome outcome;
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    outcome.status = ChildStatus::TimedOut;
    outcome.detail = "wall-clock limit of " + std::to_string(limits.wall_seconds) +
                     " s reached; the search process was stopped";
    return outcome;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && message.find('\n') != std::string::npos) {
    outcome.output = result_or_throw(message);
    return outcome;
  }
  outcome.status = ChildStatus::Died;
  if (WIFSIGNALED(status)) {
    outcome.detail = "the search process was ended by signal " + signal_name(WTERMSIG(status));
  } else {
    outcome.detail = "the search process exited with status " +
                     std::to_string(WEXITSTATUS(status)) + " without a result";
  }
  if (limits.address_space_mb > 0 && address_space_limit_supported())
    outcome.detail += " under an address-space limit of " +
                      std::to_string(limits.address_space_mb) +
                      " MiB (Z3 aborts this way when it runs out of memory)";
  return outcome;
}

}  // namespace kernelrank
