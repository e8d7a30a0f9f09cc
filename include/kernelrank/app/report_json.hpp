// The one JSON form of an evaluation report and of an evaluated instance, which every app
// result that carries one uses (eval, multi-head eval, counterexample, eval-merge), so the CLI
// prints it and the Python module converts it, never a second copy.
#pragma once

#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank {

// {"query": 1-based, "tokens": ["0101", ...], "target", "fails", "output", "error"}.
nlohmann::json outcome_to_json(const InstanceOutcome& outcome);
// method, counts, error rate, verdict, first failures, worst instance, negative denominators.
nlohmann::json report_to_json(const EvalReport& report);

}  // namespace kernelrank
