// gnuplot as a subprocess (see gnuplot.hpp for why gnuplot, and why through a pipe).
//
// One fork/exec per image: the script is written to the child's stdin while its stdout (the
// image) and stderr (messages) are read, all three through one poll loop, because a large
// script and a large image could otherwise fill both pipes and deadlock parent and child.
#include "kernelrank/plot/gnuplot.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace kernelrank::plot {
namespace {

// gnuplot draws these plots in well under a second; a minute means something is wrong.
constexpr int kGnuplotTimeoutSeconds = 60;
// Enough of gnuplot's stderr to show the failing line, not a flood.
constexpr std::size_t kMaxQuotedStderr = 2000;

const char* const kNotFound =
    "gnuplot not found: install gnuplot-nox (apt-get install gnuplot-nox)";

// The first executable `gnuplot` on PATH, or "" (looked up before forking, so that the
// "not found" message is ours and not an exec failure inside the child).
std::string find_gnuplot() {
  const char* path_env = std::getenv("PATH");
  const std::string path = path_env != nullptr ? path_env : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = end > start ? path.substr(start, end - start) : ".";
    const std::string candidate = dir + "/gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

void close_quietly(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Ignores SIGPIPE while alive: if gnuplot exits before reading its whole script, the write
// must fail with EPIPE (and its stderr be reported) rather than kill kernelrank.
class SigpipeIgnored {
 public:
  SigpipeIgnored() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~SigpipeIgnored() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  SigpipeIgnored(const SigpipeIgnored&) = delete;
  SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

 private:
  struct sigaction previous_ {};
};

struct Pipes {
  int stdin_write = -1, stdout_read = -1, stderr_read = -1;
};

void close_all(Pipes& pipes) {
  close_quietly(pipes.stdin_write);
  close_quietly(pipes.stdout_read);
  close_quietly(pipes.stderr_read);
}

// Forks and execs gnuplot with the three pipes as its stdin, stdout and stderr.
pid_t spawn_gnuplot(const std::string& program, Pipes& parent_ends) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw ResourceError("cannot create a pipe for gnuplot");
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    throw ResourceError("cannot create a pipe for gnuplot");
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    throw ResourceError("cannot create a pipe for gnuplot");
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. dup2 clears O_CLOEXEC on 0, 1, 2; an
    // ignored SIGPIPE would survive exec, so gnuplot gets the default back.
    ::signal(SIGPIPE, SIG_DFL);
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    const char* argv[] = {program.c_str(), "-d", nullptr};
    ::execv(program.c_str(), const_cast<char* const*>(argv));
    static const char message[] = "cannot execute gnuplot\n";
    (void)!::write(2, message, sizeof message - 1);
    ::_exit(127);
  }
  ::close(in[0]), ::close(out[1]), ::close(err[1]);
  if (pid < 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    throw ResourceError("cannot start gnuplot: fork failed (" + std::string(std::strerror(errno)) +
                        ")");
  }
  ::fcntl(in[1], F_SETFL, ::fcntl(in[1], F_GETFL) | O_NONBLOCK);
  parent_ends = {in[1], out[0], err[0]};
  return pid;
}

// Appends what is available on `fd` to `sink`; closes `fd` at end of file.
void drain(int& fd, std::string& sink) {
  char buffer[65536];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    sink.append(buffer, static_cast<std::size_t>(n));
  } else if (n == 0 || errno != EINTR) {
    close_quietly(fd);
  }
}

struct Exchange {
  std::string out, err;
  bool timed_out = false;
};

// Feeds `script` to gnuplot and collects its stdout and stderr until both are closed.
Exchange exchange(Pipes& pipes, const std::string& script) {
  Exchange result;
  std::size_t written = 0;
  if (script.empty()) close_quietly(pipes.stdin_write);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(kGnuplotTimeoutSeconds);
  while (pipes.stdout_read >= 0 || pipes.stderr_read >= 0) {
    pollfd fds[3] = {{pipes.stdin_write, POLLOUT, 0},
                     {pipes.stdout_read, POLLIN, 0},
                     {pipes.stderr_read, POLLIN, 0}};  // negative fds are ignored by poll
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 3, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0)
      throw ResourceError("waiting for gnuplot failed: " + std::string(std::strerror(errno)));
    if (fds[0].revents & (POLLOUT | POLLERR | POLLHUP)) {
      const ssize_t n =
          ::write(pipes.stdin_write, script.data() + written, script.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      // EPIPE: gnuplot stopped reading (it failed); its stderr says why.
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == script.size())
        close_quietly(pipes.stdin_write);
    }
    if (fds[1].revents & (POLLIN | POLLERR | POLLHUP)) drain(pipes.stdout_read, result.out);
    if (fds[2].revents & (POLLIN | POLLERR | POLLHUP)) drain(pipes.stderr_read, result.err);
  }
  return result;
}

std::string trimmed_stderr(const std::string& err) {
  std::string text = err.size() > kMaxQuotedStderr ? err.substr(0, kMaxQuotedStderr) + "..." : err;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? "(no message on stderr)" : text;
}

// Turns a finished exchange and wait status into the image bytes or an exception.
std::string check_outcome(const Exchange& result, int status) {
  if (result.timed_out)
    throw ResourceError("gnuplot did not finish within " + std::to_string(kGnuplotTimeoutSeconds) +
                        " s; it was stopped");
  if (WIFSIGNALED(status))
    throw ResourceError("gnuplot was killed by signal " + std::to_string(WTERMSIG(status)) + ": " +
                        trimmed_stderr(result.err));
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 127 && result.out.empty()) throw ResourceError(kNotFound);
  if (code != 0)
    throw InternalError("gnuplot exited with status " + std::to_string(code) + ":\n" +
                        trimmed_stderr(result.err));
  if (!result.err.empty()) std::cerr << "gnuplot: " << trimmed_stderr(result.err) << "\n";
  if (result.out.empty())
    throw InternalError("gnuplot wrote no image (stderr: " + trimmed_stderr(result.err) + ")");
  return result.out;
}

// The svg terminal measures fonts in pixels, pngcairo in points at 96 dpi: 13 px = 10 pt.
// `title_font` lets the shared script body size titles the same way in both.
std::string terminal_line(const std::string& format, CanvasSize size) {
  const std::string dims = std::to_string(size.width) + "," + std::to_string(size.height);
  const std::string common = " enhanced linewidth 1.2 background '#ffffff'";
  if (format == "svg")
    return "set terminal svg size " + dims + common + " font 'Sans,13'\ntitle_font = ',17'\n";
  return "set terminal pngcairo size " + dims + common + " font 'Sans,10'\ntitle_font = ',13'\n";
}

}  // namespace

std::string run_gnuplot(const std::string& script) {
  const std::string program = find_gnuplot();
  if (program.empty()) throw ResourceError(kNotFound);
  SigpipeIgnored sigpipe_ignored;
  Pipes pipes;
  const pid_t pid = spawn_gnuplot(program, pipes);
  Exchange result;
  try {
    result = exchange(pipes, script);
  } catch (...) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    close_all(pipes);
    throw;
  }
  close_all(pipes);
  if (result.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return check_outcome(result, status);
}

std::vector<std::string> render_svg_and_png(const std::string& body, const std::string& prefix,
                                            CanvasSize size) {
  const std::string svg = run_gnuplot(terminal_line("svg", size) + body);
  const std::string png = run_gnuplot(terminal_line("png", size) + body);
  // Cheap guards against writing something that is not an image under an image's name.
  if (svg.find("<svg") == std::string::npos)
    throw InternalError("gnuplot's svg output contains no <svg> element");
  if (png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
    throw InternalError("gnuplot's png output lacks the PNG signature");
  write_file_atomically(prefix + ".svg", svg);
  write_file_atomically(prefix + ".png", png);
  return {prefix + ".svg", prefix + ".png"};
}

std::string quoted(const std::string& text) {
  std::string literal = "'";
  for (const char c : text) {
    if (c == '\'') {
      literal += "''";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      literal += ' ';
    } else {
      literal += c;
    }
  }
  return literal + "'";
}

}  // namespace kernelrank::plot
