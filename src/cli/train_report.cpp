// Report records of `kernelrank train` (train_report.hpp). Float figures are JSON numbers,
// for comparison only; the decided ones are "p/q" strings.
#include "train_report.hpp"

#include "report_output.hpp"

#include <cmath>
#include <variant>

namespace kernelrank::cli {
namespace {

nlohmann::json float_part(std::size_t instances, std::size_t float_failing) {
  const double rate =
      instances == 0 ? 0.0 : static_cast<double>(float_failing) / static_cast<double>(instances);
  return {{"instances", instances},
          {"float_failing", float_failing},
          {"float_error_rate", rate},
          {"float_accuracy", 1.0 - rate}};
}

nlohmann::json float_value(double y) {
  return std::isfinite(y) ? nlohmann::json(y) : nlohmann::json("not finite");
}

}  // namespace

nlohmann::json split_to_json(const SplitVerification& split) {
  nlohmann::json j = float_part(split.instances, split.float_failing);
  const EvalReport& r = split.exact;
  nlohmann::json exact = {{"method", "exact rational arithmetic"},
                          {"verdict", r.solves() ? "solves (verified exactly)" : "fails"},
                          {"failing", r.failing.str()},
                          {"undefined", r.undefined.str()},
                          {"undecided", "0"},
                          {"error_rate", to_string(r.error_rate())}};
  exact["max_error"] =
      r.max_error ? nlohmann::json(to_string(*r.max_error)) : nlohmann::json(nullptr);
  exact["first_failure"] =
      r.failures.empty()
          ? nlohmann::json(nullptr)
          : nlohmann::json(
                {{"instance", to_string(r.failures[0].instance)},
                 {"target", r.failures[0].target},
                 {"output", r.failures[0].output ? nlohmann::json(to_string(*r.failures[0].output))
                                                 : nlohmann::json(nullptr)}});
  j["exact"] = exact;
  j["disagreements"] = split.disagreement_count;
  nlohmann::json listed = nlohmann::json::array();
  for (const FloatExactDisagreement& dis : split.disagreements)
    listed.push_back(
        {{"instance", to_string(dis.instance)},
         {"target", dis.target},
         {"float_output", float_value(dis.float_output)},
         {"exact_output", dis.exact_output ? nlohmann::json(to_string(*dis.exact_output))
                                           : nlohmann::json(nullptr)},
         {"float_says", dis.float_fails ? "fails" : "correct"},
         {"exact_says", dis.exact_fails ? "fails" : "correct"}});
  j["disagreement_list"] = listed;
  return j;
}

nlohmann::json split_to_json(const BallSplitVerification& split) {
  nlohmann::json j = float_part(split.instances, split.float_failing);
  const BallReport& r = split.rigorous;
  const bool solves = r.solves();
  const std::string verdict = solves ? "solves (decided rigorously)"
                              : r.failing > 0
                                  ? "fails"
                                  : "undecided at " + std::to_string(r.final_precision) + " bits";
  nlohmann::json exact = {
      {"method", "ball arithmetic (Arb), up to " + std::to_string(r.final_precision) + " bits"},
      {"verdict", verdict},
      {"failing", std::to_string(r.failing)},
      {"undefined", "0"},
      {"undecided", std::to_string(r.undecided)},
      {"error_rate",
       to_string(Rational(static_cast<long>(r.failing)) /
                 Rational(static_cast<long>(std::max<std::uint64_t>(1, r.instances))))}};
  // An upper bound on max |y - t| (exact dyadic); the lower end of its enclosure next to it.
  exact["max_error"] = r.max_error_hi ? nlohmann::json(to_string(*r.max_error_hi)) : nullptr;
  exact["max_error_lo"] = r.max_error_lo ? nlohmann::json(to_string(*r.max_error_lo)) : nullptr;
  exact["first_failure"] = r.failures.empty()
                               ? nlohmann::json(nullptr)
                               : nlohmann::json({{"instance", to_string(r.failures[0].instance)},
                                                 {"target", r.failures[0].target},
                                                 {"output", r.failures[0].output}});
  j["exact"] = exact;
  j["disagreements"] = split.disagreement_count;
  nlohmann::json listed = nlohmann::json::array();
  for (const BallDisagreement& dis : split.disagreements)
    listed.push_back({{"instance", to_string(dis.instance)},
                      {"target", dis.target},
                      {"float_output", float_value(dis.float_output)},
                      {"ball_output", dis.ball_output},
                      {"float_says", dis.float_fails ? "fails" : "correct"},
                      {"decided", dis.float_fails ? "correct" : "fails"}});
  j["disagreement_list"] = listed;
  return j;
}

std::string split_cell(const SplitVerification& s) {
  const EvalReport& r = s.exact;
  std::string text = std::to_string(s.float_failing) + " | ";
  text += r.failing.str() + (r.undefined != 0 ? " (" + r.undefined.str() + " undef)" : "") + " | ";
  // Trained weights give long exact fractions: the table shows 6 places, report.json the exact
  // value.
  text += (r.max_error ? "~" + to_decimal(*r.max_error, 6) : std::string("none defined")) + " | ";
  text += std::string(r.solves() ? "solves (verified exactly)" : "FAILS") + " | ";
  return text + std::to_string(s.disagreement_count);
}

std::string split_cell(const BallSplitVerification& s) {
  const BallReport& r = s.rigorous;
  std::string text = std::to_string(s.float_failing) + " | " + std::to_string(r.failing);
  if (r.undecided > 0) text += " (" + std::to_string(r.undecided) + " undecided)";
  text += " | " + (r.max_error_hi ? "<= " + decimal_text(*r.max_error_hi, 6) : "none") + " | ";
  text += verdict_text(r) + " | ";
  return text + std::to_string(s.disagreement_count);
}

nlohmann::json split_to_json(const TrainedSplitVerdict& split) {
  return std::visit([](const auto& s) { return split_to_json(s); }, split);
}

std::string split_cell(const TrainedSplitVerdict& split) {
  return std::visit([](const auto& s) { return split_cell(s); }, split);
}

}  // namespace kernelrank::cli
