// Exact rank of a rational matrix by fraction-free (Bareiss) elimination.
//
// Rows are first scaled to integers; Bareiss keeps every intermediate an exact
// integer (each division is exact), so no gcd is needed per operation.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <vector>

namespace kernelrank {

std::size_t exact_rank(const std::vector<std::vector<Rational>>& matrix);

}  // namespace kernelrank
