// See errors.hpp: rendering the parameters of a ParameterMessage.
#include "kernelrank/core/errors.hpp"

namespace kernelrank {

namespace {

bool name_start(char c) { return c >= 'a' && c <= 'z'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-'; }

}  // namespace

std::string ParameterMessage::render(
    const std::function<std::string(const std::string&)>& name) const {
  std::string out;
  std::size_t i = 0;
  while (i < pattern_.size()) {
    if (pattern_.compare(i, 2, "{{") == 0) {  // an escaped brace (literal)
      out += '{';
      i += 2;
      continue;
    }
    if (pattern_[i] == '{' && i + 1 < pattern_.size() && name_start(pattern_[i + 1])) {
      std::size_t end = i + 1;
      while (end < pattern_.size() && name_char(pattern_[end])) ++end;
      if (end < pattern_.size() && pattern_[end] == '}') {
        out += name(pattern_.substr(i + 1, end - i - 1));
        i = end + 1;
        continue;
      }
    }
    out += pattern_[i++];
  }
  return out;
}

std::string ParameterMessage::plain(const std::string& pattern) {
  return ParameterMessage(pattern).render([](const std::string& parameter) { return parameter; });
}

std::string ParameterMessage::literal(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{') out += '{';
  }
  return out;
}

}  // namespace kernelrank
