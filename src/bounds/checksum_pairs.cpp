// The pair polynomials of product blocks (see product_bound.hpp): counted pair by pair for
// explicit words, and for a Graham-Sloane class by the closed form of docs/bounds.md,
// written here with the explicit Lucas coefficients of lambda_e (the checker, src/check,
// has its own implementation by the recurrence; tests compare both with brute force).
#include "kernelrank/bounds/product_bound.hpp"

#include "kernelrank/core/errors.hpp"

#include <bit>
#include <numeric>

namespace kernelrank {
namespace {

using Series = std::vector<Integer>;  // coefficients in s, truncated

Integer choose(long top, long bottom) {
  if (bottom < 0 || bottom > top) return 0;
  Integer value;
  mpz_bin_uiui(value.backend().data(), static_cast<unsigned long>(top),
               static_cast<unsigned long>(bottom));
  return value;
}

// lambda_e(s) = sum_i (-1)^i e/(e-i) C(e-i, i) s^i, the product over the e-th roots of unity
// zeta of (1 + y zeta + z/zeta) without its y^e and z^e terms (s = yz).
Series lucas_lambda(long e, long limit) {
  Series out;
  for (long i = 0; 2 * i <= e && i <= limit; ++i) {
    Integer c =
        choose(e - i, i) * e / (e - i);  // exact: e/(e-i) C(e-i,i) = C(e-i,i) + C(e-i-1,i-1)
    out.push_back(i % 2 == 0 ? c : Integer(-c));
  }
  return out;
}

Series truncated_product(const Series& a, const Series& b, std::size_t limit) {
  if (a.empty() || b.empty()) return {};
  Series out(std::min(limit, a.size() + b.size() - 1), Integer(0));
  for (std::size_t i = 0; i < a.size() && i < out.size(); ++i)
    if (a[i] != 0)
      for (std::size_t j = 0; j < b.size() && i + j < out.size(); ++j) out[i + j] += a[i] * b[j];
  return out;
}

}  // namespace

std::vector<Integer> checksum_pair_counts(int length, int weight) {
  if (weight < 1 || weight >= length || std::gcd(weight, length) != 1)
    throw InternalError("GS(L,W) needs 1 <= W < L and gcd(W, L) = 1");
  const long top = std::min(weight, length / 2);  // k = |B| = |C| with B, C disjoint
  const auto limit = static_cast<std::size_t>(top) + 1;
  std::vector<Integer> same(limit, Integer(0));  // L * #{disjoint (B, C): sum B = sum C}
  for (long e = 1; e <= length; ++e) {
    if (length % e != 0) continue;
    const long d = length / e;
    long phi = 0;
    for (long t = 1; t <= e; ++t) phi += std::gcd(t, e) == 1 ? 1 : 0;
    const Series lambda = lucas_lambda(e, top);
    // (sigma y^e + sigma z^e + lambda)^d: the y^k z^k terms take a copies each of y^e and z^e.
    Series power{Integer(1)};
    for (long c = 0; c <= d; ++c) {
      if ((d - c) % 2 == 0) {
        const long a = (d - c) / 2;
        const Integer multinomial = choose(d, a) * choose(d - a, a);
        for (std::size_t i = 0; i < power.size(); ++i) {
          const long k = static_cast<long>(i) + e * a;
          if (k > top) break;
          same[static_cast<std::size_t>(k)] += multinomial * power[i] * phi;
        }
      }
      if (c < d) power = truncated_product(power, lambda, limit);
    }
  }
  std::vector<Integer> counts(static_cast<std::size_t>(weight) + 1, Integer(0));
  const Integer squared_length = Integer(length) * length;
  for (long k = 0; k <= top; ++k) {
    const Integer all = choose(length - 2 * k, weight - k) * same[static_cast<std::size_t>(k)];
    if (all % squared_length != 0) throw InternalError("GS closed form: inexact division");
    counts[static_cast<std::size_t>(k)] = all / squared_length;
  }
  return counts;
}

std::vector<Integer> explicit_pair_counts(const std::vector<std::string>& words) {
  // Words packed into 64-bit chunks, so that a pair costs a few popcounts.
  const std::size_t chunks = (words.front().size() + 63) / 64;
  std::vector<std::uint64_t> packed(words.size() * chunks, 0);
  for (std::size_t w = 0; w < words.size(); ++w)
    for (std::size_t t = 0; t < words[w].size(); ++t)
      if (words[w][t] == '1') packed[w * chunks + t / 64] |= std::uint64_t{1} << (t % 64);
  const auto common = [&](std::size_t a, std::size_t b) {
    int total = 0;
    for (std::size_t c = 0; c < chunks; ++c)
      total += std::popcount(packed[a * chunks + c] & packed[b * chunks + c]);
    return total;
  };
  const int weight = common(0, 0);
  std::vector<std::uint64_t> tally(static_cast<std::size_t>(weight) + 1, 0);
  for (std::size_t a = 0; a < words.size(); ++a) {
    if (common(a, a) != weight) throw InternalError("an explicit block without constant weight");
    for (std::size_t b = 0; b < words.size(); ++b)
      ++tally[static_cast<std::size_t>(weight - common(a, b))];
  }
  std::vector<Integer> counts;
  for (const std::uint64_t t : tally) counts.emplace_back(t);
  return counts;
}

}  // namespace kernelrank
