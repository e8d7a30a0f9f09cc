// The line reader: fields, comments, CRLF, line numbers, and everything it must reject.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "check/reader.hpp"
#include "check/status.hpp"

namespace {

struct ReadLine {
  long number;
  std::vector<std::string> fields;
};

std::vector<ReadLine> read_all(const std::string& text) {
  std::istringstream in(text);
  krcheck::LineReader reader(in, "input.txt");
  std::vector<ReadLine> lines;
  krcheck::Line line;
  while (reader.next(line)) {
    ReadLine copy{line.number, {}};
    for (const auto field : line.fields) copy.fields.emplace_back(field);
    lines.push_back(copy);
  }
  return lines;
}

// The CheckError the reader throws on `text`, which must be malformed.
krcheck::CheckError read_error(const std::string& text) {
  try {
    read_all(text);
  } catch (const krcheck::CheckError& error) {
    return error;
  }
  FAIL("expected a malformed-input error");
  return krcheck::CheckError(krcheck::Status::verified, "", -1, "");
}

}  // namespace

TEST_CASE("reader: fields, comments, blank lines, CRLF and line numbers") {
  const auto lines = read_all("a b\tc\r\n\n   \t\r\n# only a comment\nd  e # f g\r\nh#i\n\nlast");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].number == 1);
  CHECK(lines[0].fields == std::vector<std::string>{"a", "b", "c"});
  CHECK(lines[1].number == 5);
  CHECK(lines[1].fields == std::vector<std::string>{"d", "e"});
  CHECK(lines[2].number == 6);
  CHECK(lines[2].fields == std::vector<std::string>{"h"});
  CHECK(lines[3].number == 8);  // a last line without newline still counts
  CHECK(lines[3].fields == std::vector<std::string>{"last"});
  CHECK(read_all("").empty());
  // Only one trailing '\r' is dropped; another one stays part of the field.
  CHECK(read_all("x\r\r\n")[0].fields == std::vector<std::string>{"x\r"});
}

TEST_CASE("reader: NUL bytes are malformed, with line and column") {
  const auto error = read_error(std::string("ok\nab\0c\n", 8));
  CHECK(error.status == krcheck::Status::malformed);
  CHECK(error.file == "input.txt");
  CHECK(error.line == 2);
  CHECK(std::string(error.what()) == "NUL byte at column 3");
  // Even inside a comment.
  CHECK(read_error(std::string("# \0\n", 4)).line == 1);
}

TEST_CASE("reader: invalid UTF-8 is malformed; valid multi-byte text is not") {
  // Byte sequences from Unicode's table 3-7: lone continuation, overlong forms, surrogates,
  // beyond U+10FFFF, truncated sequences, bytes that never occur.
  for (const std::string bad :
       {"\x80", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
        "\xf5\x80\x80\x80", "\xe2\x82", "\xff", "\xf0\x9d\x84"}) {
    CAPTURE(bad);
    CHECK(krcheck::first_invalid_utf8("ab" + bad + "cd") == std::optional<std::size_t>(2));
    const auto error = read_error("x\n# " + bad + "\n");
    CHECK(error.line == 2);
    CHECK(std::string(error.what()) == "invalid UTF-8 at column 3");
  }
  // U+00FC, U+20AC, U+1D11E, U+10FFFF, U+D7FF, U+E000.
  for (const std::string good : {"\xc3\xbc", "\xe2\x82\xac", "\xf0\x9d\x84\x9e", "\xf4\x8f\xbf\xbf",
                                 "\xed\x9f\xbf", "\xee\x80\x80"}) {
    CAPTURE(good);
    CHECK_FALSE(krcheck::first_invalid_utf8("a" + good + "b").has_value());
    CHECK(read_all("x " + good).size() == 1);
  }
}

TEST_CASE("reader: over-long lines are malformed") {
  const std::string line(krcheck::LineReader::kMaxLineBytes + 1, 'a');
  const auto error = read_error("ok\n" + line + "\n");
  CHECK(error.line == 2);
  CHECK(std::string(error.what()).find("line longer than") == 0);
}

TEST_CASE("reader: integers are canonical decimals within their limit") {
  std::istringstream empty;
  krcheck::LineReader reader(empty, "f");
  CHECK(krcheck::parse_integer(reader, 1, "0", 10, "x") == 0);
  CHECK(krcheck::parse_integer(reader, 1, "10", 10, "x") == 10);
  CHECK(krcheck::parse_integer(reader, 1, "18446744073709551615", UINT64_MAX, "x") == UINT64_MAX);
  for (const char* bad : {"", "-1", "+1", "01", "00", "1.0", "1e3", " 1", "0x10", "１"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(krcheck::parse_integer(reader, 1, bad, 1000, "x"), krcheck::CheckError);
  }
  CHECK_THROWS_AS(krcheck::parse_integer(reader, 1, "11", 10, "x"), krcheck::CheckError);
  CHECK_THROWS_AS(krcheck::parse_integer(reader, 1, "18446744073709551616", UINT64_MAX, "x"),
                  krcheck::CheckError);
  CHECK_THROWS_AS(krcheck::parse_integer(reader, 1, "5", 0, "x"), krcheck::CheckError);
  CHECK(krcheck::is_canonical_integer("123456789012345678901234567890"));
  CHECK_FALSE(krcheck::is_canonical_integer("0123"));
}

TEST_CASE("reader: key=value fields") {
  std::istringstream empty;
  krcheck::LineReader reader(empty, "f");
  CHECK(krcheck::key_value(reader, 1, "m=24", "m") == "24");
  CHECK(krcheck::key_value(reader, 1, "m=", "m").empty());
  CHECK_THROWS_AS(krcheck::key_value(reader, 1, "n=24", "m"), krcheck::CheckError);
  CHECK_THROWS_AS(krcheck::key_value(reader, 1, "mm=24", "m"), krcheck::CheckError);
  CHECK_THROWS_AS(krcheck::key_value(reader, 1, "m", "m"), krcheck::CheckError);
}
