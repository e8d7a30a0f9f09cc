// The dependence rule of format 2 (docs/certificate-format.md, "rule dependence").
//
// With at most R features the R + 1 query feature vectors phi_Q(q_i) are linearly
// dependent: sum_i lambda_i alpha(q_i, z) = 0 for every key z, some lambda != 0. A cover
// c with keys A, B and one L2 step per nonzero sign (c_i = '+': alpha(q_i,A) > alpha(q_i,B),
// '-': the reverse) makes sum_i lambda_i (alpha(q_i,A) - alpha(q_i,B)) strictly positive
// whenever sign(lambda) agrees with c on its support, and strictly negative when -sign(lambda)
// does; either contradicts 0 - 0. So r >= R + 1 once every possible sign(lambda) is covered.
// In the cube a one-signed lambda is impossible anyway (alpha >= 0 everywhere and
// alpha(q,q) > 0), so only the patterns with both signs need covers; in a family all do.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"
#include "check/family.hpp"

namespace krcheck {

struct DependenceDecision {
  bool all_covered = false;
  std::string uncovered;       // when not: the first uncovered required pattern
  std::uint64_t required = 0;  // required patterns, counting t and -t once
};

// `covers` are sign strings over + - 0 of `length` characters (1 .. kMaxDependenceRank + 1),
// none all 0. A pattern t != 0 is covered when some cover c, or -c, agrees with t wherever t
// is nonzero. Required: every t with both a '+' and a '-'; with `one_signed_required` (a
// family task) every t != 0. The patterns are scanned in lexicographic order with
// '0' < '+' < '-', so the reported one starts with '+' after its zeros.
DependenceDecision decide_dependence_covers(std::size_t length,
                                            const std::vector<std::string>& covers,
                                            bool one_signed_required);

// The whole rule: positions, every step (against `family`, or null for the cube), each
// cover's steps, the coverage decision, the claim. Returns the bound R + 1.
BigInt check_dependence_rule(const Certificate& cert, const Family* family, std::ostream& out);

}  // namespace krcheck
