// Certificate text for cube tasks (family certificates: family_certificate.cpp).
#include "kernelrank/certificate.hpp"

#include "kernelrank/errors.hpp"

namespace kernelrank {

std::string task_line(const CertificateTask& task, const std::string& kind) {
  return "task " + kind + " m=" + std::to_string(task.m) + " n=" + std::to_string(task.n) +
         " mode=" + to_string(task.mode) + " class=" + (task.positive_features ? "PF" : "NK") +
         " positions=" + (task.position_dependent ? "dependent" : "independent");
}

std::string cube_certificate(const CertificateTask& task, const std::string& construction,
                             const std::vector<BoundRow>& rows, const RankBoundResult& bound) {
  if (!bound.applicable) throw UsageError("cannot write a certificate for a bound that does not apply");
  std::string text = "kernelrank-certificate 1\n";
  text += task_line(task, "cube") + "\n";
  std::string single_line = construction;
  for (char& c : single_line)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  text += "construction " + single_line + "\n";
  if (bound.rule == BoundRule::Trace) {
    text += "rule trace precision=" + std::to_string(bound.precision) + "\n";
  } else {
    text += "rule dominance\n";
  }
  text += "rows " + std::to_string(rows.size()) + "\n";
  for (const BoundRow& row : rows) text += "row " + row.own.to_string() + " " + row.query.to_string() + "\n";
  if (bound.rule == BoundRule::Trace) {
    text += "sum " + bound.trace_sum.str() + "\n";
  } else {
    text += "sum " + to_string(bound.max_row_sum) + "\n";
  }
  text += "claim r >= " + bound.bound.str() + "\n";
  text += "end\n";
  return text;
}

}  // namespace kernelrank
