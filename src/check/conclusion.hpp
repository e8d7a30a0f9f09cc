// From a recomputed rule value to the verdict: compare with the `sum` line, derive the
// bound the rule allows and compare the claim with it (docs/certificate-format.md, Rules).
//
// Trace rule (theory.md L4, column form of the Schur bound): with row-normalised
// N[i][j] = M[i][j]/M[i][i] and 0 <= N[i][j] < 1/rho_ij, rank M >= sum_j 1/||column j||^2
// > sum_j 1/(1 + c_j) >= T when there are off-diagonal entries (two rows or more), so
// r >= floor(T) + 1; with a single row only r >= 1 follows.
// Dominance rule: all row sums <= 1 make N strictly diagonally dominant, so r >= rows.
// The order and inherit rules (order_rule, inherit_rule) compare their claims here too.
#pragma once

#include <ostream>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

// Prints the bound the rule gives and throws CheckError when the claim exceeds it.
void check_claim(const Certificate& cert, const BigInt& bound, const std::string& rule,
                 std::ostream& out);

// floor(2^precision / one_plus_c) for a positive rational one_plus_c.
BigInt trace_term(const Rational& one_plus_c, int precision);

// Each returns the bound that follows, after printing the summary lines; throws
// CheckError when the sum differs or the claim exceeds the bound.
BigInt conclude_trace(const Certificate& cert, const BigInt& computed_sum, std::ostream& out);
BigInt conclude_dominance(const Certificate& cert, const Rational& max_row_sum, std::ostream& out);

}  // namespace krcheck
