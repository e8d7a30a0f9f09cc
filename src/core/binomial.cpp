#include "kernelrank/core/binomial.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include <gmp.h>

namespace kernelrank {

std::uint64_t binomial_saturating(int n, int k) {
  constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();
  if (k < 0 || k > n) return 0;
  k = std::min(k, n - k);
  std::uint64_t value = 1;
  // C(n-k+i, i) grows with i, so once a step saturates the true value is at least kSaturated.
  for (int i = 1; i <= k; ++i) {
    // value * (n-k+i) / i is exact; divide i's common factor out first so that the only
    // remaining division is exact and the product is all that can overflow.
    const auto factor = static_cast<std::uint64_t>(n - k + i);
    const std::uint64_t g = std::gcd(value, static_cast<std::uint64_t>(i));
    const std::uint64_t reduced_value = value / g;
    const std::uint64_t reduced_factor = factor / (static_cast<std::uint64_t>(i) / g);
    if (reduced_factor != 0 && reduced_value > kSaturated / reduced_factor) return kSaturated;
    value = reduced_value * reduced_factor;
  }
  return value;
}

Integer binomial(const Integer& n, std::uint64_t k) {
  if (n < k) return 0;
  Integer result;
  mpz_bin_ui(result.backend().data(), n.backend().data(), static_cast<unsigned long>(k));
  return result;
}

Integer integer_power(std::uint64_t base, std::uint64_t exponent) {
  Integer result;
  mpz_ui_pow_ui(result.backend().data(), static_cast<unsigned long>(base),
                static_cast<unsigned long>(exponent));
  return result;
}

}  // namespace kernelrank
