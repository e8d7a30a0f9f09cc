// Range checks attached to options, so that a value given on the command line is refused
// even where the subcommand would otherwise take it from a file (eval --model F --m 0).
#pragma once

#include <CLI/CLI.hpp>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace kernelrank::cli {

// CLI11's own integer syntax (strtoll/strtoull, base 0), but a value past the type's range is
// an error here: strtoull alone turns "-1" and "99999999999999999999" into 2^64-1.
inline bool parse_signed_option(const std::string& text, long long& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtoll(text.c_str(), &end, 0);
  return errno == 0 && end == text.c_str() + text.size();
}

inline bool parse_unsigned_option(const std::string& text, std::uint64_t& value) {
  const std::size_t first = text.find_first_not_of(" \t\n\v\f\r+");
  if (text.empty() || first == std::string::npos || text[first] == '-') return false;
  char* end = nullptr;
  errno = 0;
  value = std::strtoull(text.c_str(), &end, 0);
  return errno == 0 && end == text.c_str() + text.size();
}

// CLI11 runs it only on values that were given; the message reads
// "--m: must be in 1..4096, not 0" and the run exits 2 before any work starts.
inline CLI::Validator in_range(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long value = 0;
        if (parse_signed_option(text, value) && value >= lo && value <= hi) return {};
        return "must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", not " + text;
      },
      std::to_string(lo) + ".." + std::to_string(hi));
}

// Attached by run_cli to every option of unsigned type (CLI11's type name "UINT"); no
// description, so --help reads as before. Narrower unsigned types are refused past their own
// range by CLI11's conversion, which checks the round trip.
inline CLI::Validator unsigned_range() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        if (parse_unsigned_option(text, value)) return {};
        return "must be in 0.." + std::to_string(UINT64_MAX) + ", not " + text;
      },
      std::string{});
}

// Attached by run_cli to every integer option: CLI11 converts with base 0, so "010" would be 8
// and "0x10" 16; a researcher means decimal. Accepts an optional sign and decimal digits
// without a leading zero (0 itself excepted).
inline CLI::Validator decimal_integer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::size_t at = text.empty() || (text[0] != '+' && text[0] != '-') ? 0 : 1;
        const std::string digits = text.substr(at);
        const bool decimal = !digits.empty() &&
                             digits.find_first_not_of("0123456789") == std::string::npos &&
                             (digits.size() == 1 || digits[0] != '0');
        if (decimal) return {};
        return "must be a decimal integer, not " + text;
      },
      std::string{});
}

}  // namespace kernelrank::cli
