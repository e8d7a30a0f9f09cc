// The line reader shared by the certificate and family parsers.
//
// It reads the input in blocks (optionally hashing every byte), splits it into lines,
// rejects NUL bytes, invalid UTF-8 and over-long lines, drops a trailing '\r', cuts '#'
// comments and splits the rest into fields at spaces and tabs. Blank lines are skipped.
// The field parsers below accept only the canonical spellings of the format: integers
// without sign or leading zeros, tokens of exactly the declared width made of '0' and '1'.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/sha256.hpp"

namespace krcheck {

struct Line {
  long number = 0;                       // 1-based line number in the file
  std::string_view content;              // the line without comment and trailing '\r'
  std::vector<std::string_view> fields;  // valid until the next call to LineReader::next
};

class LineReader {
 public:
  // `digest`, when given, receives every byte read from `in`.
  LineReader(std::istream& in, std::string file_name, Sha256* digest = nullptr);

  // The next non-blank line; false at the end of the input.
  bool next(Line& line);

  const std::string& file() const { return file_; }
  long lines_read() const { return line_number_; }
  // Reads (and hashes) whatever is left, so that a digest covers the whole input.
  void drain();

  [[noreturn]] void malformed(long line, const std::string& message) const;

  static constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

 private:
  bool read_raw_line();  // into raw_; false at end of input
  bool refill();

  std::istream& in_;
  std::string file_;
  Sha256* digest_;
  std::vector<char> block_;
  std::size_t block_pos_ = 0;
  std::size_t block_len_ = 0;
  bool at_end_ = false;
  std::string raw_;
  long line_number_ = 0;
};

// Position (0-based byte index) of the first invalid UTF-8 sequence, if any.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// `text` with control characters shown as \xNN: messages quote rejected input, and an
// escape sequence in a file must not reach the terminal. Also used by the kernelrank CLI.
std::string printable(std::string_view text);

// A decimal integer without sign or leading zeros, at most `max`.
std::uint64_t parse_integer(const LineReader& reader, long line, std::string_view text,
                            std::uint64_t max, const std::string& what);
// True when `text` is a canonical decimal integer (digits, no leading zero), any length.
bool is_canonical_integer(std::string_view text);
// The value after `key=` in field `field`, or a malformed-input error naming the key.
std::string_view key_value(const LineReader& reader, long line, std::string_view field,
                           std::string_view key);
// Checks the number of fields of a statement; `shape` describes the expected form.
void expect_field_count(const LineReader& reader, const Line& line, std::size_t count,
                        const std::string& shape);

}  // namespace krcheck
