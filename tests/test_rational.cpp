// Tests for the exact rational parser and helpers (include/kernelrank/core/rational.hpp).
//
// Expected values are built with Boost arithmetic on small integers or by a
// naive digit-by-digit re-implementation here, never from parse_rational itself.
#include "kernelrank/core/rational.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

using kernelrank::ceil_of;
using kernelrank::floor_of;
using kernelrank::Integer;
using kernelrank::make_rational;
using kernelrank::parse_rational;
using kernelrank::Rational;
using kernelrank::RationalParseError;

namespace {

// p/q built by Boost division of integers (which canonicalises), independent of
// make_rational and parse_rational.
Rational ratio(long long p, long long q) { return Rational(p) / Rational(q); }

// Naive decimal-digit accumulation, independent of mpz_set_str.
Integer naive_integer(const std::string& digits) {
  Integer value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

Integer naive_power_of_ten(int exponent) {
  Integer value = 1;
  for (int i = 0; i < exponent; ++i) value *= 10;
  return value;
}

// The position reported for a rejected text; fails the test if nothing is thrown.
std::size_t rejected_at(const std::string& text) {
  try {
    (void)parse_rational(text);
  } catch (const RationalParseError& e) {
    return e.position();
  }
  FAIL("parse_rational accepted '" << text << "'");
  return 0;
}

}  // namespace

TEST_CASE("rational: malformed numbers are rejected with RationalParseError") {
  const std::vector<std::string> bad = {
      "2/0",     "1/2/3",     "abc",      "0.1.2",     "",        " 1",    "1 ",    "+",
      "-",       "1/",        "/2",       "3/-4",      "1e",      "1e+",   "--1",   "0x10",
      "1.2.3e4", "1e9999999", ".",        "e5",        "1.e",     "1/2.5", "1/2e3", "1_000",
      "inf",     "nan",       "1e5.5",    "0/0",       "1,5",     "+-1",   "1/+2",  "\t1",
      "1\n",     "1e-",       "1e100001", "1e-100001", "\xd9\xa1" /* Arabic-Indic digit one */};
  for (const std::string& text : bad) {
    CAPTURE(text);
    CHECK_THROWS_AS((void)parse_rational(text), RationalParseError);
  }
}

TEST_CASE("rational: rejection positions point at the first offending character") {
  CHECK(rejected_at("1/2/3") == 3);
  CHECK(rejected_at("0.1.2") == 3);
  CHECK(rejected_at("1.2.3e4") == 3);
  CHECK(rejected_at("2/0") == 2);
  CHECK(rejected_at("abc") == 0);
  CHECK(rejected_at("") == 0);
  CHECK(rejected_at(" 1") == 0);
  CHECK(rejected_at("1 ") == 1);
  CHECK(rejected_at("+") == 1);
  CHECK(rejected_at("-") == 1);
  CHECK(rejected_at("1/") == 2);
  CHECK(rejected_at("/2") == 0);
  CHECK(rejected_at("3/-4") == 2);
  CHECK(rejected_at("1e") == 2);
  CHECK(rejected_at("1e+") == 3);
  CHECK(rejected_at("--1") == 1);
  CHECK(rejected_at("0x10") == 1);
  CHECK(rejected_at("1e9999999") == 2);
  CHECK(rejected_at("12.5x") == 4);
}

TEST_CASE("rational: accepted forms are converted exactly and canonicalised") {
  struct Case {
    const char* text;
    long long num;
    long long den;
    const char* canonical;
  };
  const std::vector<Case> cases = {
      {"2/4", 1, 2, "1/2"},         {"-6/4", -3, 2, "-3/2"}, {"0/5", 0, 1, "0"},
      {"007", 7, 1, "7"},           {"1.25", 5, 4, "5/4"},   {"-0.5", -1, 2, "-1/2"},
      {".5", 1, 2, "1/2"},          {"5.", 5, 1, "5"},       {"2e-3", 1, 500, "1/500"},
      {"1.5E+2", 150, 1, "150"},    {"+3/9", 1, 3, "1/3"},   {"-0", 0, 1, "0"},
      {"-0/7", 0, 1, "0"},          {"1/007", 1, 7, "1/7"},  {"12e3", 12000, 1, "12000"},
      {"-1.5E+2", -150, 1, "-150"}, {"0.000", 0, 1, "0"},    {"5.e1", 50, 1, "50"},
      {"2.50e-1", 1, 4, "1/4"},     {"100/10", 10, 1, "10"}, {"-12", -12, 1, "-12"},
      {"1e0", 1, 1, "1"},           {"3E-0", 3, 1, "3"},     {"-.25", -1, 4, "-1/4"},
  };
  for (const Case& c : cases) {
    const std::string text = c.text;
    CAPTURE(text);
    const Rational value = parse_rational(c.text);
    CHECK(value == ratio(c.num, c.den));
    // Canonical form: lowest terms, positive denominator.
    CHECK(numerator(value) == c.num);
    CHECK(denominator(value) == c.den);
    CHECK(kernelrank::to_string(value) == c.canonical);
  }
}

TEST_CASE("rational: a 200-digit integer and fraction round-trip exactly") {
  std::string digits;
  for (int i = 0; i < 20; ++i) digits += "9876543210";
  digits[0] = '1';  // 200 digits, no leading zero
  REQUIRE(digits.size() == 200);
  const Integer expected = naive_integer(digits);

  const Rational value = parse_rational(digits);
  CHECK(denominator(value) == 1);
  CHECK(numerator(value) == expected);
  CHECK(kernelrank::to_string(value) == digits);
  CHECK(kernelrank::to_string(parse_rational("-" + digits)) == "-" + digits);

  // (2 * big) / (2 * 3) reduces to big / 3 whatever big's residue mod 3 is
  // (here 3 does not divide it, checked independently).
  const Integer doubled = expected * 2;
  REQUIRE(expected % 3 != 0);
  const Rational fraction = parse_rational(doubled.str() + "/6");
  CHECK(numerator(fraction) == expected);
  CHECK(denominator(fraction) == 3);
  CHECK(kernelrank::to_string(fraction) == digits + "/3");
}

TEST_CASE("rational: decimals with many digits are exact") {
  Rational sum = 0;
  const Rational tenth = parse_rational("0.1");
  for (int i = 0; i < 10; ++i) sum += tenth;
  CHECK(sum == 1);

  const std::string pi_digits = "31415926535897932384626433832795028841971693993751";
  const Rational pi = parse_rational("3." + pi_digits.substr(1));
  CHECK(pi * Rational(naive_power_of_ten(49)) == Rational(naive_integer(pi_digits)));
  // The denominator is 10^49 divided by gcd(10^49, digits); the digits end in 1,
  // so they are coprime to 10 and nothing cancels.
  CHECK(denominator(pi) == naive_power_of_ten(49));

  CHECK(parse_rational("0.333") + parse_rational("0.667") == 1);
  CHECK(parse_rational("1e-30") * parse_rational("1e30") == 1);
  CHECK(parse_rational("123.456e2") == ratio(123456, 10));
  CHECK(parse_rational("123.456e-2") == ratio(123456, 100000));
}

TEST_CASE("rational: exponent and length limits") {
  // |e| <= 100000 is accepted; beyond that rejected.
  const Rational big = parse_rational("1e100000");
  CHECK(denominator(big) == 1);
  CHECK(numerator(big).str().size() == 100001);
  const Rational tiny = parse_rational("1e-100000");
  CHECK(numerator(tiny) == 1);
  CHECK(denominator(tiny).str().size() == 100001);
  CHECK(big * tiny == 1);
  CHECK_THROWS_AS((void)parse_rational("1e100001"), RationalParseError);

  // The text limit is 1,000,000 characters.
  const std::string longest = "1" + std::string(999'999, '0');
  const Rational at_limit = parse_rational(longest);
  CHECK(numerator(at_limit).str() == longest);
  CHECK(rejected_at(longest + "0") == 0);
}

TEST_CASE("rational: floor_of and ceil_of") {
  struct Case {
    long long num;
    long long den;
    long long floor;
    long long ceil;
  };
  const std::vector<Case> cases = {
      {7, 2, 3, 4},    {-7, 2, -4, -3},   {6, 3, 2, 2},        {-6, 3, -2, -2},
      {0, 1, 0, 0},    {1, 3, 0, 1},      {-1, 3, -1, 0},      {5, 1, 5, 5},
      {-5, 1, -5, -5}, {999, 1000, 0, 1}, {-999, 1000, -1, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.num);
    CAPTURE(c.den);
    const Rational value = ratio(c.num, c.den);
    CHECK(floor_of(value) == c.floor);
    CHECK(ceil_of(value) == c.ceil);
  }
  // Big values: (10^60 + 1) / 10 and its negation.
  const Integer p = naive_power_of_ten(60) + 1;
  const Rational big = Rational(p) / 10;
  CHECK(floor_of(big) == naive_power_of_ten(59));
  CHECK(ceil_of(big) == naive_power_of_ten(59) + 1);
  CHECK(floor_of(Rational(-big)) == -(naive_power_of_ten(59) + 1));
  CHECK(ceil_of(Rational(-big)) == -naive_power_of_ten(59));
}

TEST_CASE("rational: make_rational canonicalises and rejects a zero denominator") {
  const Rational a = make_rational(Integer(6), Integer(-4));
  CHECK(numerator(a) == -3);
  CHECK(denominator(a) == 2);
  CHECK(a == ratio(-3, 2));

  const Rational b = make_rational(Integer(-10), Integer(-15));
  CHECK(numerator(b) == 2);
  CHECK(denominator(b) == 3);

  const Rational zero = make_rational(Integer(0), Integer(-9));
  CHECK(numerator(zero) == 0);
  CHECK(denominator(zero) == 1);
  CHECK(zero == 0);

  CHECK_THROWS_AS((void)make_rational(Integer(1), Integer(0)), std::invalid_argument);
  CHECK_THROWS_AS((void)make_rational(Integer(0), Integer(0)), std::invalid_argument);
}

TEST_CASE("rational: to_string and abs_of") {
  CHECK(kernelrank::to_string(ratio(-22, 7)) == "-22/7");
  CHECK(kernelrank::to_string(ratio(4, 2)) == "2");
  CHECK(kernelrank::to_string(Rational(0)) == "0");
  CHECK(kernelrank::to_string(Integer(-42)) == "-42");
  CHECK(kernelrank::abs_of(ratio(-3, 4)) == ratio(3, 4));
  CHECK(kernelrank::abs_of(ratio(3, 4)) == ratio(3, 4));
  CHECK(kernelrank::abs_of(Rational(0)) == 0);
  // to_string output parses back to the same value.
  for (const Rational& v : {ratio(-22, 7), ratio(1, 1000000007), ratio(-5, 1), Rational(0)})
    CHECK(parse_rational(kernelrank::to_string(v)) == v);
}

TEST_CASE("rational: to_decimal rounds half away from zero with a fixed number of places") {
  using kernelrank::to_decimal;
  CHECK(to_decimal(ratio(2, 5), 4) == "0.4000");
  CHECK(to_decimal(ratio(1, 3), 4) == "0.3333");
  CHECK(to_decimal(ratio(2, 3), 4) == "0.6667");
  CHECK(to_decimal(ratio(-2, 3), 4) == "-0.6667");
  CHECK(to_decimal(ratio(1, 8), 2) == "0.13");    // 0.125: the half rounds up
  CHECK(to_decimal(ratio(-1, 8), 2) == "-0.13");  // and symmetrically for negatives
  CHECK(to_decimal(ratio(5, 1), 0) == "5");
  CHECK(to_decimal(ratio(1, 2), 0) == "1");
  CHECK(to_decimal(ratio(-1, 2), 0) == "-1");
  CHECK(to_decimal(ratio(-1, 1000), 2) == "0.00");  // rounds to zero: no sign
  CHECK(to_decimal(ratio(123456789, 1000), 1) == "123456.8");
  CHECK(to_decimal(ratio(999, 1000), 2) == "1.00");  // carry into the integer part
  CHECK(to_decimal(ratio(1, 100), 3) == "0.010");
  CHECK(to_decimal(Rational(0), 3) == "0.000");
}
