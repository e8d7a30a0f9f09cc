#include "family_output.hpp"

#include "report_output.hpp"

#include "kernelrank/app/certify_job.hpp"

namespace kernelrank::cli {

std::string checker_status_line(const VerifiedCertificate& certificate, const std::string& indent) {
  return indent + "checked in memory by kernelrank-check: " + certificate.checker_status() + "\n";
}

std::string family_bound_text(const FamilyBound& bound, const VerifiedCertificate& certificate,
                              std::size_t max_incomplete) {
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
    const std::string claim = "any NK model solving this family has r >= " + b.bound.str() + "\n";
    if (certificate.empty())
      text += "claimed (not checked): " + claim;
    else
      text += "certified: " + claim + checker_status_line(certificate, "  ");
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

}  // namespace kernelrank::cli
