// Rigorous re-verification of a trained head whose features are not rational (dense softmax),
// next to the float outputs it was trained with (the ball-arithmetic counterpart of
// trained_verification.hpp; it lives with ball_eval in the library that links Arb).
#pragma once

#include "kernelrank/eval/ball_eval.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace kernelrank {

// The verdict is the rigorous ball-arithmetic one (ball_eval.hpp), decided from 64 bits up
// to max_precision.
// A disagreement is an instance that float and the decided verdict judge differently
// (undecided instances are not compared; the report counts them).
struct BallDisagreement {
  Instance instance;
  int target = 0;
  double float_output = 0;
  std::string ball_output;  // Arb's enclosure
  bool float_fails = false;
};

struct BallSplitVerification {
  std::size_t instances = 0;
  std::size_t float_failing = 0;
  BallReport rigorous;
  std::size_t disagreement_count = 0;
  std::vector<BallDisagreement> disagreements;  // the first max_listed
};

BallSplitVerification verify_split_ball(const RealHead& head, const Family& family,
                                        const std::vector<double>& float_outputs,
                                        std::size_t max_listed, long max_precision = 4096);

}  // namespace kernelrank
