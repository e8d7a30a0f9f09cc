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
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct TrainConfig {
  std::string feature = "relu";  // relu | square | softmax
  int r = 8;                     // features (softmax: ignored, scores are m-dimensional)
  int d = 0;                     // value width; 0 means d = m
  int positions = 0;             // 0: position independent; n: maps per position
  std::uint64_t seed = 1;
  int epochs = 6000;            // Adam steps at most (stops early once the band loss is 0)
  double learning_rate = 0.01;  // Adam, cosine-decayed to learning_rate / 100
  // Training device only: the exact verdict counts a zero denominator as a failure.
  double denominator_epsilon = 1e-9;
  // softmax: a fixed temperature when > 0, learned when 0.
  double temperature = 0;
  // "band": mean(relu(|y - t| - band)); "mse": mean((y - t)^2).
  std::string loss = "band";
  double band = 0.4;
  // Kernel heads: this many of the r features start constant (query and key rows 0, bias 1),
  // so that every denominator starts positive; frozen ones keep those values.
  int constant_features = 2;
  bool freeze_constant_features = false;
  // "default" (query-tokens for relu/square, l5 for softmax), "random", "query-tokens",
  // "instance-tokens", "l5" (softmax), or "model" with init_weights set (--init model:PATH).
  std::string init = "default";
  std::optional<HeadWeights> init_weights;
  double init_noise = 0.1;  // data-informed inits: seeded noise, times the random init's scale
  int polish_steps = 0;     // LBFGS steps on the best Adam snapshot (kept only if better)
  bool keep_best = true;    // return the snapshot with the fewest float failures (then loss)
};

// Loss and float accuracy after an epoch, for progress display.
struct EpochStatus {
  int epoch = 0;
  double loss = 0;
  double float_accuracy = 0;
};

struct TrainedHead {
  HeadWeights weights;
  double final_loss = 0;  // training loss of the returned weights
  int steps = 0;          // Adam steps taken (fewer than epochs when the loss reached 0)
  int best_step = 0;      // the step whose weights are returned (steps + 1: after polish)
  std::string init;       // the initialisation used
  std::vector<double> train_outputs;  // float forward (with the training epsilon) per instance
  std::vector<double> test_outputs;
  double train_seconds = 0;
};

// True when this build can train (it was configured with libtorch).
bool training_available();

// Full-batch Adam on the configured loss over the training family. Deterministic for a given
// configuration: the initial weights come from a portable seeded generator, and each model
// trains on one thread. `test` may be empty. `on_epoch` (may be empty) sees progress.
TrainedHead train_head(const Family& train, const Family& test, const TrainConfig& config,
                       const std::function<void(const EpochStatus&)>& on_epoch = {});

// Float forward pass of given weights on a family (the same code as training, no gradients),
// without the epsilon: a zero denominator gives NaN. For tests and for reporting.
std::vector<double> float_outputs(const HeadWeights& weights, const Family& family,
                                  double denominator_epsilon);

}  // namespace kernelrank
