// `kernelrank eval` on a head with transcendental features: the ball-arithmetic path
// (ball_eval.hpp), with its own report and exit code 5 for what stays undecided.
#pragma once

#include "commands.hpp"

#include "kernelrank/eval/ball_eval.hpp"

#include <string>

namespace kernelrank::cli {

struct BallTask {
  std::string family;  // a family file, or empty for the cube T(m, n)
  int m = 0;           // 0: the head's width
  int n = 3;
};

// Evaluates, prints the report (human or --json) and returns the exit code: 0 solves,
// 1 fails at least one instance, 5 nothing fails but some instance stayed undecided.
int run_ball_eval(const RealHead& head, const BallTask& task, const BallOptions& options,
                  const GlobalOptions& global);

}  // namespace kernelrank::cli
