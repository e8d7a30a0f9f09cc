// Human-readable and JSON renderings of evaluation results.
#pragma once

#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

nlohmann::json outcome_to_json(const InstanceOutcome& outcome);
std::string outcome_to_text(const InstanceOutcome& outcome);
// An instance for people: 0/1 tokens up to m = 64, index lists beyond.
std::string instance_text(const Instance& instance);
nlohmann::json report_to_json(const EvalReport& report);
// With a line "negative denominators: ..." when some solved instance has a negative
// denominator, or always when `signed_model`.
std::string report_to_text(const EvalReport& report, bool signed_model = false);
std::string negative_denominators_text(const EvalReport& report);
// "2/5 (0.4000)"
std::string exact_with_decimal(const Rational& value);

}  // namespace kernelrank::cli
