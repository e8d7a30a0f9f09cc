// Products of codes (product_bound.hpp): the producer's closed form for checksum classes
// against enumeration and against the checker's own implementation, the explicit codes,
// producer against checker on whole certificates, and every certified value below the
// ceiling U_n(m) of docs/bounds.md.
#include <doctest/doctest.h>

#include "check/checksum_code.hpp"
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/product_bound.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>

using namespace kernelrank;

namespace {

std::vector<Integer> enumerated_counts(int length, int weight, int residue) {
  std::vector<std::uint32_t> words;
  for (std::uint32_t mask = 0; mask < (std::uint32_t{1} << length); ++mask) {
    if (std::popcount(mask) != weight) continue;
    int sum = 0;
    for (int i = 0; i < length; ++i) sum += (mask >> i & 1U) != 0 ? i : 0;
    if (sum % length == residue) words.push_back(mask);
  }
  std::vector<Integer> counts(static_cast<std::size_t>(weight) + 1, Integer(0));
  for (const auto a : words)
    for (const auto b : words) counts[static_cast<std::size_t>(weight - std::popcount(a & b))] += 1;
  return counts;
}

// A rational beta_lo <= 1/rho_n = min_g ((n-2)(g-1))^(-1/g), checked exactly for g <= 400
// (beyond, beta^g (n-2)(g-1) only falls: its ratio from g to g+1 is beta g/(g-1) < 1).
Rational beta_lower(int n) {
  double beta = 1.0;
  for (int g = 2; g <= 400; ++g) beta = std::min(beta, std::pow((n - 2.0) * (g - 1.0), -1.0 / g));
  Rational lo(Integer(static_cast<long long>(std::floor(beta * 1e12)) - 1),
              Integer(1000000000000LL));
  Rational power = lo;
  for (int g = 2; g <= 400; ++g) {
    power *= lo;  // lo^g
    REQUIRE(power * (n - 2) * (g - 1) <= 1);
  }
  return lo;
}

// T < (2 / (1 + beta_lo))^m, which is >= U_n(m): a value at or above it is a bug.
bool below_ceiling(const Rational& value, int n, int m) {
  static std::map<int, Rational> ratios;
  if (ratios.count(n) == 0) ratios[n] = Rational(2) / (Rational(1) + beta_lower(n));
  Rational ceiling = 1;
  for (int t = 0; t < m; ++t) ceiling *= ratios[n];
  return value < ceiling;
}

}  // namespace

TEST_CASE("product source: the producer's checksum closed form equals enumeration, L = 5..16") {
  for (int length = 5; length <= 16; ++length)
    for (int weight = 1; weight < length; ++weight) {
      if (std::gcd(weight, length) != 1) continue;
      CAPTURE(length);
      CAPTURE(weight);
      CHECK(checksum_pair_counts(length, weight) == enumerated_counts(length, weight, 1));
    }
}

TEST_CASE("product source: producer and checker closed forms agree, L = 17..120") {
  for (int length = 17; length <= 120; length += 7)
    for (const int weight : {2, length / 2 - 1, length / 2, length / 2 + 1}) {
      if (std::gcd(weight, length) != 1) continue;
      CAPTURE(length);
      CAPTURE(weight);
      const std::vector<Integer> producer = checksum_pair_counts(length, weight);
      const std::vector<krcheck::BigInt> checker = krcheck::checksum_pair_counts(length, weight);
      REQUIRE(producer.size() == checker.size());
      for (std::size_t k = 0; k < producer.size(); ++k)
        CHECK(producer[k].str() == checker[k].str());
      // The counts add up to |class|^2 = (C(L,W)/L)^2.
      Integer total = 0;
      for (const Integer& c : producer) total += c;
      Integer words;
      mpz_bin_uiui(words.backend().data(), static_cast<unsigned long>(length),
                   static_cast<unsigned long>(weight));
      CHECK(total == (words / length) * (words / length));
    }
}

TEST_CASE("product source: the explicit codes have their sizes, constant weight, gaps >= 2") {
  CHECK(hamming8_weight4_words().size() == 14);
  CHECK(golay_dodecad_words().size() == 2576);
  for (const auto& words : {hamming8_weight4_words(), golay_dodecad_words()}) {
    const std::vector<Integer> counts = explicit_pair_counts(words);
    CHECK(counts[0] == Integer(words.size()));
    CHECK(counts[1] == 0);
  }
}

TEST_CASE("product source: producer and checker agree, and the issue's figures hold") {
  for (const int m : {9, 24, 48, 100, 161, 168, 200, 10000, 100000}) {
    CAPTURE(m);
    CertificateTask task;
    task.m = m;
    const std::vector<ProductBound> candidates = product_candidates(m, 3);
    const ProductBound& best = candidates.front();
    const CheckerVerdict verdict = run_checker(product_certificate(task, best), std::nullopt);
    CHECK(verdict.verified);
    CHECK(verdict.bound == best.bound.str());
    if (m == 161) CHECK(best.bound >= Integer(1000000000));  // GS(161,80): 1,001,439,784
    if (m == 168) CHECK(best.bound >= Integer(1000000000));  // Golay dodecads^7: 2.3e9
    const std::string digits = best.bound.str();
    const std::string figure = digits.substr(0, 4) + "e" + std::to_string(digits.size() - 1);
    if (m == 10000) CHECK(figure == "2590e560");    // GS(1429,714)^4 x GS(1428,715)^3
    if (m == 100000) CHECK(figure == "2045e5604");  // GS(1493,746)^36 x GS(1492,747)^31
    if (m == 24) {  // dodecads squared (L4'): T_4 = 264.99 and C(23, 2) = 253 <= 264 < C(24, 2)
      CHECK(best.bound == 23);
      CHECK(best.power == 2);
      CHECK(best.value > Rational(264));
      CHECK(best.value < Rational(265));
    }
  }
}

TEST_CASE("product source: a Hadamard power's bound is the least r with C(r + k - 1, k) > T_2k") {
  const auto binomial = [](long r, int k) {
    long value = 1;
    for (int i = 1; i <= k; ++i) value = value * (r + k - i) / i;
    return value;
  };
  for (const int m : {16, 24, 32}) {
    for (const ProductBound& candidate : product_candidates(m, 3)) {
      CAPTURE(m);
      CAPTURE(candidate.power);
      const long floor_t = static_cast<long>(candidate.sum >> candidate.precision);
      const long r = static_cast<long>(candidate.bound);
      CHECK(binomial(r, candidate.power) > floor_t);
      if (r > 1) CHECK(binomial(r - 1, candidate.power) <= floor_t);
    }
  }
}

TEST_CASE("product source: every certified value stays below the ceiling U_n(m)") {
  for (const int n : {3, 4, 6, 10}) {
    for (int m = 8; m <= 300; m += 41) {
      CAPTURE(n);
      CAPTURE(m);
      for (const ProductBound& candidate : product_candidates(m, n))
        if (candidate.power == 1)  // T_2k of a Hadamard power is not a trace-rule value
          CHECK(below_ceiling(candidate.value, n, m));
    }
  }
  // and m = 161 is the first width where the ceiling passes 10^9 (U(160) = 9.3e8)
  CHECK(below_ceiling(Rational(1000000000), 3, 161));
  CHECK_FALSE(below_ceiling(Rational(1000000000), 3, 160));
}

// evaluate_product weights the gaps past the geometric tail of R_n(g) by residue classes; here
// the product polynomial is expanded and every gap weighted one by one.
TEST_CASE("product source: T without expansion equals T of the expanded product") {
  const auto checksum = [](int length, int copies) {
    ProductBlock block;
    block.checksum = true;
    block.length = length;
    block.weight = length / 2 - (std::gcd(length / 2, length) == 1 ? 0 : 1);
    block.copies = static_cast<std::uint64_t>(copies);
    block.name = "GS(" + std::to_string(length) + "," + std::to_string(block.weight) + ",0)";
    return block;
  };
  ProductBlock hamming;
  hamming.name = "Hamming";
  hamming.words = hamming8_weight4_words();
  hamming.length = 8;
  hamming.weight = 4;
  hamming.copies = 5;
  const std::vector<std::vector<ProductBlock>> products = {
      {checksum(31, 3)}, {checksum(29, 2), hamming}, {checksum(40, 1), checksum(9, 7)}};
  for (const auto& blocks : products)
    for (const int n : {3, 4, 5, 7, 10, 1000})
      for (int power = 1; power <= 3; ++power) {
        CAPTURE(blocks.front().name);
        CAPTURE(n);
        CAPTURE(power);
        std::vector<Integer> total{Integer(1)};
        for (const ProductBlock& block : blocks) {
          const std::vector<Integer> counts = block.checksum
                                                  ? checksum_pair_counts(block.length, block.weight)
                                                  : explicit_pair_counts(block.words);
          for (std::uint64_t copy = 0; copy < block.copies; ++copy) {
            std::vector<Integer> next(total.size() + counts.size() - 1, Integer(0));
            for (std::size_t i = 0; i < total.size(); ++i)
              for (std::size_t j = 0; j < counts.size(); ++j) next[i + j] += total[i] * counts[j];
            total = std::move(next);
          }
        }
        const AmplificationTable table(n, static_cast<int>(total.size()) - 1);
        Rational sigma = 0;
        for (std::size_t g = 2; g < total.size(); ++g)
          sigma +=
              Rational(total[g]) / Rational(pow(table.at(static_cast<int>(g))->factor, 2U * power));
        const Rational rows(total[0]);
        CHECK(evaluate_product(blocks, n, 32, power).value == rows * rows / (rows + sigma));
      }
}
