#include "kernelrank/bounds/exact_rank.hpp"

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

}  // namespace kernelrank
