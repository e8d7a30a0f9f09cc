// The libtorch head: seeded initialisation, the forward pass of theory.md §2, and exact
// hand-over of the weights as doubles. See torch_head.hpp.
#include "torch_head.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/portable_random.hpp"

#include <cmath>
#include <unordered_map>

namespace kernelrank::train {
namespace {

const auto kDouble = torch::TensorOptions().dtype(torch::kFloat64);

torch::Tensor activate(FeatureMap feature, const torch::Tensor& pre) {
  return feature == FeatureMap::Relu ? torch::relu(pre) : pre * pre;
}

// x [B, m] through per-query-slot affine maps weight [P, k, m], bias [P, k] -> [B, k].
torch::Tensor query_affine(const torch::Tensor& x, const torch::Tensor& weight,
                           const torch::Tensor& bias, const torch::Tensor& slots) {
  if (weight.size(0) == 1) return torch::matmul(x, weight[0].t()) + bias[0];
  return (weight.index_select(0, slots) * x.unsqueeze(1)).sum(-1) + bias.index_select(0, slots);
}

// tokens [B, n, m] through per-key-position maps weight [P, k, m], bias [P, k] -> [B, n, k].
torch::Tensor key_affine(const torch::Tensor& tokens, const torch::Tensor& weight,
                         const torch::Tensor& bias) {
  if (weight.size(0) == 1) return torch::matmul(tokens, weight[0].t()) + bias[0];
  return torch::einsum("bjm,jkm->bjk", {tokens, weight}) + bias.unsqueeze(0);
}

std::vector<double> to_vector(const torch::Tensor& t) {
  const torch::Tensor flat = t.detach().contiguous().reshape({-1});
  const double* data = flat.data_ptr<double>();
  return std::vector<double>(data, data + flat.numel());
}

torch::Tensor from_vector(const std::vector<double>& values, std::vector<std::int64_t> shape) {
  torch::Tensor out = torch::empty({static_cast<std::int64_t>(values.size())}, kDouble);
  std::copy(values.begin(), values.end(), out.data_ptr<double>());
  return out.reshape(shape);
}

}  // namespace

FeatureMap trained_feature_map(FeatureMap map) {
  if (is_trainable(map)) return map;
  if (map == FeatureMap::Identity)
    throw DomainError(
        "{feature} identity is not trained: the trainer trains relu, square (PF) and softmax "
        "heads; write a signed identity head as kind=parametric activation=identity");
  throw DomainError("{feature} must be relu, square or softmax, not '" + to_string(map) + "'");
}

std::vector<torch::Tensor> TorchHead::parameters() const {
  std::vector<torch::Tensor> all = {
      query_weight, query_bias,       key_weight,     key_bias,         value_weight,
      value_bias,   readout_c_weight, readout_c_bias, readout_e_weight, readout_e_bias};
  if (learn_temperature) all.push_back(log_temperature);
  return all;
}

FamilyTensors to_tensors(const Family& family) {
  const auto count = static_cast<std::int64_t>(family.instances.size());
  FamilyTensors out;
  out.n = family.n;
  out.tokens = torch::zeros({count, family.n, family.m}, kDouble);
  out.query = torch::zeros({count}, torch::TensorOptions().dtype(torch::kInt64));
  out.targets = torch::zeros({count}, kDouble);
  double* tokens = out.tokens.data_ptr<double>();
  std::int64_t* query = out.query.data_ptr<std::int64_t>();
  double* targets = out.targets.data_ptr<double>();
  std::unordered_map<Token, std::int64_t, TokenHash> distinct;
  std::vector<const Token*> distinct_list;
  out.token_index = torch::zeros({count, family.n}, torch::TensorOptions().dtype(torch::kInt64));
  std::int64_t* token_index = out.token_index.data_ptr<std::int64_t>();
  for (std::int64_t b = 0; b < count; ++b) {
    const Instance& instance = family.instances[static_cast<std::size_t>(b)];
    for (int j = 0; j < family.n; ++j) {
      const Token& token = instance.tokens[static_cast<std::size_t>(j)];
      const auto [it, added] =
          distinct.emplace(token, static_cast<std::int64_t>(distinct_list.size()));
      if (added) distinct_list.push_back(&token);
      token_index[b * family.n + j] = it->second;
    }
  }
  const auto distinct_count = static_cast<std::int64_t>(distinct_list.size());
  out.distinct_tokens = torch::zeros({distinct_count, family.m}, kDouble);
  double* distinct_data = out.distinct_tokens.data_ptr<double>();
  for (std::int64_t u = 0; u < distinct_count; ++u)
    for (int i = 0; i < family.m; ++i)
      distinct_data[u * family.m + i] =
          distinct_list[static_cast<std::size_t>(u)]->get(i) ? 1.0 : 0.0;
  for (std::int64_t b = 0; b < count; ++b) {
    const Instance& instance = family.instances[static_cast<std::size_t>(b)];
    for (int j = 0; j < family.n; ++j)
      for (int i = 0; i < family.m; ++i)
        tokens[(b * family.n + j) * family.m + i] =
            instance.tokens[static_cast<std::size_t>(j)].get(i) ? 1.0 : 0.0;
    query[b] = instance.query;
    targets[b] = min_ip_target(instance);
  }
  const torch::Tensor rows = torch::arange(count, torch::TensorOptions().dtype(torch::kInt64));
  out.query_index = out.token_index.index({rows, out.query});
  return out;
}

FamilyTensors subset(const FamilyTensors& data, const torch::Tensor& rows) {
  FamilyTensors out;
  out.n = data.n;
  out.tokens = data.tokens.index_select(0, rows);
  out.query = data.query.index_select(0, rows);
  out.targets = data.targets.index_select(0, rows);
  const torch::Tensor used = data.token_index.index_select(0, rows);  // [b, n]
  const auto [distinct, inverse, counts] =
      torch::_unique2(used.reshape({-1}), /*sorted=*/true, /*return_inverse=*/true);
  out.distinct_tokens = data.distinct_tokens.index_select(0, distinct);
  out.token_index = inverse.reshape(used.sizes());
  out.query_index = out.token_index.gather(1, out.query.unsqueeze(1)).squeeze(1);
  out.shared_maps = distinct.size(0) * 2 <= used.numel();
  return out;
}

TorchHead initial_head(FeatureMap feature, int m, int r, int d, int positions, std::uint64_t seed,
                       double fixed_temperature) {
  TorchHead head;
  head.feature = feature;
  head.m = m;
  head.r = feature == FeatureMap::Softmax ? m : r;
  head.d = d;
  head.positions = positions;
  const std::int64_t slots = positions > 0 ? positions : 1;
  // Seed the stream with the whole configuration so that (r, seed) pairs differ.
  SeededUniform draw(seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(head.r) * 7919U +
                     static_cast<std::uint64_t>(feature));
  const double a = 1.0 / std::sqrt(static_cast<double>(m));
  const std::int64_t rr = head.r;
  head.query_weight = draw.tensor({slots, rr, m}, -a, a);
  head.key_weight = draw.tensor({slots, rr, m}, -a, a);
  // relu: positive biases keep units alive at the start (dead units never recover).
  const double bias_low = feature == FeatureMap::Relu ? 0.1 : -a;
  head.query_bias = draw.tensor({slots, rr}, bias_low, 1.0);
  head.key_bias = draw.tensor({slots, rr}, bias_low, 1.0);
  head.value_weight = draw.tensor({slots, d, m}, -a, a);
  head.value_bias = draw.tensor({slots, d}, -a, a);
  head.readout_c_weight = draw.tensor({slots, d, m}, -a, a);
  head.readout_c_bias = draw.tensor({slots, d}, -a, a);
  head.readout_e_weight = torch::zeros({slots, m}, kDouble);
  head.readout_e_bias = torch::zeros({slots}, kDouble);
  head.learn_temperature = feature == FeatureMap::Softmax && fixed_temperature <= 0;
  head.log_temperature =
      torch::full({}, fixed_temperature > 0 ? std::log(fixed_temperature) : 0.0, kDouble);
  for (const torch::Tensor& p : head.parameters()) p.set_requires_grad(true);
  return head;
}

namespace {

// Position independent: every map once per distinct token, then gathered per instance.
torch::Tensor forward_shared_maps(const TorchHead& head, const FamilyTensors& data, double epsilon,
                                  torch::Tensor* denominator) {
  const torch::Tensor& x = data.distinct_tokens;
  const torch::Tensor pre_q = torch::matmul(x, head.query_weight[0].t()) + head.query_bias[0];
  const torch::Tensor pre_k = torch::matmul(x, head.key_weight[0].t()) + head.key_bias[0];
  const torch::Tensor values = torch::matmul(x, head.value_weight[0].t()) + head.value_bias[0];
  const torch::Tensor c = torch::matmul(x, head.readout_c_weight[0].t()) + head.readout_c_bias[0];
  const torch::Tensor e = torch::matmul(x, head.readout_e_weight[0]) + head.readout_e_bias[0];
  const torch::Tensor& keys = data.token_index;     // [B, n]
  const torch::Tensor& queries = data.query_index;  // [B]
  const torch::Tensor readout = (values.index({keys}) * c.index({queries}).unsqueeze(1)).sum(-1);
  const torch::Tensor offset = e.index({queries});
  if (head.feature == FeatureMap::Softmax) {
    const torch::Tensor scores =
        torch::exp(head.log_temperature) *
        (pre_k.index({keys}) * pre_q.index({queries}).unsqueeze(1)).sum(-1);
    return (torch::softmax(scores, 1) * readout).sum(1) + offset;
  }
  const torch::Tensor phi_q = activate(head.feature, pre_q);
  const torch::Tensor phi_k = activate(head.feature, pre_k);
  const torch::Tensor alpha = (phi_k.index({keys}) * phi_q.index({queries}).unsqueeze(1)).sum(-1);
  const torch::Tensor total = alpha.sum(1);
  if (denominator != nullptr) *denominator = total.detach();
  return (alpha * readout).sum(1) / (total + epsilon) + offset;
}

}  // namespace

torch::Tensor forward(const TorchHead& head, const FamilyTensors& data, double epsilon,
                      torch::Tensor* denominator) {
  if (head.positions == 0 && data.shared_maps)
    return forward_shared_maps(head, data, epsilon, denominator);
  const std::int64_t count = data.tokens.size(0);
  const torch::Tensor rows = torch::arange(count, torch::TensorOptions().dtype(torch::kInt64));
  const torch::Tensor query_tokens = data.tokens.index({rows, data.query});  // [B, m]
  const torch::Tensor slots = head.positions > 0 ? data.query : torch::zeros_like(data.query);
  const torch::Tensor pre_q = query_affine(query_tokens, head.query_weight, head.query_bias, slots);
  const torch::Tensor pre_k = key_affine(data.tokens, head.key_weight, head.key_bias);
  const torch::Tensor values = key_affine(data.tokens, head.value_weight, head.value_bias);
  const torch::Tensor c =
      query_affine(query_tokens, head.readout_c_weight, head.readout_c_bias, slots);
  const torch::Tensor readout = (values * c.unsqueeze(1)).sum(-1);  // [B, n]
  const torch::Tensor e = query_affine(query_tokens, head.readout_e_weight.unsqueeze(1),
                                       head.readout_e_bias.unsqueeze(1), slots)
                              .squeeze(1);
  if (head.feature == FeatureMap::Softmax) {
    const torch::Tensor scores =
        torch::exp(head.log_temperature) * (pre_k * pre_q.unsqueeze(1)).sum(-1);
    return (torch::softmax(scores, 1) * readout).sum(1) + e;
  }
  const torch::Tensor alpha =
      (activate(head.feature, pre_k) * activate(head.feature, pre_q).unsqueeze(1)).sum(-1);
  const torch::Tensor total = alpha.sum(1);
  if (denominator != nullptr) *denominator = total.detach();
  return (alpha * readout).sum(1) / (total + epsilon) + e;
}

namespace {

// The ten tensors of TorchHead ([P, ...] per slot) and their HeadPositionWeights fields, in
// the layout's order; the per-slot shape in units of (m, r, d) as 0 = none, 1 = m, 2 = r, 3 = d.
struct SlotTensor {
  torch::Tensor TorchHead::*tensor;
  std::vector<double> HeadPositionWeights::*values;
  int rows, cols;  // 0 when the slot tensor has fewer dimensions
};
constexpr SlotTensor kSlotTensors[] = {
    {&TorchHead::query_weight, &HeadPositionWeights::query_weight, 2, 1},
    {&TorchHead::query_bias, &HeadPositionWeights::query_bias, 2, 0},
    {&TorchHead::key_weight, &HeadPositionWeights::key_weight, 2, 1},
    {&TorchHead::key_bias, &HeadPositionWeights::key_bias, 2, 0},
    {&TorchHead::value_weight, &HeadPositionWeights::value_weight, 3, 1},
    {&TorchHead::value_bias, &HeadPositionWeights::value_bias, 3, 0},
    {&TorchHead::readout_c_weight, &HeadPositionWeights::readout_c_weight, 3, 1},
    {&TorchHead::readout_c_bias, &HeadPositionWeights::readout_c_bias, 3, 0},
    {&TorchHead::readout_e_weight, &HeadPositionWeights::readout_e_weight, 1, 0},
    {&TorchHead::readout_e_bias, &HeadPositionWeights::readout_e_bias, 0, 0},
};

std::vector<std::int64_t> slot_shape(const SlotTensor& field, const HeadWeights& w) {
  const std::int64_t sizes[] = {0, w.m, w.r, w.d};
  std::vector<std::int64_t> shape;
  if (field.rows != 0) shape.push_back(sizes[field.rows]);
  if (field.cols != 0) shape.push_back(sizes[field.cols]);
  return shape;  // empty: a scalar per slot (readout_e bias)
}

}  // namespace

HeadWeights to_head_weights(const TorchHead& head) {
  HeadWeights out;
  out.activation = head.feature;
  out.m = head.m;
  out.r = head.r;
  out.d = head.d;
  out.positions = head.positions;
  out.by_position.resize(static_cast<std::size_t>(head.query_weight.size(0)));
  for (std::size_t p = 0; p < out.by_position.size(); ++p)
    for (const SlotTensor& field : kSlotTensors)
      out.by_position[p].*field.values =
          to_vector((head.*field.tensor)[static_cast<std::int64_t>(p)]);
  if (head.feature == FeatureMap::Softmax)
    out.temperature = std::exp(head.log_temperature.item<double>());
  return out;
}

TorchHead from_head_weights(const HeadWeights& weights) {
  TorchHead head;
  head.feature = trained_feature_map(weights.activation);
  head.m = weights.m;
  head.r = weights.r;
  head.d = weights.d;
  head.positions = weights.positions;
  for (const SlotTensor& field : kSlotTensors) {
    std::vector<torch::Tensor> slots;
    for (const HeadPositionWeights& w : weights.by_position)
      slots.push_back(from_vector(w.*field.values, slot_shape(field, weights)));
    head.*field.tensor = torch::stack(slots);
  }
  head.log_temperature = torch::full({}, std::log(weights.temperature.value_or(1.0)), kDouble);
  return head;
}

}  // namespace kernelrank::train
