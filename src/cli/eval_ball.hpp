// `kernelrank eval` on a head with transcendental features: the report of the
// ball-arithmetic path (app/evaluation.hpp), with exit code 5 for what stays undecided.
#pragma once

#include "commands.hpp"

#include "kernelrank/app/evaluation.hpp"

namespace kernelrank::cli {

// Prints the report of a ball-arithmetic evaluation (human or --json) and returns the exit
// code: 0 solves, 1 fails at least one instance, 5 nothing fails but some instance stayed
// undecided.
int print_ball_report(const RealHead& head, const BallEvaluation& run, const GlobalOptions& global);

}  // namespace kernelrank::cli
