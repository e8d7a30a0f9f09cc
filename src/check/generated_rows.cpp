// SplitMix64 words; see generated_rows.hpp.
#include "check/generated_rows.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "check/tokens.hpp"

namespace krcheck {

WordGenerator::WordGenerator(std::uint64_t seed, int width, int weight)
    : random_(seed),
      width_(width),
      weight_(weight),
      perm_(static_cast<std::size_t>(width)),
      chosen_(static_cast<std::size_t>(weight)) {
  std::iota(perm_.begin(), perm_.end(), 0u);
}

void WordGenerator::next(std::uint64_t* out) {
  const auto words = words_for_width(static_cast<std::size_t>(width_));
  std::fill(out, out + words, 0);
  for (int t = 0; t < weight_; ++t) {
    const auto j = static_cast<std::size_t>(t) +
                   static_cast<std::size_t>(random_.below(static_cast<std::uint64_t>(width_ - t)));
    std::swap(perm_[static_cast<std::size_t>(t)], perm_[j]);
    chosen_[static_cast<std::size_t>(t)] = static_cast<std::uint32_t>(j);
    const std::uint32_t k = perm_[static_cast<std::size_t>(t)];
    out[k / 64] |= std::uint64_t{1} << (k % 64);
  }
  // Undo the swaps in reverse order: perm_ is the identity again, at O(W) instead of O(M).
  for (int t = weight_ - 1; t >= 0; --t)
    std::swap(perm_[static_cast<std::size_t>(t)], perm_[chosen_[static_cast<std::size_t>(t)]]);
}

}  // namespace krcheck
