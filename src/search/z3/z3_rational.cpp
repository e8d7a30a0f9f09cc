#include "search/z3/z3_rational.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::detail {

z3::expr z3_real(z3::context& ctx, const Rational& value) {
  return ctx.real_val(to_string(value).c_str());
}

Rational rational_from_z3(const z3::expr& numeral) {
  if (!numeral.is_numeral())
    throw InternalError("Z3 returned a non-numeral value: " + numeral.to_string());
  if (numeral.is_algebraic())
    throw InternalError("Z3 returned an irrational algebraic number: " + numeral.to_string());
  const std::string text = Z3_get_numeral_string(numeral.ctx(), numeral);
  try {
    return parse_rational(text);
  } catch (const RationalParseError& e) {
    throw InternalError("cannot read Z3 numeral '" + text + "': " + e.what());
  }
}

}  // namespace kernelrank::detail
