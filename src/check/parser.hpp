// The certificate parser, internal to the checker: one function per statement of the
// grammar, in grammar order. certificate.cpp holds the statements of format 1 and the
// order of statements; certificate_v2.cpp the rules of format 2 (the order rule's core, the
// dependence rule's queries and covers, the inherit rule's embedded certificate, the
// trace-uniform rule's generated line and drops). Each parse_* function starts with `line_`
// holding its statement and leaves `line_` at the statement after it (or at the end).
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "check/certificate.hpp"
#include "check/reader.hpp"

namespace krcheck::detail {

// `text` in quotes, cut after 60 characters.
std::string quoted(std::string_view text);

class Parser {
 public:
  // `digest`, when given, receives every byte of `in`.
  Parser(std::istream& in, const std::string& file, Sha256* digest = nullptr)
      : reader_(in, file, digest) {
    cert_.file = file;
  }

  Certificate run();

 private:
  // One certificate from its header through its `end` (left in `line_`). An embedded one
  // is the inherit rule's: a cube task and no inherit rule of its own.
  void parse_body(bool embedded);

  bool advance() {
    has_line_ = reader_.next(line_);
    return has_line_;
  }
  std::string_view keyword() const { return line_.fields[0]; }
  [[noreturn]] void malformed(const std::string& message) const {
    reader_.malformed(line_.number, message);
  }
  [[noreturn]] void malformed_at_end(const std::string& expected) const {
    reader_.malformed(reader_.lines_read(), "unexpected end of file: expected " + expected);
  }
  void require(std::string_view word);
  void require_item(std::string_view word, std::uint64_t index, std::uint64_t count,
                    long count_line);
  void reject_extra_item(std::string_view word, std::uint64_t count, long count_line);
  std::uint64_t integer(std::string_view text, std::uint64_t max, const std::string& what) {
    return parse_integer(reader_, line_.number, text, max, what);
  }
  Token token(std::string_view text);
  // The step ids of a `pair`, `keypair` or `cover` line from field `first` on, 0-based.
  void step_ids(std::size_t first, std::vector<std::uint32_t>& into);

  void parse_header();
  void parse_task(bool embedded);
  void parse_rule(bool embedded);
  void parse_shifted_trace();
  void parse_steps();
  void parse_rows();
  void parse_pairs();
  void parse_sum();
  void parse_claim();
  void parse_core();       // certificate_v2.cpp
  void parse_queries();    // certificate_v2.cpp
  void parse_covers();     // certificate_v2.cpp
  void parse_embedded();   // certificate_v2.cpp
  void parse_generated();  // certificate_v2.cpp
  void parse_drops();      // certificate_v2.cpp
  void parse_blocks();     // certificate_product.cpp
  void parse_block();      // certificate_product.cpp

  LineReader reader_;
  Line line_;
  bool has_line_ = false;
  Certificate cert_;
};

}  // namespace krcheck::detail
