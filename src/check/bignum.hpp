// Exact integers and rationals: GMP through Boost.Multiprecision, expression templates off
// (with them on, `auto x = a + b;` keeps references to temporaries). No floating point
// appears anywhere in the checker.
#pragma once

#include <boost/multiprecision/gmp.hpp>
#include <string>

namespace krcheck {

using BigInt =
    boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

// "p/q" in lowest terms, or "p" when the denominator is 1.
inline std::string to_text(const Rational& value) {
  const BigInt den = boost::multiprecision::denominator(value);
  const BigInt num = boost::multiprecision::numerator(value);
  return den == 1 ? num.str() : num.str() + "/" + den.str();
}

// value = num/den written with `digits` decimals, truncated toward zero (value >= 0).
inline std::string truncated_decimal(const BigInt& num, const BigInt& den, unsigned digits) {
  BigInt scale = 1;
  for (unsigned k = 0; k < digits; ++k) scale *= 10;
  const BigInt scaled = num * scale / den;
  const BigInt whole = scaled / scale;
  std::string fraction = (scaled % scale).str();
  fraction.insert(0, digits - fraction.size(), '0');
  return whole.str() + (digits > 0 ? "." + fraction : "");
}

}  // namespace krcheck
