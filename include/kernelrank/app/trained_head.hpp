// The verdict on a trained head (the pipeline behind `kernelrank train`, after training):
// its weights serialised once as a kernelrank-head safetensors file, and each split decided
// next to the float outputs the trainer saw, the way its feature map allows. Rational maps
// (relu, square) give the exact parametric model, whose canonical text is returned too, and
// exact verdicts (trained_verification.hpp); softmax, whose exp features are not rational, is
// read back from those same bytes as a head for ball arithmetic and decided rigorously
// (trained_ball_verification.hpp). Each instance is evaluated once. Nothing here trains or
// writes files: the caller trains (train/, which sits above this layer) and writes the bytes.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/eval/trained_ball_verification.hpp"
#include "kernelrank/eval/trained_verification.hpp"
#include "kernelrank/models/model_safetensors.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kernelrank {

// One split's verdict: exact (rational maps) or rigorous ball arithmetic (softmax).
using TrainedSplitVerdict = std::variant<SplitVerification, BallSplitVerification>;

struct TrainedHeadVerdict {
  std::string safetensors;                // the kernelrank-head file (head_to_safetensors)
  std::optional<std::string> model_text;  // rational maps: the kind=parametric .model text
  TrainedSplitVerdict train;
  std::optional<TrainedSplitVerdict> test;  // absent when the test family is empty
  bool exact() const { return model_text.has_value(); }
};

// `train_outputs` and `test_outputs` hold one float output per instance of their family, in
// order; `max_listed` float/decided disagreements are listed per split; `file_name` is the
// name the caller gives the safetensors file, for messages about it. Throws as
// head_to_safetensors does for malformed weights (std::invalid_argument), InputError when the
// ball-arithmetic reader refuses the file, and InternalError when an output count differs from
// its family's.
TrainedHeadVerdict verify_trained_head(const HeadWeights& weights, const Family& train,
                                       const std::vector<double>& train_outputs, const Family& test,
                                       const std::vector<double>& test_outputs,
                                       std::size_t max_listed, const std::string& file_name);

}  // namespace kernelrank
