// The human table of `kernelrank train` (train_report.hpp).
#include "train_report.hpp"

#include "kernelrank/core/rational.hpp"
#include "kernelrank/eval/ball_eval.hpp"

#include <cstdio>

namespace kernelrank::cli {

std::string split_cell(const TrainedSplitReport& s) {
  std::string text = std::to_string(s.float_failing) + " | " + to_string(s.failing);
  if (s.exact) {
    if (s.undefined != 0) text += " (" + to_string(s.undefined) + " undef)";
    // Trained weights give long exact fractions: the table shows 6 places, report.json the
    // exact value.
    text += " | " + (s.max_error ? "~" + to_decimal(*s.max_error, 6) : std::string("none defined"));
    text += std::string(" | ") + (s.solves() ? "solves (verified exactly)" : "FAILS") + " | ";
  } else {
    if (s.undecided > 0) text += " (" + to_string(s.undecided) + " undecided)";
    text += " | " + (s.max_error ? "<= " + decimal_text(*s.max_error, 6) : std::string("none"));
    text += " | " + (s.failing > 0 ? std::string("FAILS (decided rigorously)") : s.verdict) + " | ";
  }
  return text + std::to_string(s.disagreement_count);
}

std::string train_report_text(const TrainReport& report, const std::string& report_path) {
  std::string text =
      "name | split | float failing | decided failing | max error | verdict | "
      "float/decided disagreements\n";
  for (const TrainedModelReport& m : report.models) {
    text += m.name + " | train | " + split_cell(m.train) + "\n";
    if (m.test) text += m.name + " | test | " + split_cell(*m.test) + "\n";
  }
  // Throughput per worker (instances x steps per second of a model's own training time) and
  // the mean exact re-verification time per model.
  const TrainThroughput t = train_throughput(report);
  char line[200];
  std::snprintf(line, sizeof line,
                "throughput: %.0f instance-epochs/s per worker; exact re-verification %.3f s "
                "per model (mean of %zu)\n",
                t.instance_epochs_per_second, t.verify_seconds_per_model, t.models);
  return text + line + "report: " + report_path + "\n";
}

}  // namespace kernelrank::cli
