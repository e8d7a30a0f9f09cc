#include "kernelrank/core/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace kernelrank {
namespace {
bool g_progress_allowed = true;
}

void Progress::set_enabled(bool enabled) { g_progress_allowed = enabled; }

bool Progress::allowed() { return g_progress_allowed; }

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(g_progress_allowed && isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::draw(std::uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(200) && done != total_) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const unsigned percent = total_ == 0
                               ? 100U
                               : static_cast<unsigned>((100.0L * static_cast<long double>(done)) /
                                                       static_cast<long double>(total_));
  std::fprintf(stderr, "\r%s: %llu/%llu (%u%%) %.1fs", label_.c_str(),
               static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
               percent, seconds);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace kernelrank
