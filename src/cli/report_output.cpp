#include "report_output.hpp"

namespace kernelrank::cli {

std::string exact_with_decimal(const Rational& value) {
  const std::string exact = to_string(value);
  const std::string decimal = to_decimal(value, 4);
  return exact == decimal ? exact : exact + " (~" + decimal + ")";
}

// Wide tokens are shown as index lists of their ones; the 0/1 form stays in JSON.
std::string instance_text(const Instance& instance) {
  if (instance.width() <= 64) return to_string(instance);
  std::string text = "q=" + std::to_string(instance.query + 1);
  for (const Token& x : instance.tokens) text += " " + x.to_index_list();
  return text + " (m=" + std::to_string(instance.width()) + ")";
}

std::string outcome_to_text(const InstanceOutcome& outcome) {
  std::string text = instance_text(outcome.instance) + "  target " + std::to_string(outcome.target);
  if (outcome.output) {
    text += "  output " + exact_with_decimal(*outcome.output) + "  error " +
            exact_with_decimal(*outcome.error);
  } else {
    text += "  output undefined (zero denominator)";
  }
  return text;
}

std::string negative_denominators_text(const EvalReport& report) {
  const bool one = report.negative_solved == 1;
  std::string text = "negative denominators: " + report.negative_solved.str() + " solved instance" +
                     (one ? " has" : "s have") + " a negative denominator";
  if (report.negative_example) {
    text += ", e.g. " + instance_text(report.negative_example->instance);
    if (report.negative_example->denominator)
      text += " (denominator " + to_string(*report.negative_example->denominator) + ")";
  }
  return text + "\n";
}

std::string report_to_text(const EvalReport& report, bool signed_model) {
  std::string text;
  text += "method:      " + report.method + "\n";
  text += "instances:   " + report.instances.str() + "\n";
  text += "failing:     " + report.failing.str() + "\n";
  // An undefined output has no error: the maximum is over the defined ones, and saying so
  // keeps a max below 1/2 next to FAILS from reading as a contradiction.
  if (report.undefined != 0)
    text += "undefined:   " + report.undefined.str() +
            " (zero denominator: no output, counted as failing)\n";
  text += "error rate:  " + exact_with_decimal(report.error_rate()) + "\n";
  text += "max error:   " +
          (report.max_error ? exact_with_decimal(*report.max_error) : std::string("none defined"));
  if (report.undefined != 0 && report.max_error)
    text += " over the " + Integer(report.instances - report.undefined).str() + " defined outputs";
  text += "\n";
  if (report.worst) text += "worst:       " + outcome_to_text(*report.worst) + "\n";
  if (!report.failures.empty()) {
    text += "first failing instances:\n";
    for (const InstanceOutcome& o : report.failures) text += "  " + outcome_to_text(o) + "\n";
  }
  if (report.negative_solved != 0 || signed_model) text += negative_denominators_text(report);
  if (!report.solves() && report.failing == report.undefined)
    text += "verdict:     FAILS (by undefined outputs only: " + report.undefined.str() +
            "; every defined error < 1/2)\n";
  else if (!report.solves())
    text += "verdict:     FAILS\n";
  else if (report.instances == 0)
    text += "verdict:     SOLVES (vacuously: there are no instances)\n";
  else
    text += "verdict:     SOLVES (every error < 1/2)\n";
  return text;
}

}  // namespace kernelrank::cli
