// The finite-precision transcript bound of theory.md L7 (`kernelrank transcript`,
// kernelrank.transcript) for the cube T(m,n) or an explicit family (docs/transcript.md):
// which task the request names, checked, then the bound and the time it took. Messages
// name parameters as {m}, {n}, {family}, {method}, {cross-check} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/transcript.hpp"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace kernelrank {

struct TranscriptRequest {
  std::optional<int> m;         // the cube T(m,n); or
  std::string family;           // a family file
  std::optional<int> n;         // the cube's length (3 when not given); a family has its own
  std::string method = "auto";  // the cube's count: auto, brute-force or antichains
  bool cross_check = false;     // the cube: both counts, which must agree
};

// Exactly one of cube and family is set.
struct TranscriptResult {
  std::optional<CubeTranscriptResult> cube;
  std::optional<FamilyTranscriptResult> family;
  std::string family_path;
  double seconds = 0;  // wall clock, for display only
};

// DomainError when the request names no task, both, or options of the other task; then
// what the bound's computation throws.
TranscriptResult run_transcript(const TranscriptRequest& request);

// The one JSON form of the result (the CLI prints it for --json): task ("cube" or "family"),
// m, n, the counts (big ones as decimal strings), log2 and min_bits (null for an empty
// family), the independent answers and seconds; a family also its clique and colouring
// bound. A cube wider than 64 lists no query tokens (block_weight describes them).
nlohmann::json transcript_json(const TranscriptResult& result);

}  // namespace kernelrank
