// Human-readable and JSON renderings of evaluation results.
#pragma once

#include "kernelrank/app/result_json.hpp"
#include "kernelrank/app/result_text.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace kernelrank::cli {

// The JSON forms are the application layer's (app/result_json.hpp), shared with Python.
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
