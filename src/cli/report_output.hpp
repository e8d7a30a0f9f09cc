// Human-readable renderings of evaluation results (their JSON form is app/report_json.hpp).
#pragma once

#include "kernelrank/app/report_json.hpp"  // outcome_to_json, report_to_json
#include "kernelrank/app/result_text.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

// The JSON forms are the application layer's (app/report_json.hpp), shared with Python.
using kernelrank::outcome_to_json;
using kernelrank::report_to_json;
// So are the text forms of exact values and instances (app/result_text.hpp).
using kernelrank::exact_with_decimal;
using kernelrank::instance_text;
using kernelrank::outcome_to_text;
// With a line "negative denominators: ..." when some solved instance has a negative
// denominator, or always when `signed_model`.
std::string report_to_text(const EvalReport& report, bool signed_model = false);
std::string negative_denominators_text(const EvalReport& report);

}  // namespace kernelrank::cli
