// Rule trace-product; see product_rule.hpp.
#include "check/product_rule.hpp"

#include <string>

#include "check/amplification.hpp"
#include "check/checksum_code.hpp"
#include "check/conclusion.hpp"
#include "check/status.hpp"
#include "check/tokens.hpp"

namespace krcheck {
namespace {

using Polynomial = std::vector<BigInt>;

Polynomial multiply(const Polynomial& a, const Polynomial& b) {
  Polynomial product(a.size() + b.size() - 1, BigInt(0));
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == 0) continue;
    for (std::size_t j = 0; j < b.size(); ++j)
      if (b[j] != 0) product[i + j] += a[i] * b[j];
  }
  return product;
}

// base^exponent by repeated squaring (exponent >= 1).
Polynomial polynomial_power(Polynomial base, std::uint64_t exponent) {
  Polynomial result(1, BigInt(1));
  while (true) {
    if (exponent % 2 == 1) result = multiply(result, base);
    exponent /= 2;
    if (exponent == 0) return result;
    base = multiply(base, base);
  }
}

std::string block_name(const ProductBlock& block) {
  return block.checksum
             ? "checksum class GS(" + std::to_string(block.length) + "," +
                   std::to_string(block.weight) + "," + std::to_string(block.residue) + ")"
             : std::to_string(block.words.size()) + " explicit words of length " +
                   std::to_string(block.length);
}

}  // namespace

std::vector<BigInt> explicit_pair_counts(const Certificate& cert, const ProductBlock& block) {
  const TokenMatrix& words = block.words;
  const std::size_t size = words.size();
  const int weight = overlap(words.row(0), words.row(0), words.words());
  for (std::size_t i = 1; i < size; ++i) {
    const int own = overlap(words.row(i), words.row(i), words.words());
    if (own != weight)
      fail_check(cert.file, block.word_lines[i],
                 "the word has weight " + std::to_string(own) + ", the block's first word (line " +
                     std::to_string(block.word_lines[0]) + ") has weight " +
                     std::to_string(weight) + ": a block needs constant weight");
  }
  std::vector<BigInt> counts(static_cast<std::size_t>(weight) + 1, BigInt(0));
  std::vector<std::uint64_t> unordered(static_cast<std::size_t>(weight) + 1, 0);
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t j = i + 1; j < size; ++j) {
      const int gap = weight - overlap(words.row(i), words.row(j), words.words());
      if (gap < 2)
        fail_check(cert.file, block.word_lines[j],
                   "words " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                       " of the block on line " + std::to_string(block.line) +
                       ": gap W - |c AND d| = " + std::to_string(gap) + " < 2");
      ++unordered[static_cast<std::size_t>(gap)];
    }
  counts[0] = static_cast<unsigned long>(size);
  for (std::size_t g = 2; g < counts.size(); ++g) counts[g] = BigInt(unordered[g]) * 2;
  return counts;
}

std::vector<BigInt> product_pair_counts(const Certificate& cert) {
  Polynomial total(1, BigInt(1));
  for (const ProductBlock& block : cert.blocks) {
    const Polynomial counts = block.checksum ? checksum_pair_counts(block.length, block.weight)
                                             : explicit_pair_counts(cert, block);
    if (counts.size() > 1 && counts[1] != 0)
      throw std::logic_error("a block's pair polynomial has pairs at gap 1");
    total = multiply(total, polynomial_power(counts, block.copies));
  }
  return total;
}

BigInt hadamard_rank(const BigInt& floor_t, int power) {
  const auto binomial = [power](const BigInt& r) {  // C(r + power - 1, power)
    BigInt value = 1;
    for (int i = 1; i <= power; ++i) value = value * (r + (power - i)) / i;  // exact each step
    return value;
  };
  BigInt low = 1;
  BigInt high = floor_t + 1;  // C(high + power - 1, power) >= high > floor_t
  while (low < high) {
    const BigInt mid = (low + high) / 2;
    if (binomial(mid) > floor_t)
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

Rational product_sigma(const std::vector<BigInt>& counts, int n, int power) {
  // One common denominator (the lcm of the R(g)^2 in use) instead of thousands of
  // rational additions.
  AmplificationTable amplification(n);
  const auto weight = [&](std::size_t g) {  // R_n(g)^(2 power)
    return pow(amplification.factor_squared(static_cast<int>(g)), static_cast<unsigned>(power));
  };
  BigInt common = 1;
  for (std::size_t g = 2; g < counts.size(); ++g)
    if (counts[g] != 0) common = lcm(common, weight(g));
  BigInt numerator = 0;
  for (std::size_t g = 2; g < counts.size(); ++g)
    if (counts[g] != 0) numerator += counts[g] * (common / weight(g));
  return Rational(numerator, common);
}

BigInt check_trace_product(const Certificate& cert, std::ostream& out) {
  for (const ProductBlock& block : cert.blocks)
    out << "c block (line " << block.line << "): " << block_name(block) << ", copies "
        << block.copies << "\n";
  const std::vector<BigInt> counts = product_pair_counts(cert);
  const BigInt& rows = counts[0];
  BigInt pairs = 0;
  int smallest = 0;
  for (std::size_t g = 2; g < counts.size(); ++g) {
    pairs += counts[g];
    if (smallest == 0 && counts[g] != 0) smallest = static_cast<int>(g);
  }
  out << "c rows: N = " << rows << " (product of the block sizes), " << pairs
      << " ordered pairs of distinct rows, every gap >= 2"
      << (smallest != 0 ? ", the smallest " + std::to_string(smallest) : std::string()) << "\n";
  const int power = cert.hadamard_power;
  const Rational sigma = product_sigma(counts, cert.n, power);
  const Rational t = Rational(rows * rows) / (Rational(rows) + sigma);
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  const BigInt computed = scale * numerator(t) / denominator(t);  // floor: both positive
  out << "c computed sum: " << computed << " = floor(2^" << cert.precision
      << " * T), T = N^2 / (N + Sigma) = " << truncated_decimal(numerator(t), denominator(t), 6)
      << " (truncated)\n";
  if (Rational(computed) != cert.stated_sum)
    fail_check(
        cert.file, cert.sum_line,
        "sum " + to_text(cert.stated_sum) + " differs from the recomputed sum " + computed.str());
  if (power > 1)
    out << "c Hadamard power k = " << power << ": T is T_2k, with R_n(g)^-" << 2 * power << "\n";
  const BigInt bound = rows < 2     ? BigInt(1)
                       : power == 1 ? computed / scale + 1
                                    : hadamard_rank(computed / scale, power);
  check_claim(cert, bound,
              rows < 2     ? "trace-product rule, single row"
              : power == 1 ? "trace-product rule: floor(T) + 1"
                           : "trace-product rule, power " + std::to_string(power) +
                                 ": the smallest r with C(r + k - 1, k) > floor(T_2k)",
              out);
  return bound;
}

}  // namespace krcheck
