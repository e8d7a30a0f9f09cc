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

int run_ball_eval(const RealHead& head, const BallTask& task, const BallOptions& options,
                  const GlobalOptions& global) {
  if (task.m != 0 && task.m != head.m)
    throw UsageError("the head has width m=" + std::to_string(head.m) + " but --m is " +
                     std::to_string(task.m));
  std::string task_text;
  BallReport report;
  if (!task.family.empty()) {
    const Family family = read_family(task.family);
    task_text = "family " + task.family + " (" + std::to_string(family.instances.size()) +
                " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) +
                ")";
    report = evaluate_ball_family(head, family, options);
  } else {
    task_text = "cube task T(" + std::to_string(head.m) + "," + std::to_string(task.n) +
                ") (mode " + to_string(options.mode) + ")";
    report = evaluate_ball_cube(head, task.n, options);
  }
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
  const std::string model_class = head.map == FeatureMap::Softmax ? "NK" : "PF";
  const std::string class_detail =
      head.map == FeatureMap::Softmax ? "exp(...) > 0" : "the features are > 0";
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
