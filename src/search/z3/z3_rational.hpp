// Internal: exact conversions between kernelrank rationals and Z3 numerals.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <z3++.h>

namespace kernelrank::detail {

// A Z3 real constant with exactly this value (via the "p/q" string form).
z3::expr z3_real(z3::context& ctx, const Rational& value);
// The exact value of a rational numeral; throws InternalError for anything else
// (e.g. an irrational algebraic number, which callers must bracket instead).
Rational rational_from_z3(const z3::expr& numeral);

}  // namespace kernelrank::detail
