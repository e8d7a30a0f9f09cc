// Progress for long runs, on stderr and only when stderr is a terminal.
//
// Updates are throttled to a few per second; the clock is used for display
// only and never influences a result.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace kernelrank {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Cheap enough to call in inner loops: checks the clock every 4096 calls.
  void update(std::uint64_t done) {
    if (!enabled_ || ((++calls_ & 4095U) != 0 && done != total_)) return;
    draw(done);
  }
  void finish();
  // For parallel loops where one worker draws and may run out of work first: draws the
  // full count, then clears the line.
  void complete() {
    if (enabled_) draw(total_);
    finish();
  }

  // Lets tests and --quiet turn progress off globally.
  static void set_enabled(bool enabled);
  // Whether progress is allowed (not turned off); front ends ask before their own log lines.
  static bool allowed();

 private:
  void draw(std::uint64_t done);

  std::string label_;
  std::uint64_t total_;
  std::uint64_t calls_ = 0;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace kernelrank
