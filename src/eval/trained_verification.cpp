// Exact verdicts for trained models, with float/exact disagreements (trained_verification.hpp).
#include "kernelrank/eval/trained_verification.hpp"

#include "kernelrank/core/errors.hpp"

#include <cmath>

namespace kernelrank {
namespace {

void check_output_count(const Family& family, const std::vector<double>& float_outputs) {
  if (float_outputs.size() != family.instances.size())
    throw InternalError("verify_split: " + std::to_string(float_outputs.size()) +
                        " float outputs for " + std::to_string(family.instances.size()) +
                        " instances");
}

bool float_fails(double y, int target) { return !(std::fabs(y - target) < 0.5); }

}  // namespace

SplitVerification verify_split(const Model& exact_model, const Family& family,
                               const std::vector<double>& float_outputs, std::size_t max_listed) {
  check_output_count(family, float_outputs);
  SplitVerification out;
  out.instances = family.instances.size();
  EvalOptions options;
  options.max_failures = 1;
  // One exact evaluation per instance: the report and the comparison with float both read it.
  out.exact = evaluate_family(
      exact_model, family, options, [&](std::size_t i, const InstanceOutcome& exact) {
        const double y = float_outputs[i];
        const bool fails = float_fails(y, exact.target);
        if (fails) ++out.float_failing;
        if (exact.fails() == fails) return;
        ++out.disagreement_count;
        if (out.disagreements.size() < max_listed)
          out.disagreements.push_back(
              {exact.instance, exact.target, y, exact.output, fails, exact.fails()});
      });
  return out;
}

}  // namespace kernelrank
