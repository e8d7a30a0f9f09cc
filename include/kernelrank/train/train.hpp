// Training single-head linear-attention models in floating point (libtorch).
//
// Floating point proposes, it never decides: train_head returns the weights as doubles and the
// float outputs it saw; every verdict comes afterwards from the exact path
// (trained_verification.hpp) on the same weights converted exactly. This header includes no
// torch code, so the command line and the tests compile the same way whether or not the build
// has libtorch (then train_head throws UsageError saying so).
#pragma once

#include "kernelrank/app/train_config.hpp"
#include "kernelrank/app/train_job.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_safetensors.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// True when this build can train (it was configured with libtorch).
bool training_available();

// Adam on the configured loss over the training family (full batch, or minibatches of
// config.batch). Deterministic for a given
// configuration: the initial weights come from a portable seeded generator, and each model
// trains on one thread. `test` may be empty. `on_epoch` (may be empty) sees progress.
TrainedHead train_head(const Family& train, const Family& test, const TrainConfig& config,
                       const std::function<void(const EpochStatus&)>& on_epoch = {});

// Float forward pass of given weights on a family (the same code as training, no gradients),
// without the epsilon: a zero denominator gives NaN. For tests and for reporting.
std::vector<double> float_outputs(const HeadWeights& weights, const Family& family,
                                  double denominator_epsilon);

// This build's trainer, for the application layer's train job (app/train_job.hpp).
inline HeadTrainer head_trainer() {
  return {training_available, [](const Family& train, const Family& test, const TrainConfig& config,
                                 const std::function<void(const EpochStatus&)>& on_epoch) {
            return train_head(train, test, config, on_epoch);
          }};
}

}  // namespace kernelrank
