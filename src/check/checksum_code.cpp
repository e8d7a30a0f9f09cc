// The closed form of checksum_code.hpp.
#include "check/checksum_code.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace krcheck {
namespace {

using Polynomial = std::vector<BigInt>;  // coefficients in s, truncated to a fixed degree

BigInt binomial(int top, int bottom) {
  if (bottom < 0 || top < 0 || bottom > top) return 0;
  BigInt value;
  mpz_bin_uiui(value.backend().data(), static_cast<unsigned long>(top),
               static_cast<unsigned long>(bottom));
  return value;
}

int euler_phi(int value) {
  int count = 0;
  for (int i = 1; i <= value; ++i)
    if (std::gcd(i, value) == 1) ++count;
  return count;
}

// lambda_e(s) = (-1)^e p_e(s), truncated to degree `degree`.
Polynomial lambda(int e, int degree) {
  Polynomial before(1, BigInt(2));  // p_0
  Polynomial now(1, BigInt(-1));    // p_1
  for (int i = 2; i <= e; ++i) {
    Polynomial next(std::min<std::size_t>(static_cast<std::size_t>(degree) + 1,
                                          std::max(now.size(), before.size() + 1)),
                    BigInt(0));
    for (std::size_t t = 0; t < now.size() && t < next.size(); ++t) next[t] -= now[t];
    for (std::size_t t = 0; t < before.size() && t + 1 < next.size(); ++t) next[t + 1] -= before[t];
    before = std::move(now);
    now = std::move(next);
  }
  if (e % 2 == 1)
    for (BigInt& c : now) c = -c;
  return now;
}

Polynomial times(const Polynomial& a, const Polynomial& b, int degree) {
  // Only the degrees both factors reach: powers of a constant stay constants.
  const std::size_t size = std::min(static_cast<std::size_t>(degree) + 1, a.size() + b.size() - 1);
  Polynomial product(size, BigInt(0));
  for (std::size_t i = 0; i < a.size() && i < size; ++i) {
    if (a[i] == 0) continue;
    for (std::size_t j = 0; j < b.size() && i + j < size; ++j) product[i + j] += a[i] * b[j];
  }
  return product;
}

// [y^k z^k] (sigma y^e + sigma z^e + lambda_e(yz))^d for k = 0..max_k.
std::vector<BigInt> diagonal_coefficients(int e, int d, int max_k) {
  const Polynomial base = lambda(e, max_k);
  std::vector<BigInt> result(static_cast<std::size_t>(max_k) + 1, BigInt(0));
  Polynomial power(1, BigInt(1));  // lambda^c, c = 0, 1, ..., d
  for (int c = 0; c <= d; ++c) {
    if ((d - c) % 2 == 0) {
      const int a = (d - c) / 2;
      const BigInt weight = binomial(d, 2 * a) * binomial(2 * a, a);
      // [s^(k - e a)] lambda^c for the k that reach a stored coefficient
      for (std::size_t index = 0; index < power.size(); ++index) {
        const long k = static_cast<long>(index) + static_cast<long>(e) * a;
        if (k > max_k) break;
        if (power[index] != 0) result[static_cast<std::size_t>(k)] += weight * power[index];
      }
    }
    if (c < d) power = times(power, base, max_k);
  }
  return result;
}

BigInt exact_quotient(const BigInt& numerator, int divisor, const char* what) {
  if (numerator % divisor != 0)
    throw std::logic_error(std::string("checksum class: ") + what + " is not divisible by " +
                           std::to_string(divisor));
  return numerator / divisor;
}

}  // namespace

std::vector<BigInt> checksum_pair_counts(int length, int weight) {
  if (weight < 1 || weight >= length || std::gcd(weight, length) != 1)
    throw std::logic_error("checksum class needs 1 <= W < L and gcd(W, L) = 1");
  const int max_k = std::min(weight, length / 2);
  std::vector<BigInt> equal_sums(static_cast<std::size_t>(max_k) + 1, BigInt(0));  // L * S(k)
  for (int d = 1; d <= length; ++d) {
    if (length % d != 0) continue;
    const int e = length / d;
    const std::vector<BigInt> diagonal = diagonal_coefficients(e, d, max_k);
    const int phi = euler_phi(e);
    for (int k = 0; k <= max_k; ++k)
      equal_sums[static_cast<std::size_t>(k)] += diagonal[static_cast<std::size_t>(k)] * phi;
  }
  std::vector<BigInt> counts(static_cast<std::size_t>(weight) + 1, BigInt(0));
  for (int k = 0; k <= max_k; ++k) {
    const BigInt s = exact_quotient(equal_sums[static_cast<std::size_t>(k)], length, "L * S(k)");
    counts[static_cast<std::size_t>(k)] = exact_quotient(binomial(length - 2 * k, weight - k) * s,
                                                         length, "the pairs over all classes");
  }
  return counts;
}

}  // namespace krcheck
