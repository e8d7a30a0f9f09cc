// The pipeline behind `kernelrank counterexample` and kernelrank.counterexample: a concrete
// failing instance for a model below the certified bound, found by following the proof
// (bounds/counterexample.hpp) or exhaustively; a multi-head file is searched exhaustively
// (the proof-guided path needs a single NK head). The failing instance can be written as a
// one-line family file (atomically). Messages name parameters as {m}, {n}, {family}
// (core/errors.hpp).
#pragma once

#include "kernelrank/app/head_source.hpp"
#include "kernelrank/bounds/counterexample.hpp"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace kernelrank {

struct CounterexampleRequest {
  std::optional<int> m;  // the cube's width, 1..kMaxModelWidth (none: the model's)
  int n = 3;
  std::string family;  // search this family file instead of the cube
  std::string out;     // write the failing instance here ("": no file)
};

struct CounterexampleOutcome {
  std::string model;  // the model's description
  std::string task;   // "T(24,3)", "family PATH" or a multi-head evaluation's task
  Counterexample result;
  std::string out;  // the file written, or ""
  bool found() const { return result.failing.has_value(); }
  // An exhaustive search proved that no failing instance exists.
  bool solves() const { return !result.failing && result.exhaustive_solves; }
};

// `head` as opened by the front end (a multi-head file recognised, or refused there).
CounterexampleOutcome run_counterexample(HeadSource& head, const CounterexampleRequest& request);

// {"path", "task", "model", "explanation", "fallback_reason", "kernel_entries", "solves",
// and when found "failing", "construction", "out"}.
nlohmann::json counterexample_json(const CounterexampleOutcome& outcome);

}  // namespace kernelrank
