// The rules over the cube task (docs/certificate-format.md, "cube").
//
// In the cube every intermediate overlap is realised, so a pair of rows i != j is covered
// as soon as G_ij = <q_i,c_j> - <q_i,c_i> >= 2, with factor rho_ij = R_N(G_ij) (L3).
// Only gaps enter the sums, so each column (trace) or row (dominance) is reduced to a
// histogram gap -> count with popcounts alone; the exact arithmetic then costs one
// rational term per distinct gap, never per pair.
#pragma once

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

// S = sum_j floor(2^P / (1 + c_j)), c_j = sum_{i != j} R_N(G_ij)^-2. Throws CheckError
// at the first (in row order) pair with G_ij < 2. The columns are shared among `threads`
// workers (0: all hardware threads); the terms are summed in column order, exactly, so the
// result and the pair named on failure do not depend on the thread count.
BigInt cube_trace_sum(const Certificate& cert, int threads = 1);

// max_i sum_{j != i} 1/R_N(G_ij), after checking gaps >= 2 and every row sum <= 1.
Rational cube_dominance_max_row_sum(const Certificate& cert);

}  // namespace krcheck
