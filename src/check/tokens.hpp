// Boolean tokens packed into 64-bit words, and their inner products.
//
// Coordinate k (0-based; the k+1-th character of the text form) is bit k % 64 of word
// k / 64. Bits past the width are always zero, so <x,z> is the sum of the popcounts of
// the word-wise ANDs and tokens compare equal exactly when their words do.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace krcheck {

using Token = std::vector<std::uint64_t>;

constexpr std::size_t words_for_width(std::size_t width) { return (width + 63) / 64; }

// Packs a 0/1 string of exactly `width` characters into `out` (words_for_width(width)
// words). Returns false when the width is wrong or a character is not '0' or '1'.
bool pack_token(std::string_view text, std::size_t width, std::uint64_t* out);

// Why `text` is not a token of `width` characters (assumes pack_token failed on it).
std::string token_problem(std::string_view text, std::size_t width);

// The text form of a token of `width` coordinates, cut after 80 characters (for messages).
std::string token_text(const std::uint64_t* token, std::size_t width);
inline std::string token_text(const std::vector<std::uint64_t>& token, std::size_t width) {
  return token_text(token.data(), width);
}

// <x,z> = popcount(x AND z) over `words` words.
int overlap(const std::uint64_t* x, const std::uint64_t* z, std::size_t words);
inline int overlap(const Token& x, const Token& z) { return overlap(x.data(), z.data(), x.size()); }

// Tokens of one width stored row after row in one array.
class TokenMatrix {
 public:
  explicit TokenMatrix(std::size_t width = 0) : width_(width), words_(words_for_width(width)) {}

  std::size_t width() const { return width_; }
  std::size_t words() const { return words_; }
  std::size_t size() const { return words_ == 0 ? 0 : data_.size() / words_; }
  const std::uint64_t* row(std::size_t index) const { return data_.data() + index * words_; }
  const std::uint64_t* data() const { return data_.data(); }
  Token token(std::size_t index) const { return Token(row(index), row(index) + words_); }

  // Appends a token parsed from text; false (and nothing appended) when it is invalid.
  bool append(std::string_view text);

 private:
  std::size_t width_;
  std::size_t words_;
  std::vector<std::uint64_t> data_;
};

}  // namespace krcheck
