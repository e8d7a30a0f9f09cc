// Exact rational and integer types used everywhere a verdict is computed.
//
// Boost.Multiprecision over GMP with expression templates off: with them on,
// `auto x = a + b;` holds references to temporaries. Parsing is strict and
// always canonicalises, because Boost's string constructor keeps "2/4" as 2/4.
#pragma once

#include <boost/multiprecision/gmp.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kernelrank {

using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;
using Integer =
    boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;

// A number that could not be parsed; `position` is the 0-based offset of the
// first offending character in the text handed to parse_rational.
class RationalParseError : public std::runtime_error {
 public:
  RationalParseError(std::size_t position, const std::string& message);
  std::size_t position() const { return position_; }

 private:
  std::size_t position_;
};

// Accepts, with an optional leading sign: integers ("-12"), fractions ("3/4";
// the denominator is positive and nonzero), and decimals with an optional
// exponent ("1.25", ".5", "2e-3", "-1.5E+2"), all converted exactly.
// Rejects everything else, including whitespace, "1/2/3", "0.1.2" and "2/0".
// Exponents are limited to |e| <= 100000 and the text to 1,000,000 characters
// so that a malicious file cannot request a gigantic power of ten.
Rational parse_rational(std::string_view text);

// "p/q" in lowest terms, or "p" when q = 1.
std::string to_string(const Rational& value);
std::string to_string(const Integer& value);

// Builds num/den in lowest terms; den must be nonzero.
Rational make_rational(const Integer& num, const Integer& den);

// Smallest integer >= value and largest integer <= value.
Integer floor_of(const Rational& value);
Integer ceil_of(const Rational& value);

// Decimal rendering rounded to `digits` places after the point, for display
// next to the exact value (computed with integers, e.g. "0.4000" for 2/5).
std::string to_decimal(const Rational& value, int digits);

// Scientific rendering for display of values far from 1, rounded half up to `digits` places
// of the mantissa: "3.90e-11" for digits = 2; "0" for zero.
std::string to_scientific(const Rational& value, int digits);

// |value| for rationals (Boost's abs is fine too; this keeps call sites short).
Rational abs_of(const Rational& value);

}  // namespace kernelrank
