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
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/train/train.hpp"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace kernelrank::train {

enum class FeatureMap { Relu, Square, Softmax };
FeatureMap parse_feature_map(const std::string& name);  // throws UsageError
std::string to_string(FeatureMap feature);

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
};
FamilyTensors to_tensors(const Family& family);

// Seeded initial weights (portable generator, independent of torch's RNG).
TorchHead initial_head(FeatureMap feature, int m, int r, int d, int positions, std::uint64_t seed,
                       double fixed_temperature);

// Outputs y [B]; epsilon is added to the denominator (kernel heads only).
torch::Tensor forward(const TorchHead& head, const FamilyTensors& data, double epsilon);

// Exact copies of the weights as doubles, and back.
HeadWeights to_head_weights(const TorchHead& head);
TorchHead from_head_weights(const HeadWeights& weights);

}  // namespace kernelrank::train
