// Fuzz target: parse_token and parse_index_list (0/1 strings and "{1,4,7}" lists).
// The first byte picks the width for the index list (and the expected width of the 0/1
// form); the rest is the text. Properties: accepted tokens round-trip through both text
// forms and keep every bit beyond the width clear; rejections name a position in the text.
#include "fuzz_support.hpp"

#include "kernelrank/core/token.hpp"

namespace {

using kernelrank::Token;

// Bits past the width must be zero, or equality and hashing break.
bool canonical(const Token& token) {
  const int width = token.width();
  if (width % 64 == 0 || token.words().empty()) return true;
  return (token.words().back() >> (width % 64)) == 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int width = data[0] % 2 == 0 ? data[0] / 2 : 64 + data[0];  // 0..127 and 65..319
  const std::string text = fuzz_bytes(data + 1, size - 1);
  try {
    const Token token = kernelrank::parse_token(text);
    FUZZ_REQUIRE(canonical(token));
    FUZZ_REQUIRE(token.to_string() == text);
    FUZZ_REQUIRE(kernelrank::parse_index_list(token.to_index_list(), token.width()) == token);
    FUZZ_REQUIRE(kernelrank::parse_token(text, token.width()) == token);
  } catch (const kernelrank::TokenParseError& e) {
    FUZZ_REQUIRE(e.position() <= text.size());
  }
  try {
    const Token token = kernelrank::parse_index_list(text, width);
    FUZZ_REQUIRE(token.width() == width);
    FUZZ_REQUIRE(canonical(token));
    FUZZ_REQUIRE(kernelrank::parse_index_list(token.to_index_list(), width) == token);
    FUZZ_REQUIRE(kernelrank::parse_token(token.to_string(), width) == token);
  } catch (const kernelrank::TokenParseError& e) {
    FUZZ_REQUIRE(e.position() <= text.size());
  }
  return 0;
}
