// Boolean token vectors x in {0,1}^m and their inner products.
//
// Bits are packed 64 to a word so that <x,z> = popcount(x AND z) costs m/64
// word operations; widths up to kMaxTokenWidth are supported. Coordinate 1 is
// the leftmost character of the 0/1 text form and the most significant bit of
// the integer index used to enumerate the cube.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kernelrank {

inline constexpr int kMaxTokenWidth = 65536;
// Widths whose whole cube can be indexed by a 64-bit integer.
inline constexpr int kMaxIndexableWidth = 63;

class Token {
 public:
  Token() = default;
  // The all-zero token of the given width (0 <= width <= kMaxTokenWidth).
  explicit Token(int width);

  int width() const { return width_; }
  bool get(int coordinate) const;  // 0-based coordinate
  void set(int coordinate, bool value);
  int weight() const;
  Token complement() const;

  // "0110..." with coordinate 1 first.
  std::string to_string() const;
  // 1-based coordinates of the ones, e.g. "{2,3}" ("{}" for zero).
  std::string to_index_list() const;
  // The 0/1 string read as a binary number (width <= kMaxIndexableWidth).
  std::uint64_t to_index() const;
  static Token from_index(int width, std::uint64_t index);

  const std::vector<std::uint64_t>& words() const { return words_; }

  friend bool operator==(const Token& a, const Token& b) = default;
  // Lexicographic order of the 0/1 strings (widths compared first).
  friend std::strong_ordering operator<=>(const Token& a, const Token& b);

 private:
  int width_ = 0;
  std::vector<std::uint64_t> words_;
};

// popcount(a AND b); the widths must agree.
int inner(const Token& a, const Token& b);
// Hamming distance.
int distance(const Token& a, const Token& b);

class TokenParseError : public std::runtime_error {
 public:
  TokenParseError(std::size_t position, const std::string& message);
  std::size_t position() const { return position_; }

 private:
  std::size_t position_;
};

// A 0/1 string; expected_width < 0 accepts any width in 1..kMaxTokenWidth.
Token parse_token(std::string_view text, int expected_width = -1);
// "{1,4,7}" or "1,4,7" (1-based, strictly increasing), or "{}" for zero.
Token parse_index_list(std::string_view text, int width);

struct TokenHash {
  std::size_t operator()(const Token& token) const;
};

}  // namespace kernelrank
