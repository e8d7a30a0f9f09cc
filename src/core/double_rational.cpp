// Exact float -> rational conversion with integer arithmetic only: frexp splits a double into
// a 53-bit integer mantissa and a power of two; half and bfloat16 are decoded from their bits.
#include "kernelrank/core/double_rational.hpp"

#include <cmath>
#include <cstring>

namespace kernelrank {
namespace {

// mantissa * 2^exponent, exactly.
Rational scaled_by_power_of_two(const Integer& mantissa, long exponent) {
  if (exponent >= 0) {
    Integer scaled = mantissa;
    scaled <<= static_cast<unsigned long>(exponent);
    return Rational(scaled);
  }
  Integer denominator = 1;
  denominator <<= static_cast<unsigned long>(-exponent);
  return make_rational(mantissa, denominator);
}

}  // namespace

Rational rational_from_double(double value) {
  if (std::isnan(value)) throw NonFiniteError("NaN is not a rational number");
  if (std::isinf(value)) throw NonFiniteError("infinity is not a rational number");
  if (value == 0.0) return Rational(0);
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent
  // |fraction| in [0.5, 1): scaling by 2^53 gives the mantissa as an exact integer.
  const double scaled = std::ldexp(fraction, 53);
  const auto mantissa = static_cast<long long>(scaled);
  return scaled_by_power_of_two(Integer(mantissa), static_cast<long>(exponent) - 53);
}

Rational rational_from_half_bits(std::uint16_t bits) {
  const bool negative = (bits & 0x8000U) != 0;
  const unsigned exponent_bits = (bits >> 10) & 0x1FU;
  const unsigned fraction_bits = bits & 0x3FFU;
  if (exponent_bits == 0x1FU)
    throw NonFiniteError(fraction_bits != 0 ? "NaN is not a rational number"
                                            : "infinity is not a rational number");
  // Subnormals: 0.fraction * 2^-14; normals: 1.fraction * 2^(e-15).
  const long mantissa = exponent_bits == 0 ? fraction_bits : (fraction_bits | 0x400U);
  const long exponent = exponent_bits == 0 ? -24 : static_cast<long>(exponent_bits) - 25;
  const Rational magnitude = scaled_by_power_of_two(Integer(mantissa), exponent);
  return negative ? Rational(-magnitude) : magnitude;
}

Rational rational_from_bfloat16_bits(std::uint16_t bits) {
  // bfloat16 is the upper half of a binary32, so widening is exact.
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
  float value = 0;
  std::memcpy(&value, &wide, sizeof value);
  return rational_from_double(static_cast<double>(value));
}

}  // namespace kernelrank
