// Exact re-verification of a trained model next to the float outputs it was trained with.
//
// The verdict is the exact one (evaluate_family: a zero denominator fails). The float outputs
// are only compared with it: every instance where float and exact disagree about
// |y - t| < 1/2 is a finding (typically an epsilon turning 0/0 into a "correct" output, or an
// output within rounding of the band edge) and is listed, not hidden.
#pragma once

#include "kernelrank/eval/evaluate.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace kernelrank {

struct FloatExactDisagreement {
  Instance instance;
  int target = 0;
  double float_output = 0;               // NaN when the float denominator was zero
  std::optional<Rational> exact_output;  // nullopt: zero denominator
  bool float_fails = false;
  bool exact_fails = false;
};

struct SplitVerification {
  std::size_t instances = 0;
  std::size_t float_failing = 0;  // !(|y_float - t| < 1/2), NaN included
  EvalReport exact;
  std::size_t disagreement_count = 0;
  std::vector<FloatExactDisagreement> disagreements;  // the first max_listed
};

// `float_outputs` holds one float output per instance of `family`, in order.
SplitVerification verify_split(const Model& exact_model, const Family& family,
                               const std::vector<double>& float_outputs, std::size_t max_listed);

}  // namespace kernelrank
