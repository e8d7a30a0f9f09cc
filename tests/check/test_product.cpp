// Rule trace-product (format 3): the checksum-class closed form against brute force, and the
// product's exact T against a direct enumeration of every pair of rows.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "check/amplification.hpp"
#include "check/checksum_code.hpp"
#include "check/product_rule.hpp"
#include "test_support.hpp"

using krcheck::BigInt;
using krcheck::Rational;
using krcheck_test::Run;
using krcheck_test::run_text;

namespace {

// The words of GS(length, weight, residue) as bit masks, by enumeration.
std::vector<std::uint32_t> checksum_words(int length, int weight, int residue) {
  std::vector<std::uint32_t> words;
  for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << length); ++mask) {
    if (std::popcount(mask) != weight) continue;
    int sum = 0;
    for (int i = 0; i < length; ++i)
      if ((mask >> i & 1U) != 0) sum += i;
    if (sum % length == residue) words.push_back(mask);
  }
  return words;
}

std::vector<BigInt> brute_force_counts(const std::vector<std::uint64_t>& words, int weight) {
  std::vector<BigInt> counts(static_cast<std::size_t>(weight) + 1, BigInt(0));
  std::vector<std::uint64_t> tally(static_cast<std::size_t>(weight) + 1, 0);
  for (const std::uint64_t a : words)
    for (const std::uint64_t b : words)
      ++tally[static_cast<std::size_t>(weight - std::popcount(a & b))];
  for (std::size_t g = 0; g < tally.size(); ++g) counts[g] = BigInt(tally[g]);
  return counts;
}

std::string word_text(std::uint64_t mask, int length) {
  std::string text;
  for (int i = 0; i < length; ++i) text += (mask >> i & 1U) != 0 ? '1' : '0';
  return text;
}

// T = N^2 / (N + sum over ordered pairs of distinct rows of R_n(G)^-2), pair by pair.
Rational direct_trace(const std::vector<std::uint64_t>& rows, int weight, int n) {
  krcheck::AmplificationTable table(n);
  Rational sigma = 0;
  std::vector<std::uint64_t> tally(static_cast<std::size_t>(weight) + 1, 0);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows.size(); ++j)
      if (i != j) ++tally[static_cast<std::size_t>(weight - std::popcount(rows[i] & rows[j]))];
  REQUIRE(tally[0] == 0);
  REQUIRE(tally[1] == 0);
  for (std::size_t g = 2; g < tally.size(); ++g)
    if (tally[g] != 0)
      sigma += Rational(BigInt(tally[g]), table.factor_squared(static_cast<int>(g)));
  const Rational count(BigInt(rows.size()));
  return count * count / (count + sigma);
}

// The rows of a product: every choice of one word per block copy, concatenated.
std::vector<std::uint64_t> product_rows(const std::vector<std::vector<std::uint64_t>>& blocks,
                                        const std::vector<int>& lengths) {
  std::vector<std::uint64_t> rows{0};
  int offset = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    std::vector<std::uint64_t> next;
    for (const std::uint64_t row : rows)
      for (const std::uint64_t word : blocks[b]) next.push_back(row | word << offset);
    rows = std::move(next);
    offset += lengths[b];
  }
  return rows;
}

// The weight-4 words of the extended Hamming code of length 8 (14 words, distance 4).
std::vector<std::uint64_t> hamming_weight4() {
  std::vector<std::uint64_t> words;
  for (std::uint64_t mask = 0; mask < 256; ++mask) {
    if (std::popcount(mask) != 4) continue;
    // parity checks of the [8,4,4] code: positions 1..7 by their binary digits, plus 0
    int syndrome = 0;
    for (int i = 1; i < 8; ++i)
      if ((mask >> i & 1U) != 0) syndrome ^= i;
    if (syndrome == 0) words.push_back(mask);
  }
  return words;
}

std::string product_certificate(int m, int n, const std::string& blocks, std::size_t count,
                                const Rational& t, int precision, const std::string& claim) {
  const BigInt sum =
      (BigInt(1) << static_cast<unsigned>(precision)) * numerator(t) / denominator(t);
  return "kernelrank-certificate 3\ntask cube m=" + std::to_string(m) + " n=" + std::to_string(n) +
         " mode=first class=NK positions=independent\nrule trace-product precision=" +
         std::to_string(precision) + "\nblocks " + std::to_string(count) + "\n" + blocks + "sum " +
         sum.str() + "\nclaim r >= " + claim + "\nend\n";
}

std::string explicit_block(const std::vector<std::uint64_t>& words, int length, int copies) {
  std::string text = "block explicit length=" + std::to_string(length) +
                     " copies=" + std::to_string(copies) +
                     " words=" + std::to_string(words.size()) + "\n";
  for (const std::uint64_t w : words) text += "word " + word_text(w, length) + "\n";
  return text;
}

}  // namespace

TEST_CASE("trace-product: the checksum-class closed form equals brute force, L = 5..20") {
  for (int length = 5; length <= 20; ++length) {
    for (int weight = 1; weight < length; ++weight) {
      if (std::gcd(weight, length) != 1) continue;
      // all weights up to L = 14; beyond, the heaviest classes only near L/2 (time)
      if (length > 14 && weight != length / 2 && weight != (length + 1) / 2 && weight != 3)
        continue;
      CAPTURE(length);
      CAPTURE(weight);
      const std::vector<BigInt> closed = krcheck::checksum_pair_counts(length, weight);
      for (const int residue : {0, length - 1}) {
        std::vector<std::uint64_t> words;
        for (const std::uint32_t w : checksum_words(length, weight, residue)) words.push_back(w);
        CHECK(closed == brute_force_counts(words, weight));
      }
    }
  }
}

TEST_CASE("trace-product: T of small products equals direct pair enumeration") {
  const std::vector<std::uint64_t> hamming = hamming_weight4();
  REQUIRE(hamming.size() == 14);
  std::vector<std::uint64_t> gs73;
  for (const std::uint32_t w : checksum_words(7, 3, 2)) gs73.push_back(w);
  struct Case {
    std::vector<std::vector<std::uint64_t>> blocks;
    std::vector<int> lengths;
    std::string text;
    std::size_t count;
    int n;
  };
  const std::vector<Case> cases = {
      {{hamming, hamming, hamming}, {8, 8, 8}, explicit_block(hamming, 8, 3), 1, 3},
      {{hamming, gs73, gs73},
       {8, 7, 7},
       explicit_block(hamming, 8, 1) + "block checksum length=7 weight=3 residue=2 copies=2\n",
       2,
       3},
      {{gs73, hamming},
       {7, 8},
       "block checksum length=7 weight=3 residue=2 copies=1\n" + explicit_block(hamming, 8, 1),
       2,
       5},
  };
  for (const Case& c : cases) {
    const int m = std::accumulate(c.lengths.begin(), c.lengths.end(), 0);
    int weight = 0;
    for (const auto& block : c.blocks) weight += std::popcount(block.front());
    const Rational t = direct_trace(product_rows(c.blocks, c.lengths), weight, c.n);
    const BigInt bound = numerator(t) / denominator(t) + 1;
    CAPTURE(c.text);
    const auto ok =
        krcheck_test::run_text(product_certificate(m, c.n, c.text, c.count, t, 40, bound.str()));
    CHECK(ok.status() == krcheck::Status::verified);
    const auto strong = krcheck_test::run_text(
        product_certificate(m, c.n, c.text, c.count, t, 40, (bound + 1).str()));
    CHECK(strong.status() == krcheck::Status::not_verified);
  }
  // The figure for three copies of the (8,4,4) words: r >= 17 at m = 24.
  const Rational t = direct_trace(product_rows({hamming, hamming, hamming}, {8, 8, 8}), 12, 3);
  CHECK(numerator(t) / denominator(t) + 1 == 17);
}

namespace {

std::string product_cert(int m, const std::string& power, const std::vector<std::string>& words,
                         const std::string& sum, int claim) {
  std::string text = "kernelrank-certificate 3\ntask cube m=" + std::to_string(m) +
                     " n=3 mode=first class=NK positions=independent\n"
                     "rule trace-product precision=64" +
                     power + "\nblocks 1\nblock explicit length=" + std::to_string(m) +
                     " copies=1 words=" + std::to_string(words.size()) + "\n";
  for (const std::string& w : words) text += "word " + w + "\n";
  return text + "sum " + sum + "\nclaim r >= " + std::to_string(claim) + "\nend\n";
}

}  // namespace

// docs/certificate-format.md: the comment lines name the rows, the ordered pairs and their
// smallest gap, the power and the rule. Every figure here is worked out by hand.
TEST_CASE("trace-product: the comment lines state rows, pairs, smallest gap, power and rule") {
  const std::string rows_line = "c rows: N = ";
  SUBCASE("two rows at gap 2, k = 2: T_4 = 4 / (2 + 2 * 1^-4) = 1, and C(2, 2) = 1 <= 1 < 3") {
    const Run run =
        run_text(product_cert(4, " power=2", {"1100", "0011"}, "18446744073709551616", 2));
    CHECK(run.status() == krcheck::Status::verified);
    CHECK(run.out.find(rows_line + "2 (product of the block sizes), 2 ordered pairs of distinct "
                                   "rows, every gap >= 2, the smallest 2\n") != std::string::npos);
    CHECK(run.out.find("c Hadamard power k = 2: T is T_2k, with R_n(g)^-4\n") != std::string::npos);
    CHECK(run.result.bound == "2");  // what kernelrank's certificate gate reads
    CHECK(run.out.find("c bound: r >= 2 (trace-product rule, power 2: the smallest r with "
                       "C(r + k - 1, k) > floor(T_2k))") != std::string::npos);
  }
  SUBCASE("two rows at gap 4, k = 1: R_3(4) = 3, T = 4 / (2 + 2/9) = 9/5, r >= 2") {
    const Run run =
        run_text(product_cert(8, "", {"11110000", "00001111"}, "33204139332677192908", 2));
    CHECK(run.status() == krcheck::Status::verified);
    CHECK(run.out.find(", the smallest 4\n") != std::string::npos);
    CHECK(run.out.find("c Hadamard power") == std::string::npos);
    CHECK(run.out.find("c bound: r >= 2 (trace-product rule: floor(T) + 1)") != std::string::npos);
  }
  SUBCASE("one row: T = 1, but a single row certifies only r >= 1") {
    const Run one = run_text(product_cert(4, "", {"1100"}, "18446744073709551616", 1));
    CHECK(one.status() == krcheck::Status::verified);
    CHECK(one.out.find(rows_line + "1 (product of the block sizes), 0 ordered pairs of distinct "
                                   "rows, every gap >= 2\n") != std::string::npos);
    CHECK(one.out.find("c bound: r >= 1 (trace-product rule, single row)") != std::string::npos);
    const Run two = run_text(product_cert(4, "", {"1100"}, "18446744073709551616", 2));
    CHECK(two.status() == krcheck::Status::not_verified);
  }
}

// product_sums works from the truncated product and residues mod y^p - c; here the whole
// product is expanded and every gap weighted one by one.
TEST_CASE("trace-product: the sums without expansion equal the full product's, n = 3..1000") {
  using krcheck::BlockCounts;
  const std::vector<BigInt> hamming = brute_force_counts(hamming_weight4(), 4);
  // Two disjoint words of weight w (ordered pairs at gap w: 2), and one word of weight w.
  const auto pair = [](std::size_t w) {
    std::vector<BigInt> counts(w + 1, BigInt(0));
    counts[0] = counts[w] = 2;
    return counts;
  };
  const auto single = [](std::size_t w) {
    std::vector<BigInt> counts(w + 1, BigInt(0));
    counts[0] = 1;
    return counts;
  };
  const std::vector<std::vector<BlockCounts>> products = {
      // Gaps 4, 16, 20 up to degree 22 and gaps 5, 8, 13 up to 14: R_3's first six-value
      // window ends at 22 and R_4's at 14, and the five-value windows just before them are
      // false (tests/check/product_reference.py). The first block's smallest gap is the larger.
      {{pair(16), 1}, {pair(4), 1}, {single(2), 1}},
      {{pair(8), 1}, {pair(5), 1}, {single(1), 1}},
      {{krcheck::checksum_pair_counts(31, 15), 3}},
      {{krcheck::checksum_pair_counts(29, 14), 2}, {hamming, 5}, {{BigInt(1)}, 1}},
      {{krcheck::checksum_pair_counts(40, 21), 1}, {krcheck::checksum_pair_counts(9, 4), 7}},
      {{hamming, 1}},  // degree 4: below any geometric tail
  };
  for (std::size_t index = 0; index < products.size(); ++index)
    for (const int n : {3, 4, 5, 6, 7, 10, 1000})
      for (int power = 1; power <= 3; ++power) {
        CAPTURE(index);
        CAPTURE(n);
        CAPTURE(power);
        std::vector<BigInt> total{BigInt(1)};
        for (const BlockCounts& block : products[index])
          for (std::uint64_t copy = 0; copy < block.copies; ++copy) {
            std::vector<BigInt> next(total.size() + block.counts.size() - 1, BigInt(0));
            for (std::size_t i = 0; i < total.size(); ++i)
              for (std::size_t j = 0; j < block.counts.size(); ++j)
                next[i + j] += total[i] * block.counts[j];
            total = std::move(next);
          }
        krcheck::AmplificationTable table(n);
        Rational sigma = 0;
        BigInt pairs = 0;
        int smallest = 0;
        for (std::size_t g = 2; g < total.size(); ++g) {
          if (total[g] == 0) continue;
          pairs += total[g];
          if (smallest == 0) smallest = static_cast<int>(g);
          sigma += Rational(total[g], pow(table.factor_squared(static_cast<int>(g)),
                                          static_cast<unsigned>(power)));
        }
        const krcheck::ProductSums sums = krcheck::product_sums(products[index], n, power);
        CHECK(sums.rows == total[0]);
        CHECK(sums.pairs == pairs);
        CHECK(sums.smallest == smallest);
        CHECK(Rational(sums.sigma_numerator, sums.sigma_denominator) == sigma);
      }
}
