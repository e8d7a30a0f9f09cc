// Certificate text for cube tasks and for explicit families (certificate.hpp).
#include "kernelrank/bounds/certificate.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank {

std::string single_line(const std::string& text) {
  std::string line = text;
  for (char& c : line)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  return line;
}

std::string task_line(const CertificateTask& task, const std::string& kind) {
  return "task " + kind + " m=" + std::to_string(task.m) + " n=" + std::to_string(task.n) +
         " mode=" + to_string(task.mode) + " class=" + (task.positive_features ? "PF" : "NK") +
         " positions=" + (task.position_dependent ? "dependent" : "independent");
}

namespace {

std::string rule_line(const RankBoundResult& bound) {
  switch (bound.rule) {
    case BoundRule::Trace:
      return "rule trace precision=" + std::to_string(bound.precision) + "\n";
    case BoundRule::Dominance:
      return "rule dominance\n";
    case BoundRule::ShiftedTrace:
      return "rule shifted-trace precision=" + std::to_string(bound.precision) +
             " shift=" + to_string(bound.shift) + "\n";
  }
  throw InternalError("unknown bound rule");
}

// Format 3 holds the shifted trace rule; everything else is written as format 1.
std::string header_line(const RankBoundResult& bound) {
  return bound.rule == BoundRule::ShiftedTrace ? "kernelrank-certificate 3\n"
                                               : "kernelrank-certificate 1\n";
}

std::string sum_and_claim(const RankBoundResult& bound) {
  std::string text = bound.rule == BoundRule::Dominance
                         ? "sum " + to_string(bound.max_row_sum) + "\n"
                         : "sum " + bound.trace_sum.str() + "\n";
  return text + "claim r >= " + bound.bound.str() + "\nend\n";
}

}  // namespace

std::string cube_certificate(const CertificateTask& task, const std::string& construction,
                             const std::vector<BoundRow>& rows, const RankBoundResult& bound) {
  if (!bound.applicable)
    throw UsageError("cannot write a certificate for a bound that does not apply");
  if (bound.rule == BoundRule::ShiftedTrace)
    throw InternalError("the shifted trace rule is for family certificates only");
  std::string text = "kernelrank-certificate 1\n";
  text += task_line(task, "cube") + "\n";
  text += "construction " + single_line(construction) + "\n";
  text += rule_line(bound);
  text += "rows " + std::to_string(rows.size()) + "\n";
  for (const BoundRow& row : rows)
    text += "row " + row.own.to_string() + " " + row.query.to_string() + "\n";
  return text + sum_and_claim(bound);
}

std::string family_certificate(const CertificateTask& task, const std::string& family_sha256,
                               const std::string& construction, const FamilyBound& bound) {
  if (!bound.found || !bound.bound.applicable)
    throw UsageError("cannot write a certificate: the family supports no bound");
  CertificateTask family_task = task;
  bool all_first = true, all_last = true;
  for (const FamilyStep& step : bound.steps) {
    all_first = all_first && step.position == 0;
    all_last = all_last && step.position == task.n - 1;
  }
  family_task.mode = all_first ? QueryMode::First : (all_last ? QueryMode::Last : QueryMode::All);
  std::string text = header_line(bound.bound);
  text += task_line(family_task, "family") + " sha256=" + family_sha256 + "\n";
  text += "construction " + single_line(construction) + "\n";
  text += rule_line(bound.bound);
  text += "steps " + std::to_string(bound.steps.size()) + "\n";
  for (std::size_t s = 0; s < bound.steps.size(); ++s) {
    const FamilyStep& step = bound.steps[s];
    text += "step " + std::to_string(s + 1) + " pos=" + std::to_string(step.position + 1) +
            " q=" + step.q.to_string() + " a=" + step.a.to_string() + " b=" + step.b.to_string() +
            " k=" + std::to_string(step.k) + "\n";
  }
  text += "rows " + std::to_string(bound.rows.size()) + "\n";
  for (const FamilyRow& row : bound.rows)
    text += "row " + row.own.to_string() + " " + row.query.to_string() + "\n";
  text += "pairs " + std::to_string(bound.chains.size()) + "\n";
  for (const FamilyChain& chain : bound.chains) {
    text += "pair " + std::to_string(chain.i + 1) + " " + std::to_string(chain.j + 1) + " :";
    for (std::size_t s : chain.steps) text += " " + std::to_string(s + 1);
    text += "\n";
  }
  return text + sum_and_claim(bound.bound);
}

}  // namespace kernelrank
