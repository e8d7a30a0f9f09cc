#include "kernelrank/core/token.hpp"

#include <bit>
#include <stdexcept>

namespace kernelrank {
namespace {

std::size_t word_count(int width) { return (static_cast<std::size_t>(width) + 63) / 64; }

}  // namespace

Token::Token(int width) : width_(width) {
  if (width < 0 || width > kMaxTokenWidth)
    throw std::invalid_argument("token width must be in 0.." + std::to_string(kMaxTokenWidth));
  words_.assign(word_count(width), 0);
}

bool Token::get(int coordinate) const {
  return (words_[static_cast<std::size_t>(coordinate) / 64] >> (coordinate % 64)) & 1U;
}

void Token::set(int coordinate, bool value) {
  std::uint64_t& word = words_[static_cast<std::size_t>(coordinate) / 64];
  const std::uint64_t mask = std::uint64_t{1} << (coordinate % 64);
  word = value ? (word | mask) : (word & ~mask);
}

int Token::weight() const {
  int total = 0;
  for (std::uint64_t w : words_) total += std::popcount(w);
  return total;
}

Token Token::complement() const {
  Token result(width_);
  for (std::size_t i = 0; i < words_.size(); ++i) result.words_[i] = ~words_[i];
  if (width_ % 64 != 0 && !result.words_.empty())
    result.words_.back() &= (std::uint64_t{1} << (width_ % 64)) - 1;
  return result;
}

std::string Token::to_string() const {
  std::string text(static_cast<std::size_t>(width_), '0');
  for (int i = 0; i < width_; ++i)
    if (get(i)) text[static_cast<std::size_t>(i)] = '1';
  return text;
}

std::string Token::to_index_list() const {
  std::string text = "{";
  bool first = true;
  for (int i = 0; i < width_; ++i) {
    if (!get(i)) continue;
    if (!first) text += ',';
    text += std::to_string(i + 1);
    first = false;
  }
  return text + "}";
}

std::uint64_t Token::to_index() const {
  if (width_ > kMaxIndexableWidth) throw std::invalid_argument("token too wide for an index");
  std::uint64_t index = 0;
  for (int i = 0; i < width_; ++i) index = (index << 1) | (get(i) ? 1U : 0U);
  return index;
}

Token Token::from_index(int width, std::uint64_t index) {
  if (width > kMaxIndexableWidth) throw std::invalid_argument("token too wide for an index");
  Token token(width);
  for (int i = width - 1; i >= 0; --i) {
    token.set(i, index & 1U);
    index >>= 1;
  }
  return token;
}

std::strong_ordering operator<=>(const Token& a, const Token& b) {
  if (a.width_ != b.width_) return a.width_ <=> b.width_;
  for (int i = 0; i < a.width_; ++i) {
    const bool x = a.get(i);
    const bool y = b.get(i);
    if (x != y) return x ? std::strong_ordering::greater : std::strong_ordering::less;
  }
  return std::strong_ordering::equal;
}

int inner(const Token& a, const Token& b) {
  if (a.width() != b.width()) throw std::invalid_argument("inner: token widths differ");
  int total = 0;
  const auto& x = a.words();
  const auto& y = b.words();
  for (std::size_t i = 0; i < x.size(); ++i) total += std::popcount(x[i] & y[i]);
  return total;
}

int distance(const Token& a, const Token& b) {
  if (a.width() != b.width()) throw std::invalid_argument("distance: token widths differ");
  int total = 0;
  const auto& x = a.words();
  const auto& y = b.words();
  for (std::size_t i = 0; i < x.size(); ++i) total += std::popcount(x[i] ^ y[i]);
  return total;
}

TokenParseError::TokenParseError(std::size_t position, const std::string& message)
    : std::runtime_error(message), position_(position) {}

Token parse_token(std::string_view text, int expected_width) {
  if (text.empty()) throw TokenParseError(0, "expected a 0/1 token, found nothing");
  if (text.size() > static_cast<std::size_t>(kMaxTokenWidth))
    throw TokenParseError(0, "token wider than " + std::to_string(kMaxTokenWidth) + " bits");
  const int width = static_cast<int>(text.size());
  Token token(width);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '0' && c != '1')
      throw TokenParseError(i, std::string("expected '0' or '1', found '") + c + "'");
    if (c == '1') token.set(static_cast<int>(i), true);
  }
  if (expected_width >= 0 && width != expected_width)
    throw TokenParseError(0, "expected a token of width " + std::to_string(expected_width) +
                                 ", found width " + std::to_string(width));
  return token;
}

Token parse_index_list(std::string_view text, int width) {
  Token token(width);
  std::size_t pos = 0;
  std::size_t end = text.size();
  if (!text.empty() && text.front() == '{') {
    if (text.back() != '}') throw TokenParseError(text.size(), "expected '}'");
    pos = 1;
    end = text.size() - 1;
  }
  int previous = 0;
  while (pos < end) {
    std::size_t start = pos;
    long value = 0;
    while (pos < end && text[pos] >= '0' && text[pos] <= '9') {
      value = value * 10 + (text[pos] - '0');
      if (value > width) throw TokenParseError(start, "coordinate exceeds the width");
      ++pos;
    }
    if (pos == start) throw TokenParseError(pos, "expected a coordinate");
    if (value < 1) throw TokenParseError(start, "coordinates are 1-based");
    if (value <= previous) throw TokenParseError(start, "coordinates must increase");
    token.set(static_cast<int>(value - 1), true);
    previous = static_cast<int>(value);
    if (pos < end) {
      if (text[pos] != ',') throw TokenParseError(pos, "expected ','");
      ++pos;
      if (pos == end) throw TokenParseError(pos, "expected a coordinate after ','");
    }
  }
  return token;
}

std::size_t TokenHash::operator()(const Token& token) const {
  std::uint64_t h = 1469598103934665603ULL ^ static_cast<std::uint64_t>(token.width());
  for (std::uint64_t w : token.words()) {
    h ^= w + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return static_cast<std::size_t>(h);
}

}  // namespace kernelrank
