// The report of `kernelrank eval` on a multi-head model file (app/multi_head_eval.hpp): eval's
// report format with the heads, their classes and feature counts.
#pragma once

#include "commands.hpp"

#include "kernelrank/app/multi_head_eval.hpp"

namespace kernelrank::cli {

// Prints the report (human or --json); exit 0 when the model solves the task, else 1.
int print_multi_head_evaluation(const MultiHeadEvaluation& evaluation, const GlobalOptions& global);

}  // namespace kernelrank::cli
