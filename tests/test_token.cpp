// Tests for packed 0/1 tokens (include/kernelrank/core/token.hpp).
//
// Random tokens are drawn as plain std::vector<bool>; every packed operation is
// compared against a naive per-coordinate loop over those vectors.
#include "kernelrank/core/token.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

using kernelrank::parse_index_list;
using kernelrank::parse_token;
using kernelrank::Token;
using kernelrank::TokenHash;
using kernelrank::TokenParseError;

namespace {

using Bits = std::vector<bool>;

const std::vector<int> kWidths = {1, 2, 63, 64, 65, 127, 128, 129, 200, 4096};

Bits random_bits(std::mt19937_64& rng, int width, double density) {
  std::bernoulli_distribution coin(density);
  Bits bits(static_cast<std::size_t>(width));
  for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = coin(rng);
  return bits;
}

Token token_from_bits(const Bits& bits) {
  Token token(static_cast<int>(bits.size()));
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i]) token.set(static_cast<int>(i), true);
  return token;
}

std::string string_from_bits(const Bits& bits) {
  std::string text;
  for (bool b : bits) text += b ? '1' : '0';
  return text;
}

int naive_inner(const Bits& a, const Bits& b) {
  int total = 0;
  for (std::size_t i = 0; i < a.size(); ++i) total += (a[i] && b[i]) ? 1 : 0;
  return total;
}

int naive_distance(const Bits& a, const Bits& b) {
  int total = 0;
  for (std::size_t i = 0; i < a.size(); ++i) total += (a[i] != b[i]) ? 1 : 0;
  return total;
}

int naive_weight(const Bits& a) { return static_cast<int>(std::count(a.begin(), a.end(), true)); }

std::string naive_index_list(const Bits& a) {
  std::string text = "{";
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!a[i]) continue;
    if (text.size() > 1) text += ",";
    text += std::to_string(i + 1);
  }
  return text + "}";
}

// True when no bit at or above the token's width is set in its storage.
bool padding_is_zero(const Token& token) {
  const auto& words = token.words();
  if (words.size() != (static_cast<std::size_t>(token.width()) + 63) / 64) return false;
  const int used = token.width() % 64;
  if (used == 0 || words.empty()) return true;
  return (words.back() >> used) == 0;
}

std::size_t rejected_at(std::string_view text, int expected_width = -1) {
  try {
    (void)parse_token(text, expected_width);
  } catch (const TokenParseError& e) {
    return e.position();
  }
  FAIL("parse_token accepted '" << std::string(text) << "'");
  return 0;
}

std::size_t list_rejected_at(std::string_view text, int width) {
  try {
    (void)parse_index_list(text, width);
  } catch (const TokenParseError& e) {
    return e.position();
  }
  FAIL("parse_index_list accepted '" << std::string(text) << "' at width " << width);
  return 0;
}

}  // namespace

TEST_CASE("token: inner product, distance and weight match a naive loop") {
  std::mt19937_64 rng(20240611);
  for (int width : kWidths) {
    for (double density : {0.05, 0.5, 0.95}) {
      for (int trial = 0; trial < 8; ++trial) {
        CAPTURE(width);
        CAPTURE(density);
        const Bits a = random_bits(rng, width, density);
        const Bits b = random_bits(rng, width, 1.0 - density);
        const Token x = token_from_bits(a);
        const Token z = token_from_bits(b);
        REQUIRE(x.width() == width);
        for (int i = 0; i < width; ++i) REQUIRE(x.get(i) == a[static_cast<std::size_t>(i)]);
        CHECK(kernelrank::inner(x, z) == naive_inner(a, b));
        CHECK(kernelrank::inner(z, x) == naive_inner(a, b));
        CHECK(kernelrank::inner(x, x) == naive_weight(a));
        CHECK(kernelrank::distance(x, z) == naive_distance(a, b));
        CHECK(kernelrank::distance(x, x) == 0);
        CHECK(x.weight() == naive_weight(a));
        CHECK(padding_is_zero(x));
      }
    }
  }
}

TEST_CASE("token: all-ones and all-zero tokens at every width") {
  for (int width : kWidths) {
    CAPTURE(width);
    const Token zero(width);
    const Token ones = parse_token(std::string(static_cast<std::size_t>(width), '1'));
    CHECK(zero.weight() == 0);
    CHECK(ones.weight() == width);
    CHECK(kernelrank::inner(ones, ones) == width);
    CHECK(kernelrank::distance(zero, ones) == width);
    CHECK(padding_is_zero(ones));
  }
}

TEST_CASE("token: set and clear individual coordinates") {
  Token t(130);
  for (int i : {0, 63, 64, 127, 128, 129}) t.set(i, true);
  CHECK(t.weight() == 6);
  CHECK(t.get(64));
  t.set(64, false);
  CHECK_FALSE(t.get(64));
  CHECK(t.get(63));
  CHECK(t.get(127));
  t.set(63, true);  // setting a set bit keeps it set
  CHECK(t.weight() == 5);
  CHECK(t.to_index_list() == "{1,64,128,129,130}");
}

TEST_CASE("token: complement") {
  std::mt19937_64 rng(7);
  for (int width : kWidths) {
    for (int trial = 0; trial < 5; ++trial) {
      CAPTURE(width);
      const Bits a = random_bits(rng, width, 0.3);
      const Token x = token_from_bits(a);
      const Token c = x.complement();
      CHECK(c.width() == width);
      CHECK(c.weight() == width - naive_weight(a));
      CHECK(kernelrank::inner(x, c) == 0);
      CHECK(kernelrank::distance(x, c) == width);
      CHECK(padding_is_zero(c));
      Bits flipped = a;
      flipped.flip();
      CHECK(c == token_from_bits(flipped));
      CHECK(c.to_string() == string_from_bits(flipped));
      CHECK(c.complement() == x);
    }
    const Token ones = parse_token(std::string(static_cast<std::size_t>(width), '1'));
    CHECK(Token(width).complement() == ones);
    CHECK(ones.complement() == Token(width));
  }
  CHECK(Token(0).complement() == Token(0));
}

TEST_CASE("token: to_string and parse_token round trip") {
  std::mt19937_64 rng(99);
  for (int width : kWidths) {
    CAPTURE(width);
    const Bits a = random_bits(rng, width, 0.5);
    const std::string text = string_from_bits(a);
    const Token parsed = parse_token(text);
    CHECK(parsed == token_from_bits(a));
    CHECK(parsed.to_string() == text);
    CHECK(parse_token(text, width) == parsed);
  }
  CHECK(parse_token("0110").to_string() == "0110");
  CHECK(parse_token("1").get(0));
  const std::string widest(static_cast<std::size_t>(kernelrank::kMaxTokenWidth), '1');
  CHECK(parse_token(widest).weight() == kernelrank::kMaxTokenWidth);
}

TEST_CASE("token: parse_token errors") {
  CHECK(rejected_at("0120") == 2);
  CHECK(rejected_at("") == 0);
  CHECK(rejected_at(" 01") == 0);
  CHECK(rejected_at("01 ") == 2);
  CHECK(rejected_at("01a") == 2);
  CHECK(rejected_at("-1") == 0);
  CHECK_THROWS_AS((void)parse_token("0101", 3), TokenParseError);
  CHECK_THROWS_AS((void)parse_token("0101", 5), TokenParseError);
  CHECK_THROWS_AS((void)parse_token("", 0), TokenParseError);
  CHECK_THROWS_AS((void)parse_token("{1,2}"), TokenParseError);
  const std::string too_wide(static_cast<std::size_t>(kernelrank::kMaxTokenWidth) + 1, '0');
  CHECK_THROWS_AS((void)parse_token(too_wide), TokenParseError);
  try {
    (void)parse_token("0101", 3);
    FAIL("wrong width accepted");
  } catch (const TokenParseError& e) {
    const std::string message = e.what();
    CHECK(message.find('3') != std::string::npos);
    CHECK(message.find('4') != std::string::npos);
  }
}

TEST_CASE("token: parse_index_list") {
  CHECK(parse_index_list("{1,3}", 4).to_string() == "1010");
  CHECK(parse_index_list("1,3", 4).to_string() == "1010");
  CHECK(parse_index_list("{}", 4) == Token(4));
  CHECK(parse_index_list("{4}", 4).to_string() == "0001");
  CHECK(parse_index_list("{1,2,3,4}", 4).to_string() == "1111");
  CHECK(parse_index_list("{65,130}", 130).words().size() == 3);
  CHECK(parse_index_list("{65,130}", 130).weight() == 2);
  CHECK(parse_index_list("{65,130}", 130).get(64));
  CHECK(parse_index_list("{65,130}", 130).get(129));
  CHECK(parse_index_list("{10}", 12).to_string() == "000000000100");

  CHECK_THROWS_AS((void)parse_index_list("{5}", 4), TokenParseError);     // out of range
  CHECK_THROWS_AS((void)parse_index_list("{3,1}", 4), TokenParseError);   // decreasing
  CHECK_THROWS_AS((void)parse_index_list("{2,2}", 4), TokenParseError);   // repeated
  CHECK_THROWS_AS((void)parse_index_list("{0}", 4), TokenParseError);     // 1-based
  CHECK_THROWS_AS((void)parse_index_list("{1,3,}", 4), TokenParseError);  // trailing comma
  CHECK_THROWS_AS((void)parse_index_list("1,3,", 4), TokenParseError);    // trailing comma
  CHECK_THROWS_AS((void)parse_index_list("{1,3", 4), TokenParseError);    // unclosed
  CHECK_THROWS_AS((void)parse_index_list("{", 4), TokenParseError);       // unclosed
  CHECK_THROWS_AS((void)parse_index_list("}", 4), TokenParseError);
  CHECK_THROWS_AS((void)parse_index_list("{,1}", 4), TokenParseError);    // leading comma
  CHECK_THROWS_AS((void)parse_index_list("{1,,3}", 4), TokenParseError);  // empty entry
  CHECK_THROWS_AS((void)parse_index_list("{1 3}", 4), TokenParseError);
  CHECK_THROWS_AS((void)parse_index_list("{a}", 4), TokenParseError);
  CHECK_THROWS_AS((void)parse_index_list("{-1}", 4), TokenParseError);
  CHECK_THROWS_AS((void)parse_index_list("{1,3}}", 4), TokenParseError);
  // A number far beyond any int must be rejected, not wrap around.
  CHECK_THROWS_AS((void)parse_index_list("{99999999999999999999999}", 4), TokenParseError);
  CHECK_THROWS_AS((void)parse_index_list("{4294967297}", 4), TokenParseError);

  CHECK(list_rejected_at("{1,5}", 4) == 3);
  CHECK(list_rejected_at("{3,2}", 4) == 3);
  CHECK(list_rejected_at("{0}", 4) == 1);
  CHECK(list_rejected_at("1,x", 4) == 2);
}

TEST_CASE("token: to_index_list round trip") {
  CHECK(parse_token("0110").to_index_list() == "{2,3}");
  CHECK(Token(7).to_index_list() == "{}");
  std::mt19937_64 rng(1234);
  for (int width : kWidths) {
    CAPTURE(width);
    const Bits a = random_bits(rng, width, 0.2);
    const Token x = token_from_bits(a);
    const std::string list = x.to_index_list();
    CHECK(list == naive_index_list(a));
    CHECK(parse_index_list(list, width) == x);
    // Without the braces too.
    CHECK(parse_index_list(list.substr(1, list.size() - 2), width) == x);
  }
}

TEST_CASE("token: to_index and from_index at m=5, ordering") {
  constexpr int m = 5;
  std::vector<Token> by_index;
  for (std::uint64_t index = 0; index < (1U << m); ++index) {
    CAPTURE(index);
    const Token t = Token::from_index(m, index);
    CHECK(t.width() == m);
    CHECK(t.to_index() == index);
    // Coordinate 1 is the most significant bit: the text is the binary numeral.
    std::string binary;
    for (int bit = m - 1; bit >= 0; --bit) binary += ((index >> bit) & 1U) ? '1' : '0';
    CHECK(t.to_string() == binary);
    CHECK(parse_token(binary).to_index() == index);
    by_index.push_back(t);
  }
  // Ordering by index equals ordering by <=> and by the 0/1 strings.
  for (std::size_t i = 0; i < by_index.size(); ++i) {
    for (std::size_t j = 0; j < by_index.size(); ++j) {
      const auto order = by_index[i] <=> by_index[j];
      CHECK((order < 0) == (i < j));
      CHECK((order == 0) == (i == j));
      CHECK((order < 0) == (by_index[i].to_string() < by_index[j].to_string()));
    }
  }
  std::vector<Token> shuffled = by_index;
  std::mt19937_64 rng(5);
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::sort(shuffled.begin(), shuffled.end());
  CHECK(shuffled == by_index);
}

TEST_CASE("token: index limits and width ordering") {
  const std::uint64_t all = (std::uint64_t{1} << 63) - 1;
  const Token widest = Token::from_index(kernelrank::kMaxIndexableWidth, all);
  CHECK(widest.weight() == 63);
  CHECK(widest.to_index() == all);
  CHECK(Token::from_index(63, std::uint64_t{1} << 62).to_index_list() == "{1}");
  CHECK(Token::from_index(63, 1).to_index_list() == "{63}");
  CHECK(Token::from_index(0, 0).width() == 0);
  CHECK_THROWS_AS((void)Token::from_index(64, 0), std::invalid_argument);
  CHECK_THROWS_AS((void)Token(64).to_index(), std::invalid_argument);
  CHECK_THROWS_AS((void)Token(-1), std::invalid_argument);
  CHECK_THROWS_AS((void)Token(kernelrank::kMaxTokenWidth + 1), std::invalid_argument);
  CHECK_THROWS_AS((void)kernelrank::inner(Token(3), Token(4)), std::invalid_argument);
  CHECK_THROWS_AS((void)kernelrank::distance(Token(64), Token(65)), std::invalid_argument);
  // Widths are compared first: a shorter token sorts first even if its bits are larger.
  CHECK(parse_token("11") < parse_token("000"));
  CHECK(parse_token("11") != parse_token("110"));
}

TEST_CASE("token: TokenHash agrees with equality") {
  const TokenHash hash;
  std::mt19937_64 rng(42);
  for (int width : kWidths) {
    const Bits a = random_bits(rng, width, 0.5);
    const Token via_set = token_from_bits(a);
    const Token via_parse = parse_token(string_from_bits(a));
    const Token via_complement = via_set.complement().complement();
    REQUIRE(via_set == via_parse);
    REQUIRE(via_set == via_complement);
    CHECK(hash(via_set) == hash(via_parse));
    CHECK(hash(via_set) == hash(via_complement));
  }
  // All 2^10 tokens of width 10 are distinct in an unordered_set, and the hash
  // separates nearly all of them.
  std::unordered_set<Token, TokenHash> set;
  std::unordered_set<std::size_t> hashes;
  for (std::uint64_t index = 0; index < 1024; ++index) {
    const Token t = Token::from_index(10, index);
    set.insert(t);
    set.insert(Token::from_index(10, index));  // a duplicate
    hashes.insert(hash(t));
  }
  CHECK(set.size() == 1024);
  CHECK(hashes.size() >= 1000);
  // Same bits, different width: distinct tokens.
  CHECK(Token(3) != Token(4));
}
