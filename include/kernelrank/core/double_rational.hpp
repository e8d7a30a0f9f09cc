// Exact conversion of binary floating-point numbers to rationals.
//
// Every finite IEEE-754 number is m * 2^e with integer m and e, so it is a dyadic rational
// that GMP holds exactly. Trained weights come in as doubles (or float32/16, bfloat16 from
// files) and go out as exact model files through these functions; nothing is rounded.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <cstdint>
#include <stdexcept>

namespace kernelrank {

// Thrown for NaN and infinities, which no rational represents.
class NonFiniteError : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

Rational rational_from_double(double value);
// IEEE binary16 and bfloat16 given by their bit patterns (as stored in files).
Rational rational_from_half_bits(std::uint16_t bits);
Rational rational_from_bfloat16_bits(std::uint16_t bits);

}  // namespace kernelrank
