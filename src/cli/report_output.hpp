// Human-readable renderings of evaluation results (their JSON form is app/report_json.hpp).
#pragma once

#include "kernelrank/app/report_json.hpp"  // outcome_to_json, report_to_json
#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

std::string outcome_to_text(const InstanceOutcome& outcome);
// An instance for people: 0/1 tokens up to m = 64, index lists beyond.
std::string instance_text(const Instance& instance);
// With a line "negative denominators: ..." when some solved instance has a negative
// denominator, or always when `signed_model`.
std::string report_to_text(const EvalReport& report, bool signed_model = false);
std::string negative_denominators_text(const EvalReport& report);
// "2/5 (0.4000)"
std::string exact_with_decimal(const Rational& value);

}  // namespace kernelrank::cli
