// Trained single-head models as safetensors files: the layout "kernelrank head, version 1"
// (docs/model-format.md §11).
//
// The tensors mirror torch.nn.Linear inside a module with submodules query, key, value,
// readout_c and readout_e (weight [rows, m], bias [rows]), so a PyTorch user exports a head
// by writing its state_dict. Metadata says format "kernelrank-head", version "1", the
// activation and, for position-dependent heads, "positions" (then every name carries the
// prefix "pos<p>."). Reading gives the exact ParametricModel (each float is a dyadic
// rational); a softmax head, whose features are exp and so not rational, is refused.
// HeadWeights is the plain double form a trainer fills from its tensors: it can be written
// as a file, or turned into the exact model directly.
#pragma once

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// The ten tensors of one position, row-major (weights are rows x m).
struct HeadPositionWeights {
  std::vector<double> query_weight;      // r x m
  std::vector<double> query_bias;        // r
  std::vector<double> key_weight;        // r x m
  std::vector<double> key_bias;          // r
  std::vector<double> value_weight;      // d x m
  std::vector<double> value_bias;        // d
  std::vector<double> readout_c_weight;  // d x m
  std::vector<double> readout_c_bias;    // d
  std::vector<double> readout_e_weight;  // m
  std::vector<double> readout_e_bias;    // 1
};

struct HeadWeights {
  // relu, square, identity; softmax is written, never evaluated exactly
  FeatureMap activation = FeatureMap::Relu;
  int m = 0;          // token width, 1..4096
  int r = 0;          // features, >= 1
  int d = 0;          // value width, >= 0
  int positions = 0;  // 0: position independent; else n (1..4096)
  // One entry, or one per position 1..positions (index 0 = position 1).
  std::vector<HeadPositionWeights> by_position;
  std::optional<double> temperature;  // softmax only: the scalar tensor "temperature"
};

// The model a kernelrank-head file describes. Throws InputError ("FILE: error: ...") naming
// the tensor for a missing, unknown or misshapen tensor and for bad metadata, and refuses
// activation "softmax" (exp features are not rational).
std::unique_ptr<ParametricModel> parametric_model_from_safetensors(const SafetensorsFile& file);

// The bytes of the kernelrank-head file for these weights (F64, deterministic). Throws
// std::invalid_argument when sizes disagree with m, r, d, positions or the activation is not
// one a kernelrank-head file holds (relu, square, identity, softmax), and for NaN or infinite
// weights.
std::string head_to_safetensors(const HeadWeights& weights);

// The exact model of these weights, as reading head_to_safetensors(weights) would give.
// Throws std::invalid_argument as above, NonFiniteError naming the tensor for NaN or
// infinity, and UsageError for a softmax head.
std::unique_ptr<ParametricModel> parametric_model_from_weights(const HeadWeights& weights);

// The nearest doubles of a parametric model's weights (a starting point for a trainer; the
// exact model stays the reference). Rounds; never used for a verdict.
HeadWeights rounded_head_weights(const ParametricModel& model);

}  // namespace kernelrank
