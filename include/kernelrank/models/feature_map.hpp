// The feature maps of the project, one vocabulary for models/, eval/ and train/: the map a
// head applies to its query and key projections u = WQ q + bQ, w = WK z + bK
// (docs/model-format.md §5, §11, §12).
//
//   relu, square, identity: <act(u), act(w)>, act applied entrywise   (rational)
//   taylor2:  1 + <u,w> + <u,w>^2 / 2                                 (rational)
//   elu1:     <elu(u) + 1, elu(w) + 1>                                 (transcendental)
//   exp:      positive random features (performer)                     (transcendental)
//   softmax:  exp(tau <u,w>)                                           (transcendental)
//
// Each context accepts a subset and says so by name: exact parametric heads take the entrywise
// maps, the trainer relu, square and softmax, eval's ball arithmetic the transcendental ones.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kernelrank {

enum class FeatureMap { Relu, Square, Identity, Taylor2, Elu1, Exp, Softmax };

// "relu", "square", "identity", "taylor2", "elu1", "exp", "softmax".
std::string to_string(FeatureMap map);
// The map of that name; nullopt for any other text.
std::optional<FeatureMap> feature_map_named(std::string_view name);
// The same, throwing UsageError naming the accepted values for any other text.
FeatureMap parse_feature_map(const std::string& name);

// True for the maps whose kernel is a rational function of the weights.
bool is_rational(FeatureMap map);
// relu, square and identity: applied entrywise, so the head is an exact ParametricModel
// (kind=parametric, and a kernelrank-layout safetensors head's "activation").
bool is_entrywise(FeatureMap map);
// The entrywise map of that name; nullopt for any other text (including the other maps).
std::optional<FeatureMap> parse_activation(std::string_view name);
// relu, square and softmax: the heads the trainer trains (src/train, docs/training.md).
bool is_trainable(FeatureMap map);

}  // namespace kernelrank
