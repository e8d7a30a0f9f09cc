// Rule shifted-trace (format 3, family tasks; docs/certificate-format.md, "Format 3: the
// shifted trace rule"; the lemma is proved in docs/bounds.md, "A sharper rank inequality").
//
// What it proves. Let N = diag(M)^-1 M be the row-normalised kernel matrix of the rows
// (q_i, c_i): N[j][j] = 1 and, from the verified chains, 0 <= N[i][j] < 1/rho_ij (i != j).
// The trace rule uses only |N[i][j]| < 1/rho_ij. The entries are also >= 0: under PF every
// kernel value is, and under NK the kernel is >= 0 wherever the task uses it, and the pair
// (q_i, c_j) is used: the chain's last step is S2 = (q_i, c_j^(n-1)), a family instance the
// checker has found. So each entry lies in [0, 1/rho_ij), an interval centred away from 0.
//
// Why. Subtract W = t J (J all ones, 0 < t < 1, rank 1): B = N - W has diagonal 1 - t and
// off-diagonal entries in [-t, 1/rho_ij - t), so |B[i][j]| <= e_ij = max(t, 1/rho_ij - t).
// For any real square X, tr(X)^2 <= rank(X) ||X||_F^2; applied to B D with column weights
// d_j = (1 - t) / ((1 - t)^2 + C_j), C_j = sum_{i != j} e_ij^2, it gives
// rank B >= T_W = sum_j (1 - t)^2 / ((1 - t)^2 + C_j). Rank is subadditive, so
// r >= rank N >= rank B - 1 >= ceil(T_W) - 1.
//
// What the checker computes. C_j exactly, each term floor(2^P (1-t)^2 / ((1-t)^2 + C_j))
// (rounding down only lowers the sum), S = the sum of the terms, which must equal the stated
// sum, and the bound ceil(S / 2^P) - 1 <= ceil(T_W) - 1. The strict inequalities are not
// used, hence ceil instead of the trace rule's floor + 1. Position-dependent maps are
// refused by the parser: their summed key kernels are not covered by the argument above.
#pragma once

#include <ostream>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

// e^2 with e = max(t, 1/rho - t): the largest |N[i][j] - t| for N[i][j] in [0, 1/rho).
Rational shifted_error_squared(const Rational& rho, const Rational& shift);

// S = sum_j floor(2^P (1-t)^2 / ((1-t)^2 + C_j)) over the rows, C_j summed over the pair
// lines of column j (rho as check_chains returns it, in file order).
BigInt family_shifted_sum(const Certificate& cert, const std::vector<Rational>& rho);

// Compares S with the stated sum and the claim with ceil(S / 2^P) - 1; returns that bound.
BigInt conclude_shifted_trace(const Certificate& cert, const BigInt& computed_sum,
                              std::ostream& out);

}  // namespace krcheck
