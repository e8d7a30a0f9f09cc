#include "kernelrank/core/atomic_write.hpp"

#include "kernelrank/core/errors.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace kernelrank {
namespace {

// The temporary file currently being written (at most one at a time), kept in
// a fixed buffer so the signal handler needs no allocation.
char g_pending_path[4096];
std::atomic<bool> g_pending{false};

extern "C" void remove_pending_and_reraise(int signal_number) {
  if (g_pending.load()) unlink(g_pending_path);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void install_handlers_once() {
  static const bool installed = [] {
    std::signal(SIGINT, remove_pending_and_reraise);
    std::signal(SIGTERM, remove_pending_and_reraise);
    return true;
  }();
  (void)installed;
}

std::string error_text(const std::string& what, const std::string& path) {
  return "cannot write " + path + ": " + what + " (" + std::strerror(errno) + ")";
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& contents) {
  install_handlers_once();
  const std::size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty()) throw OutputError("cannot write " + path + ": not a file name");
  const std::string temp = dir + "." + base + ".tmp-" + std::to_string(getpid());
  if (temp.size() >= sizeof(g_pending_path))
    throw OutputError("cannot write " + path + ": path too long");
  std::memcpy(g_pending_path, temp.c_str(), temp.size() + 1);
  g_pending.store(true);

  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    g_pending.store(false);
    throw OutputError(error_text("cannot create temporary file", path));
  }
  std::size_t written = 0;
  bool ok = true;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    written += static_cast<std::size_t>(n);
  }
  if (ok && fsync(fd) != 0) ok = false;
  if (close(fd) != 0) ok = false;
  if (!ok || rename(temp.c_str(), path.c_str()) != 0) {
    const std::string message = error_text("write failed", path);
    unlink(temp.c_str());
    g_pending.store(false);
    throw OutputError(message);
  }
  g_pending.store(false);
}

}  // namespace kernelrank
