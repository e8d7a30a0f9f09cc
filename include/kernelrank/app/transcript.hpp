// The finite-precision transcript bound of theory.md L7 (`kernelrank transcript`,
// kernelrank.transcript) for the cube T(m,n) or an explicit family (docs/transcript.md):
// which task the request names, checked, then the bound and the time it took. Messages
// name parameters as {m}, {n}, {family}, {method}, {cross-check} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/transcript.hpp"

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

}  // namespace kernelrank
