// What one trained head is (the configuration of a training and what it returns), and the
// named recipes: plain data, no torch, so that the application layer's train job
// (app/train_job.hpp) resolves and checks a request without a trainer, and the trainer
// (train/train.hpp, a layer above) fills it.
#pragma once

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_safetensors.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// The shape of the data-informed bump features (initialisation.cpp):
// * Witness: query pre-activation <2x - 1, q> - |x| + 4, key <1 - 2x, z> - |x| + 2.5 (fixed
//   widths, tuned on the m = 24 witness family), squared as they are for square heads;
// * Scaled: relu widths 4 m/8 and 2.5 m/8 (the same at m = 8; each bump fires on a similar
//   share of the tokens at every width); square heads get the square bump
//   ((m - d(q, x)) / m)^2 and (d(z, x) / m)^2, whose affine part never changes sign on the
//   cube, so the square is largest at the centre (or its complement) and falls with distance.
enum class BumpShape { Witness, Scaled };

struct TrainConfig {
  FeatureMap feature = FeatureMap::Relu;  // relu | square | softmax (is_trainable)
  int r = 8;                              // features (softmax: ignored, scores are m-dimensional)
  int d = 0;                              // value width; 0 means d = m
  int positions = 0;                      // 0: position independent; n: maps per position
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
  double constant_query_bias = 1.0;  // the constant features' query bias (key bias 1)
  BumpShape bumps = BumpShape::Witness;
  // Minibatch size: each epoch visits the training family once in a seeded order (portable,
  // from the seed), in batches of this many; 0, or at least the family's size: full batch.
  std::size_t batch = 0;
  // "default" (query-tokens for relu/square, l5 for softmax), "random", "query-tokens",
  // "instance-tokens", "l5" (softmax), or "model" with init_weights set (--init model:PATH).
  std::string init = "default";
  std::optional<HeadWeights> init_weights;
  double init_noise = 0.1;  // data-informed inits: seeded noise, times the random init's scale
  int polish_steps = 0;     // LBFGS steps on the best Adam snapshot (kept only if better)
  bool keep_best = true;    // return the snapshot with the fewest float failures (then loss)
};

// Named presets of TrainConfig (docs/cli.md#train, "Recipes"): `witness` is TrainConfig's
// defaults (full batch, fixed bump widths); `ood` is the recipe for pools of random tokens
// (scaled bumps, minibatches of 1,000, 2,000 steps, frozen constant features with query bias
// 0.1, noise 0.01).
enum class Recipe { Witness, Ood };
TrainConfig recipe_config(Recipe recipe);
std::optional<Recipe> recipe_named(const std::string& name);
std::string to_string(Recipe recipe);
std::optional<BumpShape> bump_shape_named(const std::string& name);
std::string to_string(BumpShape shape);

// Loss and float accuracy after an epoch, for progress display.
struct EpochStatus {
  int epoch = 0;  // the step (with minibatches, loss and accuracy are the batch's)
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

}  // namespace kernelrank
