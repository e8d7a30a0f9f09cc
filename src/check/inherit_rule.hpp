// The inherit rule of format 2 (docs/certificate-format.md, "rule inherit").
//
// Padding every token of T(m',n) with M - m' zero coordinates gives instances of T(M,n)
// with the same query positions, overlaps and targets. A model that solves T(M,n) therefore
// restricts to a model of the same class, with no more features, that solves T(m',n): a
// bound proven for T(m',n) (same n, mode and positions) holds for T(M,n). A bound for NK
// covers PF, not the other way round.
#pragma once

#include <ostream>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

// After the embedded certificate has been verified: compares its task with the outer one
// and the outer claim with the embedded claim, which it returns as the bound.
BigInt conclude_inherit(const Certificate& cert, std::ostream& out);

}  // namespace krcheck
