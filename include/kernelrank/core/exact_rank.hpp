// Exact linear algebra over the rationals: the rank of a matrix by fraction-free (Bareiss)
// elimination, and the solution of a square system by Gauss-Jordan elimination.
//
// For the rank, rows are first scaled to integers; Bareiss keeps every intermediate an
// exact integer (each division is exact), so no gcd is needed per operation.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <optional>
#include <vector>

namespace kernelrank {

std::size_t exact_rank(const std::vector<std::vector<Rational>>& matrix);

// The X with A X = B for a square A (k x k) and B (k x c), exactly; nullopt when A is
// singular. Throws std::invalid_argument when the sizes do not fit.
std::optional<std::vector<std::vector<Rational>>> exact_solve(
    const std::vector<std::vector<Rational>>& a, const std::vector<std::vector<Rational>>& b);

}  // namespace kernelrank
