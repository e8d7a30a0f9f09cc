// Wall-clock seconds for the search's time budgets and reports (never part of a verdict).
#pragma once

#include <chrono>

namespace kernelrank {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace kernelrank
