// The JSON form of witness, certify and construct results (app/result_json.hpp).
#include "kernelrank/app/result_json.hpp"

#include <algorithm>

namespace kernelrank {
namespace {

nlohmann::json path_or_null(const std::string& path) {
  return path.empty() ? nlohmann::json(nullptr) : nlohmann::json(path);
}

}  // namespace

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
