// Token packing and inner products against a character-by-character count.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "check/tokens.hpp"

namespace {

int naive_overlap(const std::string& x, const std::string& z) {
  int count = 0;
  for (std::size_t k = 0; k < x.size(); ++k) count += x[k] == '1' && z[k] == '1';
  return count;
}

std::string random_token(std::mt19937& rng, std::size_t width) {
  std::string text;
  for (std::size_t k = 0; k < width; ++k) text += (rng() & 1) ? '1' : '0';
  return text;
}

}  // namespace

TEST_CASE("tokens: the first character is coordinate 1 = bit 0 of word 0") {
  krcheck::Token packed(2);
  REQUIRE(krcheck::pack_token("1" + std::string(64, '0'), 65, packed.data()));
  CHECK(packed[0] == 1);
  CHECK(packed[1] == 0);
  REQUIRE(krcheck::pack_token(std::string(64, '0') + "1", 65, packed.data()));
  CHECK(packed[0] == 0);
  CHECK(packed[1] == 1);  // coordinate 65 = bit 0 of word 1
}

TEST_CASE("tokens: wrong widths and characters are rejected") {
  krcheck::Token packed(1);
  CHECK_FALSE(krcheck::pack_token("0101", 5, packed.data()));
  CHECK_FALSE(krcheck::pack_token("010101", 5, packed.data()));
  CHECK_FALSE(krcheck::pack_token("01201", 5, packed.data()));
  CHECK_FALSE(krcheck::pack_token("01 01", 5, packed.data()));
  CHECK(krcheck::token_problem("0101", 5).find("has width 4, expected m=5") != std::string::npos);
  CHECK(krcheck::token_problem("01x01", 5).find("'x' at coordinate 3") != std::string::npos);
  krcheck::TokenMatrix matrix(5);
  CHECK(matrix.append("10001"));
  CHECK_FALSE(matrix.append("1000"));
  CHECK_FALSE(matrix.append("1000a"));
  CHECK(matrix.size() == 1);  // failed appends leave nothing behind
}

TEST_CASE("tokens: overlaps equal a naive count for widths around word boundaries") {
  std::mt19937 rng(12345);
  for (const std::size_t width : {1u, 2u, 63u, 64u, 65u, 127u, 128u, 129u, 200u, 4096u}) {
    krcheck::TokenMatrix matrix(width);
    std::vector<std::string> texts;
    for (int t = 0; t < 12; ++t) {
      texts.push_back(random_token(rng, width));
      REQUIRE(matrix.append(texts.back()));
    }
    texts.push_back(std::string(width, '1'));  // all ones: <x,x> = width
    REQUIRE(matrix.append(texts.back()));
    CHECK(krcheck::overlap(matrix.row(12), matrix.row(12), matrix.words()) ==
          static_cast<int>(width));
    for (std::size_t a = 0; a < texts.size(); ++a)
      for (std::size_t b = 0; b < texts.size(); ++b) {
        CAPTURE(width);
        CHECK(krcheck::overlap(matrix.row(a), matrix.row(b), matrix.words()) ==
              naive_overlap(texts[a], texts[b]));
        CHECK(krcheck::overlap(matrix.token(a), matrix.token(b)) ==
              naive_overlap(texts[a], texts[b]));
      }
  }
}
