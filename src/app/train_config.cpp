// The named training recipes (train_config.hpp): presets of TrainConfig, without torch, so the
// command line and the tests read them whether or not the build has a trainer.
//
// `ood` is the recipe measured on pools of random fixed-weight tokens (docs/experiments.md,
// experiment 2; docs/cli.md gives the reason for each choice): bumps whose widths scale with
// m, minibatches of 1,000 (the same accuracies as full batch in about half the time), 2,000
// steps, two constant features frozen with query bias 0.1 (the denominator stays positive on
// every input while the constants weigh little against the bumps), and noise 0.01 (the
// bumps, not the noise, set the start).
#include "kernelrank/app/train_config.hpp"

namespace kernelrank {

TrainConfig recipe_config(Recipe recipe) {
  TrainConfig config;
  if (recipe == Recipe::Ood) {
    config.epochs = 2000;
    config.batch = 1000;
    config.init_noise = 0.01;
    config.constant_query_bias = 0.1;
    config.freeze_constant_features = true;
    config.bumps = BumpShape::Scaled;
  }
  return config;
}

std::optional<Recipe> recipe_named(const std::string& name) {
  if (name == "witness") return Recipe::Witness;
  if (name == "ood") return Recipe::Ood;
  return std::nullopt;
}

std::string to_string(Recipe recipe) { return recipe == Recipe::Ood ? "ood" : "witness"; }

std::optional<BumpShape> bump_shape_named(const std::string& name) {
  if (name == "witness") return BumpShape::Witness;
  if (name == "scaled") return BumpShape::Scaled;
  return std::nullopt;
}

std::string to_string(BumpShape shape) { return shape == BumpShape::Scaled ? "scaled" : "witness"; }

}  // namespace kernelrank
