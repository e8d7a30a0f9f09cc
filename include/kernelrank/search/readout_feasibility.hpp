// Fixed-kernel feasibility (linear, exact): for a given kernel table, is there a
// readout table F that makes the model solve a family? With alpha fixed, each
// instance's condition |sum_j alpha_j F_j / sum_j alpha_j - t| < 1/2 is linear
// in F, so the question is a linear feasibility problem. Z3's linear real
// arithmetic answers it; a readout it returns is re-verified by the exact
// evaluator before it is reported.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <memory>
#include <string>

namespace kernelrank {

enum class FeasibilityStatus { Feasible, Infeasible, Unknown };
std::string to_string(FeasibilityStatus status);

struct ReadoutFeasibility {
  FeasibilityStatus status = FeasibilityStatus::Unknown;
  std::unique_ptr<TabularModel> model;  // kernel + found readout (when feasible)
  std::string detail;                   // e.g. "zero denominator in line 3", Z3's reason
};

// `tokens` lists the token universe of `kernel` (kernel[i][j] = alpha(tokens[i], tokens[j]));
// every family token must be in it. Position-independent readouts only.
ReadoutFeasibility find_readout(int m, const std::vector<Token>& tokens,
                                const RationalMatrix& kernel, const Family& family,
                                unsigned timeout_ms = 60'000);

}  // namespace kernelrank
