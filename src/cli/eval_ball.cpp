// The ball-arithmetic report of `kernelrank eval` (eval_ball.hpp, docs/cli.md#eval).
#include "eval_ball.hpp"

#include "report_output.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::cli {
namespace {

nlohmann::json ball_outcome_json(const BallOutcome& outcome) {
  nlohmann::json tokens = nlohmann::json::array();
  for (const Token& x : outcome.instance.tokens) tokens.push_back(x.to_string());
  nlohmann::json j = {{"query", outcome.instance.query + 1},
                      {"tokens", tokens},
                      {"target", outcome.target},
                      {"output", outcome.output},
                      {"verdict", to_string(outcome.verdict)},
                      {"precision", outcome.precision}};
  if (outcome.enclosed) {
    j["output_lo"] = to_string(outcome.lo);
    j["output_hi"] = to_string(outcome.hi);
    j["error"] = to_string(outcome.error_hi());
    j["error_lo"] = to_string(outcome.error_lo());
  } else {
    j["output_lo"] = j["output_hi"] = j["error"] = j["error_lo"] = nullptr;
  }
  return j;
}

std::string ball_outcome_text(const BallOutcome& outcome) {
  return instance_text(outcome.instance) + "  target " + std::to_string(outcome.target) +
         "  output " + outcome.output + "  (" + std::to_string(outcome.precision) + " bits)";
}

}  // namespace

int print_ball_report(const RealHead& head, const BallEvaluation& run,
                      const GlobalOptions& global) {
  const std::string& task_text = run.task;
  const BallReport& report = run.report;
  const BallOptions& options = run.options;
  nlohmann::json failures = nlohmann::json::array(), undecided = nlohmann::json::array(),
                 decided_at = nlohmann::json::object();
  for (const BallOutcome& o : report.failures) failures.push_back(ball_outcome_json(o));
  for (const BallOutcome& o : report.undecided_list) undecided.push_back(ball_outcome_json(o));
  for (const auto& [bits, count] : report.decided_at) decided_at[std::to_string(bits)] = count;
  const auto exact_or_null = [](const std::optional<Rational>& v) {
    return v ? nlohmann::json(to_string(*v)) : nlohmann::json(nullptr);
  };
  const nlohmann::json json_report = {
      {"method", report.method + ", ball arithmetic"},
      {"instances", std::to_string(report.instances)},
      {"passing", std::to_string(report.passing)},
      {"failing", std::to_string(report.failing)},
      {"undecided", std::to_string(report.undecided)},
      {"solves", report.solves()},
      {"verdict", verdict_text(report)},
      {"max_error", exact_or_null(report.max_error_hi)},
      {"max_error_lo", exact_or_null(report.max_error_lo)},
      {"start_precision", options.precision},
      {"max_precision", options.max_precision},
      {"final_precision", report.final_precision},
      {"decided_at", decided_at},
      {"worst", report.worst ? ball_outcome_json(*report.worst) : nlohmann::json(nullptr)},
      {"failures", failures},
      {"undecided_instances", undecided}};
  const Classification cls = ball_head_class(head);
  const std::string model_class = to_string(cls.model_class);
  const std::string& class_detail = cls.detail;
  const nlohmann::json json = {
      {"task", task_text},
      {"model",
       {{"description", head.description}, {"class", model_class}, {"class_detail", class_detail}}},
      {"report", json_report}};
  std::string human =
      "task:        " + task_text + "\nmodel:       " + head.description +
      "\nclass:       " + model_class + " (" + class_detail + ")\nmethod:      " + report.method +
      ", ball arithmetic from " + std::to_string(options.precision) + " bits, doubling up to " +
      std::to_string(options.max_precision) + "\ninstances:   " + std::to_string(report.instances) +
      "\nfailing:     " + std::to_string(report.failing) +
      "\nundecided:   " + std::to_string(report.undecided) + "\n";
  if (report.max_error_hi)
    human += "max error:   in [" + decimal_text(*report.max_error_lo) + ", " +
             decimal_text(*report.max_error_hi) + "] (exact dyadic bounds in --json)\n";
  human += "decided at: ";
  for (const auto& [bits, count] : report.decided_at)
    human += " " + std::to_string(bits) + " bits: " + std::to_string(count) + ";";
  human += "\n";
  if (report.worst) human += "worst:       " + ball_outcome_text(*report.worst) + "\n";
  for (const BallOutcome& o : report.failures)
    human += "  fails:     " + ball_outcome_text(o) + "\n";
  for (const BallOutcome& o : report.undecided_list)
    human += "  undecided: " + ball_outcome_text(o) + "\n";
  human += "verdict:     " + verdict_text(report) + "\n";
  emit(global, json, human);
  if (report.failing > 0) return kExitNegative;
  return report.undecided > 0 ? kExitUnknown : kExitOk;
}

}  // namespace kernelrank::cli
