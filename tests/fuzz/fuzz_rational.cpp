// Fuzz target: parse_rational (exact numbers in model files and JSON strings).
// Properties: an accepted number prints in lowest terms and reads back equal; a rejected
// one names a position inside the text (or 0 for an empty or over-long text).
#include "fuzz_support.hpp"

#include "kernelrank/core/rational.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz_bytes(data, size);
  try {
    const kernelrank::Rational value = kernelrank::parse_rational(text);
    const std::string canonical = kernelrank::to_string(value);
    FUZZ_REQUIRE(kernelrank::parse_rational(canonical) == value);
    FUZZ_REQUIRE(kernelrank::to_string(kernelrank::parse_rational(canonical)) == canonical);
    FUZZ_REQUIRE(boost::multiprecision::denominator(value) > 0);
  } catch (const kernelrank::RationalParseError& e) {
    FUZZ_REQUIRE(e.position() <= text.size());
  }
  return 0;
}
