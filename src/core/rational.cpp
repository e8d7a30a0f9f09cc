#include "kernelrank/core/rational.hpp"

#include <gmp.h>

namespace kernelrank {
namespace {

constexpr std::size_t kMaxTextLength = 1'000'000;
constexpr long kMaxExponent = 100'000;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Consumes a run of digits starting at `pos`; returns the end position.
std::size_t scan_digits(std::string_view text, std::size_t pos) {
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  return pos;
}

Integer integer_from_digits(std::string_view digits) {
  Integer value;
  if (digits.empty()) return value;
  // mpz_set_str needs a NUL-terminated string.
  std::string copy(digits);
  mpz_set_str(value.backend().data(), copy.c_str(), 10);
  return value;
}

Integer power_of_ten(unsigned long exponent) {
  Integer value;
  mpz_ui_pow_ui(value.backend().data(), 10, exponent);
  return value;
}

}  // namespace

RationalParseError::RationalParseError(std::size_t position, const std::string& message)
    : std::runtime_error(message), position_(position) {}

Rational parse_rational(std::string_view text) {
  if (text.empty()) throw RationalParseError(0, "expected a number, found nothing");
  if (text.size() > kMaxTextLength)
    throw RationalParseError(0, "number longer than 1,000,000 characters");
  std::size_t pos = 0;
  bool negative = false;
  if (text[pos] == '+' || text[pos] == '-') {
    negative = text[pos] == '-';
    ++pos;
  }
  const std::size_t int_begin = pos;
  pos = scan_digits(text, pos);
  const std::string_view int_digits = text.substr(int_begin, pos - int_begin);

  Integer numerator;
  Integer denominator = 1;
  if (pos < text.size() && text[pos] == '/') {
    if (int_digits.empty()) throw RationalParseError(pos, "expected digits before '/'");
    const std::size_t den_begin = pos + 1;
    const std::size_t den_end = scan_digits(text, den_begin);
    if (den_end == den_begin) throw RationalParseError(den_begin, "expected digits after '/'");
    if (den_end != text.size())
      throw RationalParseError(
          den_end, std::string("unexpected character '") + text[den_end] + "' after fraction");
    numerator = integer_from_digits(int_digits);
    denominator = integer_from_digits(text.substr(den_begin, den_end - den_begin));
    if (denominator == 0) throw RationalParseError(den_begin, "zero denominator");
  } else {
    std::string_view frac_digits;
    if (pos < text.size() && text[pos] == '.') {
      const std::size_t frac_begin = pos + 1;
      pos = scan_digits(text, frac_begin);
      frac_digits = text.substr(frac_begin, pos - frac_begin);
    }
    if (int_digits.empty() && frac_digits.empty())
      throw RationalParseError(int_begin, "expected digits");
    long exponent = 0;
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      std::size_t exp_pos = pos + 1;
      bool exp_negative = false;
      if (exp_pos < text.size() && (text[exp_pos] == '+' || text[exp_pos] == '-')) {
        exp_negative = text[exp_pos] == '-';
        ++exp_pos;
      }
      const std::size_t exp_end = scan_digits(text, exp_pos);
      if (exp_end == exp_pos) throw RationalParseError(exp_pos, "expected exponent digits");
      if (exp_end - exp_pos > 6) throw RationalParseError(exp_pos, "exponent too large");
      exponent = std::stol(std::string(text.substr(exp_pos, exp_end - exp_pos)));
      if (exponent > kMaxExponent) throw RationalParseError(exp_pos, "exponent too large");
      if (exp_negative) exponent = -exponent;
      pos = exp_end;
    }
    if (pos != text.size())
      throw RationalParseError(pos, std::string("unexpected character '") + text[pos] + "'");
    std::string all_digits(int_digits);
    all_digits.append(frac_digits);
    numerator = integer_from_digits(all_digits);
    exponent -= static_cast<long>(frac_digits.size());
    if (exponent >= 0) {
      numerator *= power_of_ten(static_cast<unsigned long>(exponent));
    } else {
      denominator = power_of_ten(static_cast<unsigned long>(-exponent));
    }
  }
  if (negative) numerator = -numerator;
  return make_rational(numerator, denominator);
}

Rational make_rational(const Integer& num, const Integer& den) {
  if (den == 0) throw std::invalid_argument("make_rational: zero denominator");
  Rational value;
  mpq_set_num(value.backend().data(), num.backend().data());
  mpq_set_den(value.backend().data(), den.backend().data());
  mpq_canonicalize(value.backend().data());
  return value;
}

std::string to_string(const Rational& value) {
  if (denominator(value) == 1) return numerator(value).str();
  return numerator(value).str() + "/" + denominator(value).str();
}

std::string to_string(const Integer& value) { return value.str(); }

Integer floor_of(const Rational& value) {
  Integer result;
  mpz_fdiv_q(result.backend().data(), mpq_numref(value.backend().data()),
             mpq_denref(value.backend().data()));
  return result;
}

Integer ceil_of(const Rational& value) {
  Integer result;
  mpz_cdiv_q(result.backend().data(), mpq_numref(value.backend().data()),
             mpq_denref(value.backend().data()));
  return result;
}

std::string to_decimal(const Rational& value, int digits) {
  if (digits < 0 || digits > 10000) throw std::invalid_argument("to_decimal: digits out of range");
  Integer scale = power_of_ten(static_cast<unsigned long>(digits));
  const bool negative = value < 0;
  const Rational scaled = abs_of(value) * scale;
  // Round half up: floor(x + 1/2).
  Integer rounded = floor_of(scaled + Rational(1, 2));
  Integer whole = rounded / scale;
  Integer fraction = rounded % scale;
  std::string text = (negative && rounded != 0 ? "-" : "") + whole.str();
  if (digits > 0) {
    std::string frac = fraction.str();
    text += "." + std::string(static_cast<std::size_t>(digits) - frac.size(), '0') + frac;
  }
  return text;
}

Rational abs_of(const Rational& value) { return value < 0 ? Rational(-value) : value; }

}  // namespace kernelrank

namespace kernelrank {

std::string to_scientific(const Rational& value, int digits) {
  if (digits < 0 || digits > 1000)
    throw std::invalid_argument("to_scientific: digits out of range");
  if (value == 0) return "0";
  const bool negative = value < 0;
  Rational magnitude = abs_of(value);
  // The exponent e with 10^e <= |value| < 10^(e+1), found exactly.
  long exponent = 0;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++exponent;
  }
  while (magnitude < 1) {
    magnitude *= 10;
    --exponent;
  }
  std::string mantissa = to_decimal(magnitude, digits);
  if (mantissa.rfind("10", 0) == 0) {  // rounding carried over to 10.0...
    mantissa = to_decimal(magnitude / 10, digits);
    ++exponent;
  }
  return (negative ? "-" : "") + mantissa + "e" + std::to_string(exponent);
}

}  // namespace kernelrank
