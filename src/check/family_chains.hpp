// The rules over an explicit family (docs/certificate-format.md, "family").
//
// A step (query Q at position p, tokens A, B, count K) is usable when the family holds
// S1 = (Q, A^(N-1)), S2 = (Q, B^(N-1)) and S3_K = (Q, A^K, B^(N-1-K)); then L2 gives
// alpha(Q,A) > f alpha(Q,B) with f = (N-1-K)(g-1)/K, g = <Q,B> - <Q,A> >= 2. A `pair`
// line chains steps from c_i to c_j under the query q_i; rho_ij is the product of the
// factors (L3). The rules then use rho_ij exactly as the cube rules use R_N(G_ij).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"
#include "check/family.hpp"

namespace krcheck {

// The checks of one step that need no instance (position allowed by the mode, g >= 2,
// 1 <= K <= N-2, f >= 1); returns f. In the cube, where every instance exists, they are
// all there is to check.
Rational step_factor(const Certificate& cert, const Step& step);

// Checks the family's header against the task, then every step in order; returns the
// factor of each step. Throws CheckError at the first failure.
std::vector<Rational> check_steps(const Certificate& cert, const Family& family);

// The common start of the order and dependence rules, which rest on L2 facts alone: refuses
// positions=dependent (naming `rule`), then checks every step, against the family when there
// is one, whether or not the rule uses it.
void check_fact_steps(const Certificate& cert, const Family* family, const std::string& rule,
                      std::ostream& out);

// Checks every pair line (one per ordered pair i != j, chains that link) and returns
// rho_ij for each pair line, in file order.
std::vector<Rational> check_chains(const Certificate& cert,
                                   const std::vector<Rational>& step_factors);

BigInt family_trace_sum(const Certificate& cert, const std::vector<Rational>& rho);
Rational family_dominance_max_row_sum(const Certificate& cert, const std::vector<Rational>& rho);

}  // namespace krcheck
