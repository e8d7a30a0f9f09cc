// Range checks attached to options, so that a value given on the command line is refused
// even where the subcommand would otherwise take it from a file (eval --model F --m 0).
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace kernelrank::cli {

// CLI11 runs it only on values that were given; the message reads
// "--m: must be in 1..4096, not 0" and the run exits 2 before any work starts.
inline CLI::Validator in_range(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long value = 0;
        const bool parsed = CLI::detail::lexical_cast(text, value);
        if (parsed && value >= lo && value <= hi) return {};
        return "must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", not " + text;
      },
      std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace kernelrank::cli
