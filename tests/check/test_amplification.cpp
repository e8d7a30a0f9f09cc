// R_N(G) against brute force over all compositions, and hand-computed values.
#include <doctest/doctest.h>

#include <stdexcept>

#include "check/amplification.hpp"
#include "test_support.hpp"

TEST_CASE("amplification: the table equals brute force over compositions, G <= 30, N = 3..6") {
  for (int n = 3; n <= 6; ++n) {
    krcheck::AmplificationTable table(n);
    for (int gap = 0; gap <= 30; ++gap) {
      if (gap == 1) continue;
      const std::uint64_t expected = krcheck_test::brute_force_amplification(n, gap);
      CAPTURE(n);
      CAPTURE(gap);
      REQUIRE(expected > 0);
      CHECK(table.factor(gap) == krcheck::BigInt(expected));
      CHECK(table.factor_squared(gap) == krcheck::BigInt(expected) * krcheck::BigInt(expected));
    }
  }
}

TEST_CASE("amplification: hand-computed values") {
  krcheck::AmplificationTable n3(3);
  // N = 3: a part g contributes g - 1. R(2) = 1, R(3) = 2, R(4) = 3 (4 beats 2+2 = 1*1),
  // R(8) = 9 (4+4), R(12) = 27 (4+4+4), R(0) = 1 (empty chain).
  CHECK(n3.factor(0) == 1);
  CHECK(n3.factor(2) == 1);
  CHECK(n3.factor(3) == 2);
  CHECK(n3.factor(4) == 3);
  CHECK(n3.factor(8) == 9);
  CHECK(n3.factor(12) == 27);
  krcheck::AmplificationTable n4(4);
  // N = 4: a part g contributes 2(g-1). R(4): 4 -> 6, 2+2 -> 4, so 6.
  // R(6): 6 -> 10, 4+2 -> 6*2 = 12, 3+3 -> 4*4 = 16, 2+2+2 -> 8, so 16.
  CHECK(n4.factor(4) == 6);
  CHECK(n4.factor(6) == 16);
}

TEST_CASE("amplification: no factor for G = 1 or negative gaps") {
  krcheck::AmplificationTable table(3);
  CHECK_THROWS_AS(table.factor(1), std::logic_error);
  CHECK_THROWS_AS(table.factor(-2), std::logic_error);
  CHECK_THROWS_AS(krcheck::AmplificationTable(2), std::logic_error);
}

TEST_CASE("amplification: strictly increasing in G for G >= 2 (lengthen the last part)") {
  // If G = g_1 + ... + g_t is optimal, G + 1 = g_1 + ... + (g_t + 1) multiplies the last
  // factor by g_t / (g_t - 1) > 1, so R(G+1) > R(G).
  krcheck::AmplificationTable table(3);
  for (int gap = 2; gap < 300; ++gap) CHECK(table.factor(gap + 1) > table.factor(gap));
}
