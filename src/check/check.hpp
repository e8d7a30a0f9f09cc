// The checker's entry points: parse, check, conclude, and print exactly one status line.
//
// Output on `out`: comment lines starting with "c " and one status line, "s VERIFIED",
// "s NOT VERIFIED" or (a shard run) "s PARTIAL". Errors go to `err` as
// "FILE:LINE: error: MESSAGE" (line 0 for the whole file). "s VERIFIED" is printed only when
// every check has returned normally. The output never depends on the thread count or on
// how a check was sharded (docs/certificate-format.md, "Sharded checking").
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "check/status.hpp"

namespace krcheck {

struct CheckResult {
  Status status = Status::malformed;
  std::string bound;  // the bound r >= bound that the rule gives (when it was computed)
  std::string claim;  // the claimed K (when the certificate was parsed)
  // A layered head (docs/certificate-format.md, "Layered heads (upper bounds)"): the N of
  // "r <= N" when it verified; `bound` and `claim` stay empty.
  std::string upper;
  // A shard run: the text of the partial file (docs/certificate-format.md, "Partial
  // results"), to be written as is. Filled when the shard's pairs were counted, also when
  // one of them has a gap below 2 (status not_verified), so that a merge names the same
  // pair as an unsharded run; empty otherwise.
  std::string partial;
};

// An input by name; `stream` is null when the file could not be opened.
struct NamedInput {
  std::string name;
  std::istream* stream = nullptr;  // nullptr: the file could not be opened
  bool directory = false;          // the name is a directory (not opened)
  bool special = false;            // a FIFO, socket or device (not opened: a FIFO blocks)
};

// Opens `path` into `file` for reading, unless it is a directory, FIFO, socket or device.
NamedInput open_input(const std::string& path, std::ifstream& file);

struct CheckOptions {
  // Worker threads for the pair passes (rule trace-uniform, and the explicit-rows cube
  // trace rule); 0 means all hardware threads. Must be >= 0.
  int threads = 0;
  // (k, K), 1 <= k <= K: count only shard k of K of a rule trace-uniform certificate's
  // pairs and return the partial result (status partial) instead of a verdict. Any other
  // rule, or k/K out of range, is malformed.
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
};

CheckResult check_certificate(const NamedInput& cert, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err, const CheckOptions& options);

// The same with default options (all hardware threads, no shard).
CheckResult check_certificate(const NamedInput& cert, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err);

CheckResult check_certificate(const std::string& cert_path,
                              const std::optional<std::string>& family_path, std::ostream& out,
                              std::ostream& err, const CheckOptions& options = {});

// Concludes a sharded check: `partials` must be the partial files of all K shards of
// `cert` (each k = 1..K once, all naming cert's SHA-256 and the same K). Prints what the
// unsharded check prints, plus a comment line "c merged K shards", and returns its status;
// any problem with the partials is malformed input (exit 2), reported at the partial's line.
CheckResult merge_partials(const NamedInput& cert, const std::vector<NamedInput>& partials,
                           std::ostream& out, std::ostream& err);

// The exit code of a status: 0 verified or partial, 1 not verified, 2 malformed.
int exit_code(Status status);

}  // namespace krcheck
