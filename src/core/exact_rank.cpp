#include "kernelrank/core/exact_rank.hpp"

#include <gmp.h>

#include <stdexcept>

namespace kernelrank {

std::size_t exact_rank(const std::vector<std::vector<Rational>>& matrix) {
  if (matrix.empty()) return 0;
  const std::size_t rows = matrix.size();
  const std::size_t cols = matrix.front().size();
  // Scale each row by the lcm of its denominators: rank is unchanged.
  std::vector<std::vector<Integer>> a(rows, std::vector<Integer>(cols));
  for (std::size_t i = 0; i < rows; ++i) {
    if (matrix[i].size() != cols) throw std::invalid_argument("exact_rank: ragged matrix");
    Integer lcm = 1;
    for (const Rational& x : matrix[i])
      mpz_lcm(lcm.backend().data(), lcm.backend().data(), mpq_denref(x.backend().data()));
    for (std::size_t j = 0; j < cols; ++j)
      a[i][j] = numerator(matrix[i][j]) * (lcm / denominator(matrix[i][j]));
  }
  std::size_t rank = 0;
  Integer previous_pivot = 1;
  for (std::size_t col = 0; col < cols && rank < rows; ++col) {
    std::size_t pivot = rank;
    while (pivot < rows && a[pivot][col] == 0) ++pivot;
    if (pivot == rows) continue;
    std::swap(a[pivot], a[rank]);
    for (std::size_t i = rank + 1; i < rows; ++i) {
      for (std::size_t j = col + 1; j < cols; ++j) {
        // Bareiss step: the division by the previous pivot is exact.
        a[i][j] = (a[rank][col] * a[i][j] - a[i][col] * a[rank][j]) / previous_pivot;
      }
      a[i][col] = 0;
    }
    previous_pivot = a[rank][col];
    ++rank;
  }
  return rank;
}

std::optional<std::vector<std::vector<Rational>>> exact_solve(
    const std::vector<std::vector<Rational>>& a, const std::vector<std::vector<Rational>>& b) {
  const std::size_t k = a.size();
  if (b.size() != k) throw std::invalid_argument("exact_solve: A and B have different row counts");
  const std::size_t columns = k == 0 ? 0 : b.front().size();
  // The augmented matrix [A | B], reduced to [I | X].
  std::vector<std::vector<Rational>> work(k);
  for (std::size_t i = 0; i < k; ++i) {
    if (a[i].size() != k) throw std::invalid_argument("exact_solve: A is not square");
    if (b[i].size() != columns) throw std::invalid_argument("exact_solve: B is ragged");
    work[i] = a[i];
    work[i].insert(work[i].end(), b[i].begin(), b[i].end());
  }
  for (std::size_t col = 0; col < k; ++col) {
    std::size_t pivot = col;
    while (pivot < k && work[pivot][col] == 0) ++pivot;
    if (pivot == k) return std::nullopt;
    std::swap(work[pivot], work[col]);
    const Rational inverse = 1 / work[col][col];
    for (Rational& x : work[col]) x *= inverse;
    for (std::size_t i = 0; i < k; ++i) {
      if (i == col || work[i][col] == 0) continue;
      const Rational factor = work[i][col];
      for (std::size_t j = col; j < k + columns; ++j) work[i][j] -= factor * work[col][j];
    }
  }
  std::vector<std::vector<Rational>> x(k);
  for (std::size_t i = 0; i < k; ++i)
    x[i].assign(work[i].begin() + static_cast<std::ptrdiff_t>(k), work[i].end());
  return x;
}

}  // namespace kernelrank
