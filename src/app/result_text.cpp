// The shared text forms (app/result_text.hpp).
#include "kernelrank/app/result_text.hpp"

namespace kernelrank {

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

}  // namespace kernelrank
