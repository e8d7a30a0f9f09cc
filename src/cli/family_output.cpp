#include "family_output.hpp"

#include "report_output.hpp"

#include "kernelrank/app/certify_job.hpp"

namespace kernelrank::cli {

std::string family_bound_text(const FamilyBound& bound, std::size_t max_incomplete) {
  std::string text;
  text += "domination steps supported: " + std::to_string(bound.analysis.steps.size()) + "\n";
  if (bound.found) {
    const RankBoundResult& b = bound.bound;
    text += "rows chosen: " + std::to_string(bound.rows.size()) +
            ", steps used by their chains: " + std::to_string(bound.steps.size()) + "\n";
    if (b.rule == BoundRule::Trace)
      text += "rule: trace, T >= " + exact_with_decimal(b.trace_value()) + "\n";
    else if (b.rule == BoundRule::ShiftedTrace)
      text += "rule: shifted trace, W = t J with t = " + to_string(b.shift) +
              ", T_W >= " + exact_with_decimal(b.trace_value()) + ", r >= ceil(T_W) - 1\n";
    else
      text += "rule: dominance, largest row sum " + exact_with_decimal(b.max_row_sum) + "\n";
    text += "certified: any NK model solving this family has r >= " + b.bound.str() + "\n";
  } else {
    text += "no bound:\n";
    for (const std::string& why : bound.why_not) text += "  " + why + "\n";
  }
  if (!bound.analysis.incomplete.empty()) {
    text +=
        "incomplete patterns (an S3-shaped instance without its S1 or S2, or S3 missing some "
        "arrangements): " +
        std::to_string(bound.analysis.incomplete.size()) + "\n";
    for (std::size_t i = 0; i < std::min(max_incomplete, bound.analysis.incomplete.size()); ++i)
      text += "  " + incomplete_pattern_text(bound.analysis.incomplete[i], true) + "\n";
  }
  return text;
}

nlohmann::json family_bound_json(const FamilyBound& bound, std::size_t max_incomplete) {
  nlohmann::json incomplete = nlohmann::json::array();
  for (std::size_t i = 0; i < std::min(max_incomplete, bound.analysis.incomplete.size()); ++i)
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
  }
  return j;
}

}  // namespace kernelrank::cli
