// The producer's binomials (binomial.hpp) against Pascal's rule, built here from scratch.
#include "kernelrank/core/binomial.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <vector>

using kernelrank::Integer;

TEST_CASE("binomial: exact and saturating values follow Pascal's triangle") {
  constexpr int kRows = 80;  // C(80, 40) ~ 1.1e23 is past 2^64: saturation is exercised
  const Integer max64 = Integer(std::numeric_limits<std::uint64_t>::max());
  std::vector<Integer> row{1};
  int saturated = 0;
  for (int n = 0; n <= kRows; ++n) {
    for (int k = 0; k <= n; ++k) {
      const Integer& expected = row[static_cast<std::size_t>(k)];
      CHECK(kernelrank::binomial(Integer(n), static_cast<std::uint64_t>(k)) == expected);
      const std::uint64_t s = kernelrank::binomial_saturating(n, k);
      if (expected >= max64) {
        CHECK(s == std::numeric_limits<std::uint64_t>::max());
        ++saturated;
      } else {
        CHECK(Integer(s) == expected);
      }
    }
    CHECK(kernelrank::binomial_saturating(n, n + 1) == 0);
    CHECK(kernelrank::binomial_saturating(n, -1) == 0);
    CHECK(kernelrank::binomial(Integer(n), static_cast<std::uint64_t>(n + 1)) == 0);
    std::vector<Integer> next(row.size() + 1, 0);
    for (std::size_t k = 0; k < next.size(); ++k)
      next[k] = (k < row.size() ? row[k] : Integer(0)) + (k > 0 ? row[k - 1] : Integer(0));
    row = std::move(next);
  }
  CHECK(saturated > 0);
}
