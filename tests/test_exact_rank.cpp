// Exact rank (Bareiss) against naive Gaussian elimination over the rationals.
#include "kernelrank/core/exact_rank.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace kernelrank;

namespace {

// Textbook elimination with rational pivots: an independent reference.
std::size_t naive_rank(std::vector<std::vector<Rational>> a) {
  std::size_t rank = 0;
  const std::size_t rows = a.size(), cols = rows ? a[0].size() : 0;
  for (std::size_t c = 0; c < cols && rank < rows; ++c) {
    std::size_t p = rank;
    while (p < rows && a[p][c] == 0) ++p;
    if (p == rows) continue;
    std::swap(a[p], a[rank]);
    for (std::size_t i = 0; i < rows; ++i) {
      if (i == rank || a[i][c] == 0) continue;
      const Rational f = a[i][c] / a[rank][c];
      for (std::size_t j = c; j < cols; ++j) a[i][j] -= f * a[rank][j];
    }
    ++rank;
  }
  return rank;
}

}  // namespace

TEST_CASE("rank: hand-worked matrices") {
  using M = std::vector<std::vector<Rational>>;
  CHECK(exact_rank(M{}) == 0);
  CHECK(exact_rank(M{{0, 0}, {0, 0}}) == 0);
  CHECK(exact_rank(M{{1, 2}, {2, 4}}) == 1);
  CHECK(exact_rank(M{{Rational(1, 2), Rational(1, 3)}, {Rational(1, 4), Rational(1, 6)}}) == 1);
  CHECK(exact_rank(M{{0, 1, 0}, {0, 0, 1}, {0, 1, 1}}) == 2);  // a zero first column
  CHECK(exact_rank(M{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}) == 3);
}

TEST_CASE("rank: random low-rank products agree with naive elimination") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t rows = 2 + rng() % 9, cols = 2 + rng() % 9, inner = 1 + rng() % 6;
    std::vector<std::vector<Rational>> u(rows, std::vector<Rational>(inner)),
        v(inner, std::vector<Rational>(cols));
    for (auto& r : u)
      for (auto& x : r)
        x = Rational(static_cast<long>(rng() % 7) - 3, static_cast<long>(1 + rng() % 5));
    for (auto& r : v)
      for (auto& x : r)
        x = Rational(static_cast<long>(rng() % 7) - 3, static_cast<long>(1 + rng() % 5));
    std::vector<std::vector<Rational>> product(rows, std::vector<Rational>(cols));
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t k = 0; k < inner; ++k) product[i][j] += u[i][k] * v[k][j];
    const std::size_t r = exact_rank(product);
    CHECK(r == naive_rank(product));
    CHECK(r <= inner);
  }
}
