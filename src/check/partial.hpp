// Partial results of a sharded rule trace-uniform check (docs/certificate-format.md,
// "Partial results"): what `kernelrank-check --shard k/K --partial OUT` writes and
// `kernelrank-check --merge` reads. The text is
//
//   kernelrank-check-partial 1
//   certificate <SHA-256 of the certificate's bytes, 64 lowercase hex digits>
//   shard <k>/<K>
//   weight <W>
//   pairs <N>                    the unordered pairs of kept rows this shard counted
//   overlap <o> <count>          W + 1 lines, o = 0, 1, ..., W in order; counts sum to N
//   small-gap none | small-gap <i> <j> <o>   the shard's smallest pair with o >= W - 1
//   end
//
// read_partial() checks the syntax and the partial's own consistency; the checks against
// the certificate and the other partials are merge_partials()'s (check.cpp).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "check/sha256.hpp"
#include "check/uniform_rule.hpp"

namespace krcheck {

struct Partial {
  std::string file;
  long certificate_line = 0;
  Digest certificate{};
  long shard_line = 0;
  std::uint64_t shard_index = 0;  // k
  std::uint64_t shard_count = 0;  // K
  long weight_line = 0;
  int weight = 0;
  long pairs_line = 0;
  std::uint64_t pairs = 0;
  long small_gap_line = 0;
  OverlapHistogram histogram;
};

std::string partial_text(const Digest& certificate, std::uint64_t shard_index,
                         std::uint64_t shard_count, const OverlapHistogram& histogram);

// Throws CheckError (malformed) naming the file and line of the first problem.
Partial read_partial(std::istream& in, const std::string& file);

// Writes `text` to a temporary file next to `path` and renames it over `path`, so `path`
// is either absent, its old self or complete. Throws CheckError (malformed, `path`, line 0).
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace krcheck
