// Token packing and inner products; see tokens.hpp.
#include "check/tokens.hpp"

#include <bit>

namespace krcheck {

bool pack_token(std::string_view text, std::size_t width, std::uint64_t* out) {
  if (text.size() != width) return false;
  for (std::size_t w = 0; w < words_for_width(width); ++w) out[w] = 0;
  for (std::size_t k = 0; k < width; ++k) {
    if (text[k] == '1')
      out[k / 64] |= std::uint64_t{1} << (k % 64);
    else if (text[k] != '0')
      return false;
  }
  return true;
}

std::string token_problem(std::string_view text, std::size_t width) {
  if (text.size() != width)
    return "token '" + std::string(text.substr(0, 80)) + (text.size() > 80 ? "..." : "") +
           "' has width " + std::to_string(text.size()) + ", expected m=" + std::to_string(width);
  for (std::size_t k = 0; k < text.size(); ++k)
    if (text[k] != '0' && text[k] != '1')
      return "token has '" + std::string(1, text[k]) + "' at coordinate " + std::to_string(k + 1) +
             ", expected only '0' and '1'";
  return "invalid token";
}

std::string token_text(const std::uint64_t* token, std::size_t width) {
  constexpr std::size_t kShown = 80;
  std::string text;
  for (std::size_t k = 0; k < width && k < kShown; ++k)
    text += (token[k / 64] >> (k % 64) & 1) != 0 ? '1' : '0';
  return width > kShown ? text + "..." : text;
}

int overlap(const std::uint64_t* x, const std::uint64_t* z, std::size_t words) {
  int total = 0;
  for (std::size_t w = 0; w < words; ++w) total += std::popcount(x[w] & z[w]);
  return total;
}

bool TokenMatrix::append(std::string_view text) {
  const std::size_t old_size = data_.size();
  data_.resize(old_size + words_);
  if (!pack_token(text, width_, data_.data() + old_size)) {
    data_.resize(old_size);
    return false;
  }
  return true;
}

}  // namespace krcheck
