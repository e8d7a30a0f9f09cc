// Binomial coefficients and integer powers, exact, for the producer. (The checker keeps its own
// independent copy in src/check/, on purpose: it trusts nothing the producer computes.)
#pragma once

#include "kernelrank/core/rational.hpp"

#include <cstdint>

namespace kernelrank {

// C(n, k) exactly, saturating at 2^64 - 1 (which then means "at least that many"); 0 when
// k < 0 or k > n.
std::uint64_t binomial_saturating(int n, int k);

// C(n, k) exactly; 0 when n < k (n >= 0).
Integer binomial(const Integer& n, std::uint64_t k);

// base^exponent exactly.
Integer integer_power(std::uint64_t base, std::uint64_t exponent);

}  // namespace kernelrank
