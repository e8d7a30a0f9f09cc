// Exact evaluation of a multi-head model file (docs/model-format.md §13) on a family, a token
// set or the cube T(m,n), for `kernelrank eval` and the exhaustive path of counterexample:
// the heads, their classes and feature counts, and eval/multi_head_eval.hpp's report.
// Messages name parameters as {n}, {m}, {family} and the single-head options the request
// lists (core/errors.hpp).
#pragma once

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/multi_head.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct MultiHeadEvalRequest {
  std::string family;    // a family file; or
  std::string tokens;    // a code file: every length-n sequence over its words; or the cube
  std::optional<int> m;  // the cube's width (none: the model's)
  int n = 3;
  QueryMode mode = QueryMode::First;
  std::size_t failures = 10;
  std::uint64_t max_instances = 1ULL << 34;
  // Parameters given that apply only to single heads, by name ("profiles", "shard"): refused.
  std::vector<std::string> single_head_options;
};

struct MultiHeadEvaluation {
  std::string task;
  std::string description;
  std::size_t head_count = 0;
  std::vector<std::string> head_descriptions;
  std::vector<Classification> classes;                // per head
  std::optional<std::vector<HeadFeatures>> features;  // per head; none: refused (why: below)
  std::string features_refused;
  EvalReport report;
};

// `file` is the model file as read once (a multi-head file); the request is checked first.
MultiHeadEvaluation evaluate_multi_head(const ModelFile& file, const MultiHeadEvalRequest& request);

// {"task", "model": {"description", "heads": [...], "features"}, "report"}.
nlohmann::json multi_head_evaluation_json(const MultiHeadEvaluation& evaluation);

}  // namespace kernelrank
