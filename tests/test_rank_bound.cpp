// Trace and dominance rank bounds (theory.md L4) against exact ranks and hand values.
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace kernelrank;

TEST_CASE("rank-bound: the trace bound never exceeds the exact rank") {
  // Random nonnegative matrices M = U V^T of small rank with a positive diagonal.
  // Their true ratios M_ii / M_ij, shrunk slightly, are valid factors rho_ij
  // (M_ii > rho_ij M_ij holds strictly), so rank M > T must hold.
  std::mt19937_64 rng(11);
  int nontrivial = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t N = 3 + rng() % 6, k = 1 + rng() % 4;
    std::vector<std::vector<Rational>> U(N, std::vector<Rational>(k)),
        V(N, std::vector<Rational>(k));
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t t = 0; t < k; ++t) {
        // Sparse-ish entries make large ratios (and so large T) likely.
        U[i][t] = (rng() % 3 == 0) ? Rational(0) : Rational(static_cast<long>(1 + rng() % 9));
        V[i][t] = (rng() % 3 == 0) ? Rational(0) : Rational(static_cast<long>(1 + rng() % 9));
      }
    std::vector<std::vector<Rational>> M(N, std::vector<Rational>(N));
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j)
        for (std::size_t t = 0; t < k; ++t) M[i][j] += U[i][t] * V[j][t];
    bool diagonal_positive = true;
    for (std::size_t i = 0; i < N; ++i) diagonal_positive = diagonal_positive && M[i][i] > 0;
    if (!diagonal_positive) continue;
    std::vector<std::vector<Rational>> rho(N, std::vector<Rational>(N, Rational(1)));
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        if (i == j) continue;
        // Zero entries allow any factor; take a large one.
        rho[i][j] =
            M[i][j] == 0 ? Rational(1000) : Rational(M[i][i] / M[i][j] * Rational(999, 1000));
      }
    const Rational T = trace_bound_value(rho);
    const std::size_t rank = exact_rank(M);
    CAPTURE(trial);
    CHECK(Rational(static_cast<long>(rank)) > T);
    if (T > 1) ++nontrivial;
  }
  CHECK(nontrivial > 20);  // the check is not vacuous
}

TEST_CASE("rank-bound: two disjoint words, worked by hand") {
  // c_1 = 11110000, c_2 = 00001111, complement queries: G = 4 both ways, R_3(4) = 3,
  // c_j = 1/9, T = 2 * 9/10 = 9/5 (rounded down at 2^-64), so r >= 2.
  const std::vector<BoundRow> rows =
      complement_rows({parse_token("11110000"), parse_token("00001111")});
  const RankBoundResult trace = certify_rank_bound(rows, 3, BoundRule::Trace);
  REQUIRE(trace.applicable);
  CHECK(trace.bound == 2);
  Integer expected = 1;
  expected <<= 64;
  expected = (expected * 9 / 10) * 2;  // floor(2^64 * 9/10) per column
  CHECK(trace.trace_sum == expected);
  // Dominance: each row sum 1/3 <= 1, so full rank 2.
  const RankBoundResult dominance = certify_rank_bound(rows, 3, BoundRule::Dominance);
  REQUIRE(dominance.applicable);
  CHECK(dominance.max_row_sum == Rational(1, 3));
  CHECK(dominance.bound == 2);
}

TEST_CASE("rank-bound: gaps below 2 make the rows unusable") {
  // 1100 and 1010 are at distance 2: gap 1.
  const RankBoundResult r = certify_rank_bound(
      complement_rows({parse_token("1100"), parse_token("1010")}), 3, BoundRule::Trace);
  CHECK_FALSE(r.applicable);
  CHECK(r.bound == 0);
  CHECK(r.reason.find("gap 1") != std::string::npos);
}

TEST_CASE("rank-bound: uniform codes match theory.md's N^2/(N + sum rho^-2)") {
  // The Golay octads are distance-transitive: every column sum is the same,
  // so the weighted bound equals the uniform one. Octad distances 8, 12, 16 give
  // gaps 4, 6, 8 with R_3 = 3, 5, 9; counts per word 280, 448, 30 (from the
  // distance distribution, each unordered pair counted once per word).
  const Code octads = golay_octads();
  const RankBoundResult r = certify_rank_bound(complement_rows(octads.words), 3, BoundRule::Trace);
  REQUIRE(r.applicable);
  const CodeStatistics stats = code_statistics(octads);
  Rational per_column = 0;
  const std::map<int, Rational> inverse_square{
      {8, Rational(1, 9)}, {12, Rational(1, 25)}, {16, Rational(1, 81)}};
  for (const auto& [d, pairs] : stats.distance_distribution)
    per_column += inverse_square.at(d) * Rational(static_cast<long>(2 * pairs), 759);
  const Rational uniform = Rational(759 * 759) / (759 + 759 * per_column);
  CHECK(r.trace_value() <= uniform);
  CHECK(uniform - r.trace_value() < Rational(759, 1) / (Integer(1) << 64).convert_to<Rational>());
  CHECK(r.bound == floor_of(uniform) + 1);
}

TEST_CASE("rank-bound: the trace bound rewards spreading: weighted >= uniform") {
  // With unequal column sums, sum_j 1/(1 + c_j) >= N^2 / (N + sum_j c_j) (Jensen).
  std::vector<std::vector<Rational>> rho{{0, 2, 3}, {5, 0, 7}, {2, 9, 0}};
  Rational sum_c = 0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      if (i != j) sum_c += 1 / (rho[i][j] * rho[i][j]);
  CHECK(trace_bound_value(rho) >= Rational(9) / (3 + sum_c));
}
