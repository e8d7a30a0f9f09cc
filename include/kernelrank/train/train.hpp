// Training single-head linear-attention models in floating point (libtorch).
//
// Floating point proposes, it never decides: train_head returns the weights as doubles and the
// float outputs it saw; every verdict comes afterwards from the exact path
// (trained_verification.hpp) on the same weights converted exactly. This header includes no
// torch code, so the command line and the tests compile the same way whether or not the build
// has libtorch (then train_head throws UsageError saying so).
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/models/model_safetensors.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

struct TrainConfig {
  std::string feature = "square";  // relu | square | softmax
  int r = 8;                       // features (softmax: ignored, scores are m-dimensional)
  int d = 0;                       // value width; 0 means d = m
  int positions = 0;               // 0: position independent; n: maps per position
  std::uint64_t seed = 1;
  int epochs = 2000;
  double learning_rate = 0.01;  // Adam, cosine-decayed to learning_rate / 100
  // Training device only: the exact verdict counts a zero denominator as a failure.
  double denominator_epsilon = 1e-9;
  // softmax: a fixed temperature when > 0, learned (starting at 1) when 0.
  double temperature = 0;
};

// Loss and float accuracy after an epoch, for progress display.
struct EpochStatus {
  int epoch = 0;
  double loss = 0;
  double float_accuracy = 0;
};

struct TrainedHead {
  HeadWeights weights;
  double final_loss = 0;              // MSE on the training family after the last step
  std::vector<double> train_outputs;  // float forward (with the training epsilon) per instance
  std::vector<double> test_outputs;
  double train_seconds = 0;
};

// True when this build can train (it was configured with libtorch).
bool training_available();

// Full-batch Adam on the MSE of y - t over the training family. Deterministic for a given
// configuration: the initial weights come from a portable seeded generator, and each model
// trains on one thread. `test` may be empty. `on_epoch` (may be empty) sees progress.
TrainedHead train_head(const Family& train, const Family& test, const TrainConfig& config,
                       const std::function<void(const EpochStatus&)>& on_epoch = {});

// Float forward pass of given weights on a family (the same code as training, no gradients),
// without the epsilon: a zero denominator gives NaN. For tests and for reporting.
std::vector<double> float_outputs(const HeadWeights& weights, const Family& family,
                                  double denominator_epsilon);

}  // namespace kernelrank
