// Gap domination factors, R_n(G) and cube chains (theory.md L2, L3).
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

#include <doctest/doctest.h>

#include <functional>

using namespace kernelrank;

namespace {

// Largest product over all compositions of G into parts >= 2, by plain
// enumeration (no dynamic programming): the independent reference for R_n(G).
std::optional<Integer> brute_force_R(int n, int G) {
  std::optional<Integer> best;
  std::function<void(int, Integer)> rec = [&](int left, Integer product) {
    if (left == 0) {
      if (!best || product > *best) best = product;
      return;
    }
    for (int g = 2; g <= left; ++g) rec(left - g, product * Integer((n - 2) * (g - 1)));
  };
  rec(G, Integer(1));
  return best;
}

}  // namespace

TEST_CASE("amplification: R_n(G) equals brute force over all splits, G <= 30, n = 3..6") {
  for (int n = 3; n <= 6; ++n) {
    const AmplificationTable table(n, 30);
    for (int G = 0; G <= 30; ++G) {
      const auto expected = brute_force_R(n, G);
      const auto& got = table.at(G);
      CAPTURE(n);
      CAPTURE(G);
      REQUIRE(got.has_value() == expected.has_value());
      if (!got) continue;
      CHECK(got->factor == *expected);
      // The recorded split is a genuine split achieving the factor.
      int sum = 0;
      Integer product = 1;
      for (int part : got->parts) {
        CHECK(part >= 2);
        sum += part;
        product *= Integer((n - 2) * (part - 1));
      }
      CHECK(sum == G);
      CHECK(product == got->factor);
    }
  }
}

TEST_CASE("amplification: values worked by hand for n = 3") {
  const AmplificationTable table(3, 12);
  CHECK_FALSE(table.at(1).has_value());  // a gap of 1 gives no bound
  CHECK(table.at(0)->factor == 1);
  CHECK(table.at(2)->factor == 1);    // one part of 2: factor 1
  CHECK(table.at(4)->factor == 3);    // 4 alone: 3; 2+2: 1
  CHECK(table.at(8)->factor == 9);    // 4+4 beats 8 (7) and 5+3 (8)
  CHECK(table.at(10)->factor == 16);  // 5+5
  CHECK(table.at(12)->factor == 27);  // 4+4+4 beats 6+6 (25)
  CHECK(gap_domination_factor(3, 4) == 3);
  CHECK(gap_domination_factor(5, 3, 2) == Rational(2 * 2, 2));
  CHECK(gap_domination_factor(6, 2, 3) == Rational(2, 3));
  CHECK_THROWS_AS(gap_domination_factor(3, 1), UsageError);
  CHECK_THROWS_AS(gap_domination_factor(3, 4, 2), UsageError);
}

TEST_CASE("amplification: cube chains realise every intermediate overlap") {
  const Token q = parse_token("111111111100");
  const Token from = parse_token("000000000011");  // <q,from> = 0
  const Token to = parse_token("111111110000");    // <q,to> = 8
  const std::vector<Token> chain = cube_chain(q, from, to, {4, 4});
  REQUIRE(chain.size() == 3);
  CHECK(chain.front() == from);
  CHECK(chain.back() == to);
  CHECK(inner(q, chain[1]) == 4);
  CHECK_THROWS_AS(cube_chain(q, from, to, {4, 3}), UsageError);
}

TEST_CASE("amplification: domination steps build S1, S2 and S3_k") {
  const Token q = parse_token("1111"), a = parse_token("0000"), b = parse_token("1110");
  const DominationStep step = domination_step(q, a, b, 4, 2);
  CHECK(step.s1.tokens == std::vector<Token>{q, a, a, a});
  CHECK(step.s2.tokens == std::vector<Token>{q, b, b, b});
  CHECK(step.s3.tokens == std::vector<Token>{q, a, a, b});
  CHECK(min_ip_target(step.s1) == 0);
  CHECK(min_ip_target(step.s2) == 3);
  CHECK(min_ip_target(step.s3) == 0);
}
