// The exact dynamic programme for R_N(G); see amplification.hpp.
#include "check/amplification.hpp"

#include <stdexcept>
#include <string>

namespace krcheck {

AmplificationTable::AmplificationTable(int length) : length_(length) {
  if (length < 3) throw std::logic_error("amplification needs a length N >= 3");
  best_.push_back(1);  // R(0): the empty chain
  best_.push_back(0);  // G = 1 cannot be split into parts >= 2
  squared_.push_back(1);
  squared_.push_back(0);
}

void AmplificationTable::extend_to(int gap) {
  while (static_cast<int>(best_.size()) <= gap) {
    const int total = static_cast<int>(best_.size());
    BigInt best = 0;
    for (int part = 2; part <= total; ++part) {
      const BigInt& rest = best_[static_cast<std::size_t>(total - part)];
      if (rest == 0) continue;  // the remainder 1 has no split
      const BigInt candidate =
          rest * static_cast<unsigned long>(length_ - 2) * static_cast<unsigned long>(part - 1);
      if (candidate > best) best = candidate;
    }
    squared_.push_back(best * best);
    best_.push_back(std::move(best));
  }
}

const BigInt& AmplificationTable::factor(int gap) {
  if (gap < 0 || gap == 1)
    throw std::logic_error("no amplification factor for gap " + std::to_string(gap));
  extend_to(gap);
  return best_[static_cast<std::size_t>(gap)];
}

const BigInt& AmplificationTable::factor_squared(int gap) {
  factor(gap);
  return squared_[static_cast<std::size_t>(gap)];
}

}  // namespace krcheck
