#include "kernelrank/core/text_input.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace kernelrank {

InputError::InputError(std::string file, std::size_t line, const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ": error: " + message),
      file_(std::move(file)),
      line_(line),
      message_(message) {}

InputError::InputError(std::string file, std::size_t line, std::size_t column,
                       const std::string& message)
    : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                         ": error: " + message),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(message) {}

InputError::InputError(WholeFileTag, std::string file, const std::string& message)
    : std::runtime_error(file + ": error: " + message),
      file_(std::move(file)),
      line_(0),
      message_(message) {}

InputError InputError::whole_file(std::string file, const std::string& message) {
  return InputError(WholeFileTag{}, std::move(file), message);
}

namespace {

// Returns the offset of the first byte that is not valid UTF-8, or npos.
std::size_t first_invalid_utf8(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t extra = 0;
    if (c < 0x80) {
      extra = 0;
    } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
      extra = 1;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
    } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
      extra = 3;
    } else {
      return i;
    }
    if (i + extra >= text.size()) return i;
    for (std::size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
    // RFC 3629: the second byte is further restricted so that overlong forms
    // (E0 80..9F, F0 80..8F), UTF-16 surrogates (ED A0..BF) and code points
    // above U+10FFFF (F4 90..BF) are rejected.
    const auto second = extra > 0 ? static_cast<unsigned char>(text[i + 1]) : 0;
    if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) ||
        (c == 0xF0 && second < 0x90) || (c == 0xF4 && second > 0x8F))
      return i;
    i += extra + 1;
  }
  return std::string::npos;
}

std::size_t line_of_offset(const std::string& text, std::size_t offset) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i)
    if (text[i] == '\n') ++line;
  return line;
}

}  // namespace

void check_text_bytes(const std::string& name, const std::string& contents) {
  const std::size_t nul = contents.find('\0');
  if (nul != std::string::npos)
    throw InputError(name, line_of_offset(contents, nul), "binary data (NUL byte) in text file");
  const std::size_t bad = first_invalid_utf8(contents);
  if (bad != std::string::npos)
    throw InputError(name, line_of_offset(contents, bad), "invalid UTF-8 byte sequence");
}

std::optional<std::string> irregular_file(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_type type = std::filesystem::status(path, error).type();
  switch (type) {
    case std::filesystem::file_type::regular:
    case std::filesystem::file_type::not_found:
    case std::filesystem::file_type::none:
    case std::filesystem::file_type::unknown:
      return std::nullopt;
    case std::filesystem::file_type::directory:
      return "is a directory, expected a file";
    default:
      return "is not a regular file (a FIFO, socket or device), expected a file";
  }
}

std::string read_file_bytes(const std::string& path) {
  if (const auto why = irregular_file(path)) throw InputError(path, 0, *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw InputError(path, 0, "cannot read file");
  if (static_cast<std::size_t>(size) > kMaxInputBytes)
    throw InputError(path, 0, "file larger than 1 GiB");
  in.seekg(0, std::ios::beg);
  std::string contents(static_cast<std::size_t>(size), '\0');
  in.read(contents.data(), size);
  if (!in) throw InputError(path, 0, "cannot read file");
  return contents;
}

std::string read_file_checked(const std::string& path) {
  std::string contents = read_file_bytes(path);
  check_text_bytes(path, contents);
  return contents;
}

// read_file_checked has already validated the bytes.
TextReader::TextReader(const std::string& path) : name_(path), contents_(read_file_checked(path)) {}

TextReader::TextReader(std::string name, std::string contents)
    : name_(std::move(name)), contents_(std::move(contents)) {
  validate_bytes();
}

void TextReader::validate_bytes() const { check_text_bytes(name_, contents_); }

std::optional<TextLine> TextReader::next() {
  while (offset_ < contents_.size()) {
    std::size_t end = contents_.find('\n', offset_);
    if (end == std::string::npos) end = contents_.size();
    std::string_view raw(contents_.data() + offset_, end - offset_);
    offset_ = end + 1;
    ++line_number_;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::size_t hash = raw.find('#');
    if (hash != std::string_view::npos) raw = raw.substr(0, hash);
    TextLine line;
    line.number = line_number_;
    std::size_t pos = 0;
    while (pos < raw.size()) {
      while (pos < raw.size() && (raw[pos] == ' ' || raw[pos] == '\t')) ++pos;
      const std::size_t start = pos;
      while (pos < raw.size() && raw[pos] != ' ' && raw[pos] != '\t') ++pos;
      if (pos > start) line.fields.emplace_back(raw.substr(start, pos - start));
    }
    for (const std::string& field : line.fields)
      for (char c : field)
        if (static_cast<unsigned char>(c) < 0x20) fail(line.number, "control character in line");
    if (!line.fields.empty()) return line;
  }
  return std::nullopt;
}

void TextReader::fail(std::size_t line, const std::string& message) const {
  throw InputError(name_, line, message);
}

Rational TextReader::rational_field(const TextLine& line, std::size_t index,
                                    const char* what) const {
  if (index >= line.fields.size())
    fail(line.number, std::string("expected ") + what + " (field " + std::to_string(index + 1) +
                          "), found end of line");
  try {
    return parse_rational(line.fields[index]);
  } catch (const RationalParseError& e) {
    fail(line.number, std::string("expected ") + what + " as an exact number in field " +
                          std::to_string(index + 1) + ", found '" + line.fields[index] +
                          "': " + e.what() + " at character " + std::to_string(e.position() + 1));
  }
}

Token TextReader::token_field(const TextLine& line, std::size_t index, int width,
                              const char* what) const {
  if (index >= line.fields.size())
    fail(line.number, std::string("expected ") + what + " (field " + std::to_string(index + 1) +
                          "), found end of line");
  try {
    return parse_token(line.fields[index], width);
  } catch (const TokenParseError& e) {
    fail(line.number, std::string("expected ") + what + " in field " + std::to_string(index + 1) +
                          ": " + e.what());
  }
}

long long TextReader::integer_field(const TextLine& line, std::size_t index, long long lo,
                                    long long hi, const char* what) const {
  if (index >= line.fields.size())
    fail(line.number, std::string("expected ") + what + " (field " + std::to_string(index + 1) +
                          "), found end of line");
  const std::string& text = line.fields[index];
  long long value = 0;
  // An optional '-' (for ranges that allow negatives) and at most 18 digits, so
  // that std::stoll cannot overflow.
  const std::size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
  bool ok = text.size() > sign && text.size() - sign <= 18;
  for (std::size_t i = sign; i < text.size(); ++i) ok = ok && text[i] >= '0' && text[i] <= '9';
  // Canonical spelling only ("7", not "07" or "-0"), as the certificate checker requires.
  ok = ok && !(text.size() > sign + 1 && text[sign] == '0') && text != "-0";
  if (ok) value = std::stoll(text);
  if (!ok || value < lo || value > hi)
    fail(line.number, std::string("expected ") + what + " (an integer in " + std::to_string(lo) +
                          ".." + std::to_string(hi) + ") in field " + std::to_string(index + 1) +
                          ", found '" + text + "'");
  return value;
}

std::optional<std::string_view> key_value(std::string_view field, std::string_view key) {
  if (field.size() > key.size() && field.substr(0, key.size()) == key && field[key.size()] == '=')
    return field.substr(key.size() + 1);
  return std::nullopt;
}

}  // namespace kernelrank
