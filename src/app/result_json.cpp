// The JSON form of witness, certify and construct results (app/result_json.hpp).
#include "kernelrank/app/result_json.hpp"

#include <algorithm>

namespace kernelrank {
namespace {

nlohmann::json path_or_null(const std::string& path) {
  return path.empty() ? nlohmann::json(nullptr) : nlohmann::json(path);
}

}  // namespace

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

nlohmann::json family_bound_json(const FamilyBound& bound, const VerifiedCertificate& certificate,
                                 std::size_t listed) {
  nlohmann::json incomplete = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min(listed, bound.analysis.incomplete.size()); ++i)
    incomplete.push_back(incomplete_pattern_text(bound.analysis.incomplete[i], true));
  nlohmann::json j = {{"steps_supported", bound.analysis.steps.size()},
                      {"found", bound.found},
                      {"why_not", bound.why_not},
                      {"incomplete_count", bound.analysis.incomplete.size()},
                      {"incomplete", incomplete}};
  if (bound.found) {
    j["bound"] = bound.bound.bound.str();
    j["rule"] = to_string(bound.bound.rule);
    j["rows"] = bound.rows.size();
    j["steps_used"] = bound.steps.size();
    if (bound.bound.rule != BoundRule::Dominance)
      j["trace_value"] = to_string(bound.bound.trace_value());
    if (bound.bound.rule == BoundRule::ShiftedTrace) j["shift"] = to_string(bound.bound.shift);
    j["checked"] = !certificate.empty();
    if (!certificate.empty()) j["checker_status"] = certificate.checker_status();
  }
  return j;
}

nlohmann::json witness_json(const WitnessRequest& request, const WitnessOutcome& outcome,
                            std::size_t listed) {
  nlohmann::json j = family_bound_json(outcome.bound, outcome.certificate, listed);
  j["construction"] = outcome.construction;
  j["m"] = outcome.witness.family.m;
  j["n"] = outcome.witness.family.n;
  j["instances"] = outcome.witness.family.instances.size();
  j["code_rows"] = outcome.witness.rows.size();
  j["rows_left_out"] = outcome.witness.rows_left_out;
  j["family"] = path_or_null(request.out);
  j["certificate"] = path_or_null(request.certificate);
  return j;
}

nlohmann::json certify_json(const CertifyRequest& request, const CertifyOutcome& outcome,
                            std::size_t listed) {
  nlohmann::json j = family_bound_json(outcome.bound, outcome.certificate, listed);
  j["family"] = request.family;
  j["m"] = outcome.m;
  j["n"] = outcome.n;
  j["instances"] = outcome.instances;
  if (!outcome.certificate_message.empty()) j["certificate"] = request.certificate;
  if (outcome.lost_steps) {
    const std::vector<IncompletePattern>& lost = *outcome.lost_steps;
    nlohmann::json lines = nlohmann::json::array();
    for (std::size_t i = 0; i < std::min(listed, lost.size()); ++i)
      lines.push_back(incomplete_pattern_text(lost[i], false));
    j["lost_steps"] = lines;
    j["lost_steps_count"] = lost.size();
  }
  return j;
}

nlohmann::json construct_json(const ConstructRequest& request, const ConstructOutcome& outcome) {
  const ComplementHead& head = outcome.head;
  nlohmann::json j = {{"family", request.family},
                      {"instances", outcome.instances},
                      {"queries", head.queries.size()},
                      {"r", head.queries.size()},
                      {"activation", "relu"},
                      {"slope", to_string(head.slope)},
                      {"diagonal", to_string(head.diagonal)},
                      {"candidates", head.candidates},
                      {"evaluation", report_to_json(outcome.report)}};
  if (outcome.written) j["file"] = request.out;
  return j;
}

}  // namespace kernelrank
