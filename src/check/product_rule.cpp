// Rule trace-product; see product_rule.hpp.
#include "check/product_rule.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "check/amplification.hpp"
#include "check/checksum_code.hpp"
#include "check/conclusion.hpp"
#include "check/status.hpp"
#include "check/tokens.hpp"

namespace krcheck {
namespace {

using Polynomial = std::vector<BigInt>;

// a * b without the coefficients of degree >= size.
Polynomial multiply(const Polynomial& a, const Polynomial& b, std::size_t size) {
  Polynomial product(std::min(size, a.size() + b.size() - 1), BigInt(0));
  for (std::size_t i = 0; i < a.size() && i < product.size(); ++i) {
    if (a[i] == 0) continue;
    for (std::size_t j = 0; j < b.size() && i + j < product.size(); ++j)
      if (b[j] != 0) product[i + j] += a[i] * b[j];
  }
  return product;
}

// base^exponent without the coefficients of degree >= size, by repeated squaring.
Polynomial polynomial_power(Polynomial base, std::uint64_t exponent, std::size_t size) {
  Polynomial result(1, BigInt(1));
  while (true) {
    if (exponent % 2 == 1) result = multiply(result, base, size);
    exponent /= 2;
    if (exponent == 0) return result;
    base = multiply(base, base, size);
  }
}

// Z[y]/(y^p - c): p coefficients.
struct Ring {
  int period;
  BigInt c;

  Polynomial multiply(const Polynomial& a, const Polynomial& b) const {
    const auto p = static_cast<std::size_t>(period);
    Polynomial low(p, BigInt(0)), high(p, BigInt(0));  // high[t] stands for y^(p + t)
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < p; ++j) (i + j < p ? low[i + j] : high[i + j - p]) += a[i] * b[j];
    for (std::size_t t = 0; t < p; ++t) low[t] += high[t] * c;
    return low;
  }
  Polynomial power(Polynomial base, std::uint64_t exponent) const {
    Polynomial result(static_cast<std::size_t>(period), BigInt(0));
    result[0] = 1;
    while (true) {
      if (exponent % 2 == 1) result = multiply(result, base);
      exponent /= 2;
      if (exponent == 0) return result;
      base = multiply(base, base);
    }
  }
  // The reversal y^d P(1/y) of P (degree <= d = counts.size() - 1), by Horner's rule.
  Polynomial reversed(const Polynomial& counts) const {
    Polynomial value(static_cast<std::size_t>(period), BigInt(0));
    for (const BigInt& coefficient : counts) {  // value = value * y + coefficient
      BigInt wrapped = value.back() * c;
      for (std::size_t t = value.size() - 1; t > 0; --t) value[t] = std::move(value[t - 1]);
      wrapped += coefficient;
      value[0] = std::move(wrapped);
    }
    return value;
  }
};

// Where R_n(g)^(2 power) becomes geometric: w(g + period) = ratio * w(g) for all g >= start.
struct GeometricTail {
  int start = 0;
  int period = 1;
  BigInt ratio;
};

// Parts g >= 7 never help: the split 3 + (g - 3) gives (n-2)^2 * 2 (g - 4) >= (n-2)(g - 1).
// So R(G) = max_{g = 2..6} (n-2)(g-1) R(G - g) for G >= 6, a recurrence on the last six
// values, and once six consecutive values are q times the six p before them, so is every
// later value (induction). Looks for such a window up to `max_gap`; nullopt if none.
std::optional<GeometricTail> geometric_tail(AmplificationTable& table, int max_gap, int power) {
  for (int top = 7; top <= max_gap; ++top)
    for (int period = 1; period <= 6 && top - period - 5 >= 2; ++period) {
      const BigInt& before = table.factor(top - period);
      if (table.factor(top) % before != 0) continue;
      const BigInt q = table.factor(top) / before;
      bool window = true;
      for (int i = 1; i <= 5 && window; ++i)
        window = table.factor(top - i) == q * table.factor(top - period - i);
      if (window) return GeometricTail{top - period - 5, period, pow(q, 2U * power)};
    }
  return std::nullopt;
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

ProductSums product_sums(const std::vector<BlockCounts>& blocks, int n, int power) {
  ProductSums sums;
  sums.rows = 1;
  BigInt all_pairs = 1;     // P(1) = prod_b P_b(1)^copies: every ordered pair, x = y included
  std::size_t max_gap = 0;  // the product's degree is at most the sum of the blocks' degrees
  for (const BlockCounts& block : blocks) {
    if (block.counts.size() > 1 && block.counts[1] != 0)
      throw std::logic_error("a block's pair polynomial has pairs at gap 1");
    const auto copies = static_cast<unsigned>(block.copies);  // at most m
    sums.rows *= pow(block.counts[0], copies);
    BigInt block_pairs = 0;
    for (const BigInt& count : block.counts) block_pairs += count;
    all_pairs *= pow(block_pairs, copies);
    // Counts are >= 0, so the product's smallest gap is the smallest of one block.
    for (std::size_t g = 2; g < block.counts.size(); ++g)
      if (block.counts[g] != 0) {
        if (sums.smallest == 0 || static_cast<int>(g) < sums.smallest)
          sums.smallest = static_cast<int>(g);
        break;
      }
    max_gap += (block.counts.size() - 1) * block.copies;
  }
  sums.pairs = all_pairs - sums.rows;

  // Sigma = sum_g count_g / w(g), w(g) = R_n(g)^(2 power). Below the geometric tail the
  // coefficients count_g come from the product truncated there; the tail's classes
  // g = start + r (mod p) from the product of the reversed polynomials in Z[y]/(y^p - c).
  AmplificationTable amplification(n);
  const auto weight = [&](int g) {
    return pow(amplification.factor_squared(g), static_cast<unsigned>(power));
  };
  const std::optional<GeometricTail> tail =
      geometric_tail(amplification, static_cast<int>(max_gap), power);
  const std::size_t start = tail ? static_cast<std::size_t>(tail->start) : max_gap + 1;
  Polynomial low(1, BigInt(1));
  for (const BlockCounts& block : blocks)
    low = multiply(low, polynomial_power(block.counts, block.copies, start), start);
  BigInt common = 1;  // the lcm of the weights below start + p
  const std::size_t top = tail ? start + static_cast<std::size_t>(tail->period) : low.size();
  for (std::size_t g = 2; g < top; ++g) common = lcm(common, weight(static_cast<int>(g)));
  if (!tail) {
    sums.sigma_denominator = common;
    sums.sigma_numerator = 0;
    for (std::size_t g = 2; g < low.size(); ++g)
      sums.sigma_numerator += low[g] * (common / weight(static_cast<int>(g)));
    return sums;
  }
  const Ring ring{tail->period, tail->ratio};
  const auto p = static_cast<std::size_t>(tail->period);
  // reversed[t] = sum over g with (max_gap - g) = t (mod p) of count_g c^((max_gap - g) div p)
  Polynomial reversed(p, BigInt(0));
  reversed[0] = 1;
  for (const BlockCounts& block : blocks)
    reversed = ring.multiply(reversed, ring.power(ring.reversed(block.counts), block.copies));
  for (std::size_t g = 0; g < low.size(); ++g)  // the gaps below start leave the tail
    reversed[(max_gap - g) % p] -= low[g] * pow(ring.c, static_cast<unsigned>((max_gap - g) / p));
  // Gap g = start + r + p a has w(g) = w(start + r) c^a and max_gap - g = E - r - p a,
  // E = max_gap - start: its class sits at (E - r) mod p with c^((E - r) div p - a).
  const std::size_t e = max_gap - start;
  sums.sigma_denominator = common * pow(ring.c, static_cast<unsigned>(e / p));
  sums.sigma_numerator = 0;
  for (std::size_t g = 2; g < low.size(); ++g)
    sums.sigma_numerator += low[g] * (sums.sigma_denominator / weight(static_cast<int>(g)));
  for (std::size_t r = 0; r < p && r <= e; ++r)
    sums.sigma_numerator += reversed[(e - r) % p] * (common / weight(static_cast<int>(start + r))) *
                            pow(ring.c, static_cast<unsigned>(e / p - (e - r) / p));
  return sums;
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

BigInt check_trace_product(const Certificate& cert, std::ostream& out) {
  for (const ProductBlock& block : cert.blocks)
    out << "c block (line " << block.line << "): " << block_name(block) << ", copies "
        << block.copies << "\n";
  std::vector<BlockCounts> blocks;
  for (const ProductBlock& block : cert.blocks)
    blocks.push_back({block.checksum ? checksum_pair_counts(block.length, block.weight)
                                     : explicit_pair_counts(cert, block),
                      block.copies});
  const int power = cert.hadamard_power;
  const ProductSums sums = product_sums(blocks, cert.n, power);
  const BigInt& rows = sums.rows;
  out << "c rows: N = " << rows << " (product of the block sizes), " << sums.pairs
      << " ordered pairs of distinct rows, every gap >= 2"
      << (sums.smallest != 0 ? ", the smallest " + std::to_string(sums.smallest) : std::string())
      << "\n";
  // T = N^2 / (N + num/den) = N^2 den / (N den + num): no gcd of the large terms.
  const BigInt t_numerator = rows * rows * sums.sigma_denominator;
  const BigInt t_denominator = rows * sums.sigma_denominator + sums.sigma_numerator;
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  const BigInt computed = scale * t_numerator / t_denominator;  // floor: both positive
  out << "c computed sum: " << computed << " = floor(2^" << cert.precision
      << " * T), T = N^2 / (N + Sigma) = " << truncated_decimal(t_numerator, t_denominator, 6)
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
