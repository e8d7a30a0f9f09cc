// See report_json.hpp.
#include "kernelrank/app/report_json.hpp"

namespace kernelrank {

nlohmann::json outcome_to_json(const InstanceOutcome& outcome) {
  nlohmann::json tokens = nlohmann::json::array();
  for (const Token& x : outcome.instance.tokens) tokens.push_back(x.to_string());
  nlohmann::json j = {{"query", outcome.instance.query + 1},
                      {"tokens", tokens},
                      {"target", outcome.target},
                      {"fails", outcome.fails()}};
  j["output"] =
      outcome.output ? nlohmann::json(to_string(*outcome.output)) : nlohmann::json(nullptr);
  j["error"] = outcome.error ? nlohmann::json(to_string(*outcome.error)) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json report_to_json(const EvalReport& report) {
  nlohmann::json failures = nlohmann::json::array();
  for (const InstanceOutcome& o : report.failures) failures.push_back(outcome_to_json(o));
  nlohmann::json j = {{"method", report.method},
                      {"instances", report.instances.str()},
                      {"failing", report.failing.str()},
                      {"undefined", report.undefined.str()},
                      {"error_rate", to_string(report.error_rate())},
                      {"solves", report.solves()},
                      {"failures", failures}};
  j["max_error"] =
      report.max_error ? nlohmann::json(to_string(*report.max_error)) : nlohmann::json(nullptr);
  j["worst"] = report.worst ? outcome_to_json(*report.worst) : nlohmann::json(nullptr);
  j["negative_solved"] = report.negative_solved.str();
  nlohmann::json example(nullptr);
  if (report.negative_example) {
    example = outcome_to_json(*report.negative_example);
    const auto& denominator = report.negative_example->denominator;
    example["denominator"] =
        denominator ? nlohmann::json(to_string(*denominator)) : nlohmann::json(nullptr);
  }
  j["negative_example"] = example;
  return j;
}

}  // namespace kernelrank
