// See multi_head_output.hpp.
#include "multi_head_output.hpp"

#include "report_output.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::cli {

int print_multi_head_evaluation(const MultiHeadEvaluation& evaluation,
                                const GlobalOptions& global) {
  std::string human =
      "task:        " + evaluation.task + "\nmodel:       " + evaluation.description + "\n";
  for (std::size_t h = 0; h < evaluation.head_count; ++h)
    human += "head " + std::to_string(h + 1) + ":      " + evaluation.head_descriptions[h] +
             "\n  class:     " + to_string(evaluation.classes[h].model_class) + " (" +
             evaluation.classes[h].detail + ")\n";
  human += "heads:       " + std::to_string(evaluation.head_count) + ", features: " +
           (evaluation.features ? features_text(*evaluation.features)
                                : "not computed (" + evaluation.features_refused + ")") +
           "\n";
  const EvalReport& report = evaluation.report;
  const std::string report_text = report_to_text(report);
  human += report_text;
  if (report.negative_solved != 0 && report_text.find("negative") == std::string::npos)
    human += "negative:    " + report.negative_solved.str() +
             " solved instances have a negative denominator in some head, e.g. " +
             outcome_to_text(*report.negative_example) + "\n";
  emit(global, multi_head_evaluation_json(evaluation), human);
  return report.solves() ? kExitOk : kExitNegative;
}

}  // namespace kernelrank::cli
