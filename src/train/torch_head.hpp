// The libtorch form of a single-head normalized kernel attention model (theory.md §2), the
// only code besides trainer.cpp that includes torch headers.
//
// Parameters are kept per position slot (one slot when position independent, n otherwise):
// query/key [P, r, m] + [P, r], value/readout_c [P, d, m] + [P, d], readout_e [P, m] + [P].
// The forward pass is the spec's formula, y = sum_j alpha_j <c(q), v(x_j)> / sum_j alpha_j +
// e(q) with alpha_j = <phi_Q(q), phi_K(x_j)>, in float64. The softmax baseline replaces alpha
// by exp(temperature * <WQ q + bQ, WK x_j + bK>) normalised over j (r = m scores).
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/portable_random.hpp"
#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/train/train.hpp"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace kernelrank::train {

// Uniform in [low, high) from 53 random bits: identical on every platform and build.
class SeededUniform {
 public:
  explicit SeededUniform(std::uint64_t seed) : bits_(seed) {}
  double next(double low, double high) {
    const double unit = static_cast<double>(bits_.raw() >> 11) * 0x1.0p-53;
    return low + (high - low) * unit;
  }
  std::uint64_t below(std::uint64_t count) { return bits_.raw() % count; }
  torch::Tensor tensor(std::vector<std::int64_t> shape, double low, double high) {
    std::int64_t count = 1;
    for (const std::int64_t s : shape) count *= s;
    torch::Tensor out = torch::empty({count}, torch::TensorOptions().dtype(torch::kFloat64));
    double* data = out.data_ptr<double>();
    for (std::int64_t i = 0; i < count; ++i) data[i] = next(low, high);
    return out.reshape(shape);
  }

 private:
  PortableUniform bits_;
};

// The feature map of a trained head (models/feature_map.hpp): relu, square or softmax; throws
// DomainError naming the trained maps for any other.
FeatureMap trained_feature_map(FeatureMap map);

struct TorchHead {
  FeatureMap feature = FeatureMap::Square;
  int m = 0, r = 0, d = 0, positions = 0;
  torch::Tensor query_weight, query_bias, key_weight, key_bias;
  torch::Tensor value_weight, value_bias, readout_c_weight, readout_c_bias;
  torch::Tensor readout_e_weight, readout_e_bias;
  torch::Tensor log_temperature;  // softmax only; a scalar
  bool learn_temperature = false;

  std::vector<torch::Tensor> parameters() const;
};

// A family as tensors: tokens [B, n, m] (0/1 as float64), query positions [B], targets [B].
// Families repeat tokens a lot (a witness family has 1,176 instances over a few hundred
// tokens), so the distinct tokens [U, m] and each position's index into them [B, n] are kept
// too: position-independent maps are applied once per distinct token and gathered.
struct FamilyTensors {
  torch::Tensor tokens, query, targets;
  torch::Tensor distinct_tokens, token_index, query_index;  // [U, m], [B, n], [B]
  int n = 0;
  // Whether the forward pass maps the distinct tokens and gathers, or maps every token slot
  // directly. A whole family always shares (the full-batch path, as it has always been); a
  // minibatch maps directly unless its tokens repeat (each occurs twice on average): on random
  // pools, gathering and its scatter-add backward cost more than mapping the repeats again.
  bool shared_maps = true;
};
FamilyTensors to_tensors(const Family& family);

// The instances `rows` [b] of `data` (a minibatch), with the distinct tokens cut down to the
// ones they use, so that the maps are applied to b * n tokens at most, not to the whole pool's.
FamilyTensors subset(const FamilyTensors& data, const torch::Tensor& rows);

// Seeded initial weights (portable generator, independent of torch's RNG).
TorchHead initial_head(FeatureMap feature, int m, int r, int d, int positions, std::uint64_t seed,
                       double fixed_temperature);

// The initial head of a training run (initialisation.cpp): the configured initialisation
// (train.hpp, TrainConfig::init) and the constant features; `constant_rows` are the feature
// rows [r - constant_rows, r) that start constant.
struct InitialHead {
  TorchHead head;
  int constant_rows = 0;
  std::string name;
};
InitialHead initialise(const TrainConfig& config, const Family& family);

// Outputs y [B]; epsilon is added to the denominator (kernel heads only). When `denominator`
// is given it receives the denominators before the epsilon (kernel heads; ones for softmax).
torch::Tensor forward(const TorchHead& head, const FamilyTensors& data, double epsilon,
                      torch::Tensor* denominator = nullptr);

// Exact copies of the weights as doubles, and back.
HeadWeights to_head_weights(const TorchHead& head);
TorchHead from_head_weights(const HeadWeights& weights);

}  // namespace kernelrank::train
