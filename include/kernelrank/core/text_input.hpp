// Line-oriented reading of the project's text formats.
//
// All of kernelrank's text files share the same lexical rules: '#' starts a
// comment, fields are separated by spaces or tabs, blank lines are ignored, and
// a CRLF line ending is tolerated. Errors name the file and the line.
#pragma once

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kernelrank {

// Largest input file the parsers accept (guards against reading a disk image).
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;

struct TextLine {
  std::size_t number = 0;           // 1-based line number in the file
  std::vector<std::string> fields;  // non-empty, comment stripped
};

class TextReader {
 public:
  // Reads the whole file; throws InputError (line 0) if it cannot be opened,
  // is larger than kMaxInputBytes, or contains NUL bytes or invalid UTF-8.
  explicit TextReader(const std::string& path);
  // For in-memory text; `name` is used in messages.
  TextReader(std::string name, std::string contents);

  // The next non-blank line, or nullopt at end of file.
  std::optional<TextLine> next();
  const std::string& name() const { return name_; }
  std::size_t current_line() const { return line_number_; }

  [[noreturn]] void fail(std::size_t line, const std::string& message) const;

  // Field converters that throw InputError naming the line and the field.
  Rational rational_field(const TextLine& line, std::size_t index, const char* what) const;
  Token token_field(const TextLine& line, std::size_t index, int width, const char* what) const;
  long long integer_field(const TextLine& line, std::size_t index, long long lo, long long hi,
                          const char* what) const;

 private:
  void validate_bytes() const;

  std::string name_;
  std::string contents_;
  std::size_t offset_ = 0;
  std::size_t line_number_ = 0;
};

// Why `path` is no file to read, or nullopt for a regular file or a path that does not exist
// (the open then says so). Asked before opening: a FIFO with no writer blocks the open
// forever, and a directory opens and then reads as a huge size.
std::optional<std::string> irregular_file(const std::string& path);

// Parses "key=value" and returns value when the key matches, else nullopt.
std::optional<std::string_view> key_value(std::string_view field, std::string_view key);

// Reads a whole file into memory with the same size and encoding checks.
std::string read_file_checked(const std::string& path);
// The same without the encoding checks (a file that may be binary); InputError at line 0.
std::string read_file_bytes(const std::string& path);
// Throws InputError naming the line of the first NUL byte or invalid UTF-8.
void check_text_bytes(const std::string& name, const std::string& contents);

}  // namespace kernelrank
