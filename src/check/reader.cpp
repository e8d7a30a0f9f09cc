// Lines and fields; see reader.hpp.
#include "check/reader.hpp"

#include <algorithm>
#include <limits>

#include "check/status.hpp"

namespace krcheck {

LineReader::LineReader(std::istream& in, std::string file_name, Sha256* digest)
    : in_(in), file_(std::move(file_name)), digest_(digest), block_(std::size_t{1} << 16) {}

void LineReader::malformed(long line, const std::string& message) const {
  fail_malformed(file_, line, message);
}

bool LineReader::refill() {
  if (at_end_) return false;
  in_.read(block_.data(), static_cast<std::streamsize>(block_.size()));
  block_len_ = static_cast<std::size_t>(in_.gcount());
  block_pos_ = 0;
  if (in_.bad()) malformed(0, "read error");
  if (block_len_ == 0) {
    at_end_ = true;
    return false;
  }
  if (digest_ != nullptr) digest_->update(block_.data(), block_len_);
  return true;
}

bool LineReader::read_raw_line() {
  raw_.clear();
  bool any = false;
  while (true) {
    if (block_pos_ == block_len_ && !refill()) return any;
    any = true;
    const char* begin = block_.data() + block_pos_;
    const char* end = block_.data() + block_len_;
    const char* newline = std::find(begin, end, '\n');
    if (raw_.size() + static_cast<std::size_t>(newline - begin) > kMaxLineBytes)
      malformed(line_number_ + 1, "line longer than " + std::to_string(kMaxLineBytes) + " bytes");
    raw_.append(begin, newline);
    if (newline != end) {
      block_pos_ = static_cast<std::size_t>(newline - block_.data()) + 1;
      return true;
    }
    block_pos_ = block_len_;
  }
}

void LineReader::drain() {
  block_pos_ = block_len_;
  while (refill()) block_pos_ = block_len_;
}

bool LineReader::next(Line& line) {
  while (read_raw_line()) {
    ++line_number_;
    if (const auto nul = raw_.find('\0'); nul != std::string::npos)
      malformed(line_number_, "NUL byte at column " + std::to_string(nul + 1));
    if (const auto bad = first_invalid_utf8(raw_))
      malformed(line_number_, "invalid UTF-8 at column " + std::to_string(*bad + 1));
    std::string_view content = raw_;
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    if (const auto hash = content.find('#'); hash != std::string_view::npos)
      content = content.substr(0, hash);
    line.number = line_number_;
    line.content = content;
    line.fields.clear();
    std::size_t pos = 0;
    while (pos < content.size()) {
      const std::size_t start = content.find_first_not_of(" \t", pos);
      if (start == std::string_view::npos) break;
      std::size_t stop = content.find_first_of(" \t", start);
      if (stop == std::string_view::npos) stop = content.size();
      line.fields.push_back(content.substr(start, stop - start));
      pos = stop;
    }
    if (!line.fields.empty()) return true;
  }
  return false;
}

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {
      ++i;
      continue;
    }
    // Sequence length and the allowed range of the second byte (Unicode table 3-7):
    // this excludes overlong forms, UTF-16 surrogates and code points above U+10FFFF.
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf;
    if (byte >= 0xc2 && byte <= 0xdf) {
      length = 2;
    } else if (byte >= 0xe0 && byte <= 0xef) {
      length = 3;
      if (byte == 0xe0) low = 0xa0;
      if (byte == 0xed) high = 0x9f;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      length = 4;
      if (byte == 0xf0) low = 0x90;
      if (byte == 0xf4) high = 0x8f;
    } else {
      return i;
    }
    if (i + length > text.size()) return i;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      const unsigned char lo = k == 1 ? low : 0x80;
      const unsigned char hi = k == 1 ? high : 0xbf;
      if (next < lo || next > hi) return i;
    }
    i += length;
  }
  return std::nullopt;
}

bool is_canonical_integer(std::string_view text) {
  if (text.empty()) return false;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  return text == "0" || text[0] != '0';
}

std::uint64_t parse_integer(const LineReader& reader, long line, std::string_view text,
                            std::uint64_t max, const std::string& what) {
  if (!is_canonical_integer(text))
    reader.malformed(line, "expected " + what +
                               " as a decimal integer without sign or "
                               "leading zeros, found '" +
                               std::string(text) + "'");
  std::uint64_t value = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (digit > max || value > (max - digit) / 10)
      reader.malformed(
          line, what + " " + std::string(text) + " exceeds the limit " + std::to_string(max));
    value = value * 10 + digit;
  }
  return value;
}

std::string_view key_value(const LineReader& reader, long line, std::string_view field,
                           std::string_view key) {
  if (field.size() <= key.size() || field.substr(0, key.size()) != key || field[key.size()] != '=')
    reader.malformed(line,
                     "expected '" + std::string(key) + "=...', found '" + std::string(field) + "'");
  return field.substr(key.size() + 1);
}

void expect_field_count(const LineReader& reader, const Line& line, std::size_t count,
                        const std::string& shape) {
  if (line.fields.size() < count)
    reader.malformed(line.number, "too few fields: expected '" + shape + "'");
  if (line.fields.size() > count)
    reader.malformed(line.number, "unexpected extra field '" + std::string(line.fields[count]) +
                                      "': expected '" + shape + "'");
}

std::string printable(std::string_view text) {
  std::string shown;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      const char* const hex = "0123456789abcdef";
      shown += std::string("\\x") + hex[byte >> 4] + hex[byte & 15];
    } else {
      shown += c;
    }
  }
  return shown;
}

}  // namespace krcheck
